// Quarto's browser board (the web-board contract: render(root, position, act, seat)).
//
// Shows only position.view and offers only what position.legal lists.
// The board's outer element carries data-board="quarto".
// Clickable elements (stable data-* attributes, used by tests and tools):
//   data-piece="<code>"   a piece of the pool, e.g. "DTRH"; click = "give DTRH"   (Q3.2)
//   data-square="<name>"  a board square a1..d4; click on an empty one = "place b2" (Q3.3)
//   data-action="quarto"  the Quarto! claim button (shown when legal lists it, Q5.2)
//   data-action="done"    the "done" button after the 16th placement (Q5.4)
//   data-act="<action>"   on every element a click on which plays that action (give, place)
// Pieces are drawn as SVG so all four traits show at once (Q1.2): colour light/dark
// (pale wood / dark wood), height tall/short, shape round (cylinder) / square (box),
// top solid / hollow (a dark hole in the top face). Every piece has a tooltip.
// Keyboard and screen readers: every clickable element is a focusable role="button" with
// an accessible name (a piece: its four traits; a square: its name and piece), played
// with Enter or Space; arrow keys move between the squares of the board. The sentences
// shown are in T (one place, keyed by message id).
import { control, named, focusedKey, restoreFocus, gridArrows, roving } from "/static/board-keys.js";
import { el, svgEl, injectStyle } from "/static/board-dom.js";
import { words } from "/static/i18n.js";

const [T, fill] = words({
  light: "light", dark: "dark", short: "short", tall: "tall", round: "round",
  square: "square", solid: "solid", hollow: "hollow",
  over: "Game over",
  placing: "Player {p} is placing a piece",
  choosing: "Player {p} is choosing a piece",
  claimToo: " — or press Quarto! if the piece just placed completed a winning line",
  give: "Your turn: click a piece of the pool to give it{claim}",
  place: "Your turn: click an empty square to place {piece}{claim}",
  last: "All 16 placed: claim Quarto! or say done (Q5.4)",
  inHand: "In hand:",
  nextGiven: "— (a piece is given next)",
  none: "—",
  quarto: "Quarto!",
  done: "Done (no claim)",
  quartoTip: "Claim a winning pattern through the piece just placed (Q5.2, Q5.3)",
  doneTip: "No claim after the 16th placement (Q5.4)",
  pool: "Pool ({n})",
  board: "Board",
  squareEmpty: "{name}: empty",
  squareFull: "{name}: {piece}",
  placeOn: "place {piece} on {name}",
  giveIt: "give {piece}",
  legendColour: "colour: light / dark",
  legendHeight: "height: short / tall",
  legendShape: "shape: round / square",
  legendTop: "top: solid / hollow",
}, "tabletop_quarto");

const STYLE_ID = "tt-quarto-style";
const CSS = `
.qt { font-family: system-ui, sans-serif; color: #2b2118; display: flex; flex-wrap: wrap;
  gap: 18px; align-items: flex-start; }
.qt-col { display: flex; flex-direction: column; gap: 10px; align-items: flex-start; }
.qt-status { max-width: 380px; font-weight: 600; font-size: 15px; padding: 6px 10px; border-radius: 6px;
  background: #f3ead9; }
.qt-status.qt-mine { background: #ffe08a; }
.qt-board { --sq: min(84px, calc((100vw - 96px) / 4.4)); display: grid;
  grid-template-columns: 22px repeat(4, var(--sq));
  grid-template-rows: repeat(4, var(--sq)) 22px; gap: 4px; background: #7a5230; padding: 10px;
  border-radius: 14px; box-shadow: 0 3px 10px #0004; width: max-content; }
.qt-sq svg { width: 66%; height: auto; }
.qt [role="button"]:focus-visible { outline: 3px solid #1e4fd0; outline-offset: 2px; }
.qt-coord { color: #f3e2c3; font-weight: 700; display: flex; align-items: center;
  justify-content: center; font-size: 14px; }
.qt-sq { background: #c99a62; border-radius: 50%; display: flex; align-items: center;
  justify-content: center; position: relative; border: 3px solid transparent; }
.qt-sq.qt-legal { cursor: pointer; background: #e2c08f; box-shadow: inset 0 0 0 2px #fff8; }
.qt-sq.qt-legal:hover { background: #ecd3a8; border-color: #fff8; }
.qt-sq.qt-last { border-color: #2e86de; }
.qt-sq.qt-win { border-color: #e63946; background: #f6c1a0; box-shadow: 0 0 10px #e63946; }
.qt-sq .qt-name { position: absolute; top: 3px; left: 50%; transform: translateX(-50%);
  font-size: 10px; color: #2b1a0a; font-weight: 600; }
.qt-sq svg { margin-top: 6px; }
.qt-pool { display: grid; grid-template-columns: repeat(4, minmax(0, 72px)); gap: 6px; }
.qt-piece svg { max-width: 100%; height: auto; }
.qt-piece { display: flex; flex-direction: column; align-items: center; border-radius: 8px;
  padding: 2px; border: 2px solid transparent; background: #f7f1e6; }
.qt-piece.qt-legal { cursor: pointer; background: #fff; border-color: #c9b08a; }
.qt-piece.qt-legal:hover { border-color: #2e86de; background: #eaf3ff; }
.qt-code { font: 11px monospace; color: #5a4633; }
.qt-hand { display: flex; align-items: center; gap: 10px; padding: 6px 10px; border-radius: 8px;
  background: #fff4cf; border: 2px solid #f0b400; min-height: 60px; max-width: 100%; }
.qt-col { min-width: 0; max-width: 100%; }
.qt-hand > .qt-h { white-space: nowrap; } /* "V ruce:", "В ръката:" on one line at 390 px */
.qt-hand > .qt-piece { flex: none; } /* the held piece keeps its size; the words wrap */
.qt-code { white-space: nowrap; } /* a code ("DTRH") is never broken across lines */
.qt-h { font-weight: 700; font-size: 14px; }
.qt-btn { font-size: 16px; font-weight: 700; padding: 8px 18px; border-radius: 8px;
  border: 2px solid #8c1d17; background: #b3261e; color: #fff; cursor: pointer; }
.qt-btn.qt-plain { background: #fff; color: #333; border-color: #888; }
.qt-legend { font-size: 12px; color: #4a3b2c; display: grid;
  grid-template-columns: auto auto auto; gap: 2px 8px; align-items: center; }
.qt-legend svg { display: block; }
`;

const TRAITS = [
  ["colour", "light", "dark"],
  ["height", "short", "tall"],
  ["shape", "round", "square"],
  ["top", "solid", "hollow"],
];
const LETTERS = [["L", "D"], ["S", "T"], ["R", "Q"], ["F", "H"]];
const FILES = "abcd";

/** The four traits of a piece code such as "DTRH": {dark, tall, square, hollow}. */
function traits(code) {
  const c = code.toUpperCase();
  return { dark: c[0] === "D", tall: c[1] === "T", square: c[2] === "Q", hollow: c[3] === "H" };
}

/** Words for a piece: "dark, tall, round, hollow". */
function describe(code) {
  const t = traits(code);
  return [t.dark ? T.dark : T.light, t.tall ? T.tall : T.short,
    t.square ? T.square : T.round, t.hollow ? T.hollow : T.solid].join(", ");
}

/** An SVG drawing of a piece (side view with its top face visible). */
function pieceSvg(code, size = 64) {
  const t = traits(code);
  const body = t.dark ? "#5b3414" : "#f4dfb4";
  const side = t.dark ? "#3f220b" : "#d9bd86";
  const top = t.dark ? "#7a4a22" : "#fff3d6";
  const line = t.dark ? "#1e1005" : "#8a6a3a";
  const svg = svgEl("svg", { viewBox: "0 0 60 80", width: size * 0.75, height: size,
    "aria-hidden": "true", focusable: "false" });
  const title = svgEl("title", {});
  title.textContent = `${describe(code)} (${code})`;
  svg.appendChild(title);
  const h = t.tall ? 50 : 24;
  const base = 72;
  const topY = base - h;
  if (t.square) {
    // a box: front face, right side face, rhombus top
    svg.appendChild(svgEl("rect", { x: 6, y: topY, width: 36, height: h, fill: body,
      stroke: line, "stroke-width": 1.5 }));
    svg.appendChild(svgEl("polygon", { points: `42,${topY} 54,${topY - 9} 54,${base - 9} 42,${base}`,
      fill: side, stroke: line, "stroke-width": 1.5 }));
    svg.appendChild(svgEl("polygon", { points: `6,${topY} 18,${topY - 9} 54,${topY - 9} 42,${topY}`,
      fill: top, stroke: line, "stroke-width": 1.5 }));
    if (t.hollow) {
      svg.appendChild(svgEl("polygon", {
        points: `17,${topY - 1.5} 22,${topY - 7.5} 43,${topY - 7.5} 38,${topY - 1.5}`,
        fill: "#1a1a1a", stroke: "#000", "stroke-width": 0.8 }));
    }
  } else {
    // a cylinder: body with an elliptical bottom and top
    svg.appendChild(svgEl("path", {
      d: `M8 ${topY} L8 ${base} A22 7 0 0 0 52 ${base} L52 ${topY} Z`,
      fill: body, stroke: line, "stroke-width": 1.5 }));
    svg.appendChild(svgEl("ellipse", { cx: 30, cy: topY, rx: 22, ry: 7, fill: top,
      stroke: line, "stroke-width": 1.5 }));
    if (t.hollow) {
      svg.appendChild(svgEl("ellipse", { cx: 30, cy: topY, rx: 10, ry: 3.4, fill: "#1a1a1a",
        stroke: "#000", "stroke-width": 0.8 }));
    }
  }
  return svg;
}

function pieceBox(code, cls) {
  const box = el("div", "qt-piece " + (cls || ""));
  box.title = `${describe(code)} (${code})`;
  box.appendChild(pieceSvg(code));
  box.appendChild(el("span", "qt-code", code));
  return box;
}

const LINES = (() => {
  const out = [];
  for (let r = 1; r <= 4; r++) out.push([...FILES].map((f) => f + r));
  for (const f of FILES) out.push([1, 2, 3, 4].map((r) => f + r));
  out.push([0, 1, 2, 3].map((i) => FILES[i] + (i + 1)));
  out.push([0, 1, 2, 3].map((i) => FILES[i] + (4 - i)));
  return out;
})();
const BLOCKS = (() => {
  const out = [];
  for (let f = 0; f < 3; f++) {
    for (let r = 1; r < 4; r++) {
      out.push([FILES[f] + r, FILES[f + 1] + r, FILES[f] + (r + 1), FILES[f + 1] + (r + 1)]);
    }
  }
  return out;
})();

function shares(codes) {
  for (let i = 0; i < 4; i++) {
    if (codes.every((c) => c[i] === codes[0][i])) return true;
  }
  return false;
}

/** The squares of the winning pattern(s) at the end (Q4): those the result names,
 *  else full lines (then 2×2 blocks, Q4.4) through the last placement sharing a trait. */
function winningSquares(position, view) {
  const won = new Set();
  if (!(view.winners || []).length) return won;
  const named = String(position.reason || "").match(/\b[a-d][1-4]\b/g);
  if (named) { named.forEach((s) => won.add(s)); return won; }
  const board = view.board || {};
  for (const group of [LINES, BLOCKS]) {
    for (const p of group) {
      if (view.last_placed && !p.includes(view.last_placed)) continue;
      if (p.every((s) => board[s]) && shares(p.map((s) => board[s]))) {
        p.forEach((s) => won.add(s));
      }
    }
    if (won.size) break;
  }
  return won;
}

function statusText(position, view, legal, seat) {
  if (view.phase === "over") return T.over;  // who won and why: the page says it once
  if (position.status === "over") return T.over;  // e.g. lost on time: the page says why
  if (!legal.length) {
    return fill(view.phase === "place" ? "placing" : "choosing", { p: view.to_act });
  }
  const claim = legal.includes("quarto") ? T.claimToo : "";
  if (view.phase === "give") return fill("give", { claim });
  if (view.phase === "place") return fill("place", { piece: view.in_hand, claim });
  return T.last;
}

function legend() {
  const box = el("div", "qt-legend");
  const pairs = [["LSRF", "DSRF", T.legendColour], ["LSRF", "LTRF", T.legendHeight],
    ["LSRF", "LSQF", T.legendShape], ["LSRF", "LSRH", T.legendTop]];
  for (const [a, b, text] of pairs) {
    box.appendChild(pieceSvg(a, 40));
    box.appendChild(pieceSvg(b, 40));
    box.appendChild(el("span", "", text));
  }
  return box;
}

/** Draw the position into root; clicks call act(text) with Quarto notation (Q2.3). */
export function render(root, position, act, seat) {
  injectStyle(STYLE_ID, CSS);
  const view = position.view || {};
  const legal = position.legal || [];
  const can = new Set(legal.map((t) => t.toLowerCase()));
  const board = view.board || {};
  const won = position.status === "over" || view.phase === "over"
    ? winningSquares(position, view) : new Set();
  const focused = focusedKey(root);
  root.replaceChildren();
  const wrap = el("div", "qt");
  wrap.dataset.board = "quarto";

  const left = el("div", "qt-col");
  const status = el("div", "qt-status" + (legal.length ? " qt-mine" : ""),
    statusText(position, view, legal, seat));
  left.appendChild(status);
  const grid = el("div", "qt-board");
  grid.setAttribute("role", "group");
  grid.setAttribute("aria-label", T.board);
  grid.addEventListener("keydown", (event) => arrows(grid, event));
  for (let rank = 4; rank >= 1; rank--) {
    grid.appendChild(el("div", "qt-coord", String(rank)));
    for (const f of FILES) {
      const name = f + rank;
      const sq = el("div", "qt-sq");
      sq.dataset.square = name;
      const code = board[name];
      const said = code ? fill("squareFull", { name, piece: `${describe(code)} (${code})` })
        : fill("squareEmpty", { name });
      if (code) sq.appendChild(pieceSvg(code, 74));
      sq.title = said;
      sq.appendChild(el("span", "qt-name", name));
      if (name === view.last_placed) sq.classList.add("qt-last");
      if (won.has(name)) sq.classList.add("qt-win");
      const text = `place ${name}`;
      if (can.has(text)) {
        sq.classList.add("qt-legal");
        control(sq, fill("placeOn", { piece: view.in_hand, name }), `square:${name}`, () => act(text));
        sq.dataset.act = text;
      } else {
        named(sq, said);
      }
      grid.appendChild(sq);
    }
  }
  grid.appendChild(el("div", ""));
  for (const f of FILES) grid.appendChild(el("div", "qt-coord", f));
  left.appendChild(grid);
  wrap.appendChild(left);

  const right = el("div", "qt-col");
  const hand = el("div", "qt-hand");
  hand.appendChild(el("span", "qt-h", T.inHand));
  if (view.in_hand) {
    const held = pieceBox(view.in_hand);
    held.setAttribute("aria-hidden", "true");
    hand.appendChild(held);
    hand.appendChild(el("span", "", `${describe(view.in_hand)} (${view.in_hand})`));
  } else {
    hand.appendChild(el("span", "", view.phase === "give" ? T.nextGiven : T.none));
  }
  right.appendChild(hand);
  const buttons = el("div", "");
  for (const [word, label, cls] of [["quarto", T.quarto, "qt-btn"],
    ["done", T.done, "qt-btn qt-plain"]]) {
    if (!can.has(word)) continue;
    const b = el("button", cls, label);
    b.type = "button";
    b.dataset.action = word;
    b.dataset.act = word;
    b.dataset.focus = `action:${word}`;
    b.title = word === "quarto" ? T.quartoTip : T.doneTip;
    b.addEventListener("click", () => act(word));
    buttons.appendChild(b);
    buttons.appendChild(document.createTextNode(" "));
  }
  if (buttons.childNodes.length) right.appendChild(buttons);
  const pool = view.pool || [];
  const poolTitle = el("div", "qt-h", fill("pool", { n: pool.length }));
  poolTitle.id = "qt-pool-title";
  right.appendChild(poolTitle);
  const poolBox = el("div", "qt-pool");
  poolBox.setAttribute("role", "group");
  poolBox.setAttribute("aria-labelledby", "qt-pool-title");
  for (const code of pool) {
    const text = `give ${code}`;
    const box = pieceBox(code, can.has(text.toLowerCase()) ? "qt-legal" : "");
    box.dataset.piece = code;
    const said = `${describe(code)} (${code})`;
    if (can.has(text.toLowerCase())) {
      control(box, fill("giveIt", { piece: said }), `piece:${code}`, () => act(text));
      box.dataset.act = text;  // the action a click plays (the coach marks a hinted one)
    } else {
      named(box, said);
    }
    poolBox.appendChild(box);
  }
  right.appendChild(poolBox);
  // one tab stop each for the pool and the board's free squares; arrows move inside them
  roving([...poolBox.querySelectorAll("[data-act]")], 4, focused);
  const free = [...grid.querySelectorAll(".qt-legal")];
  const stop = free.find((sq) => sq.dataset.focus === focused) || free[0];
  free.forEach((sq) => sq.setAttribute("tabindex", sq === stop ? "0" : "-1"));
  const key = legend();
  key.setAttribute("aria-hidden", "true");
  right.appendChild(key);
  wrap.appendChild(right);
  root.appendChild(wrap);
  restoreFocus(root, focused);
}

/** Arrow keys move the focus (and the board's one tab stop) between the squares that
 *  take a piece, passing over the others. */
function arrows(grid, event) {
  const where = (node) => {
    const name = node.dataset && node.dataset.square;
    return name ? [FILES.indexOf(name[0]), Number(name[1]) - 1] : null;
  };
  const find = (f, r) => grid.querySelector(`[data-square="${FILES[f]}${r + 1}"].qt-legal`);
  const from = event.target;
  gridArrows(event, 4, 4, where, find);
  const to = document.activeElement;
  if (to !== from && grid.contains(to)) {
    from.setAttribute("tabindex", "-1");
    to.setAttribute("tabindex", "0");
  }
}

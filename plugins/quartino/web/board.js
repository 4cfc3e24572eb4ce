// Quartino's browser board (the web-board contract: render(root, position, act, seat)).
//
// Shows only position.view (your own stand, the others' stands face down, N7) and offers
// only what position.legal lists. Clickable elements (stable data-* attributes):
//   data-colour="Y|B|G|P"   a colour of the supply: picks the colour to place (N4.2)
//   data-field="c|r0..r7"   a field of the wheel: with a colour picked = "place Y r3"
//   data-card="X|abc"       a card of your stand: picks the card to claim (N4.3)
//   data-rotation="0..7"    with a card picked = "claim P|YBG 5" (rotation k, N3.2)
//   data-action="end"       ends the turn (N4.5)
//   data-act="end"          the same button, naming the action it plays (the coach marks it)
// The wheel: centre c and ring r0..r7 clockwise from the top; each field shows its stack
// bottom to top (only the top pawn counts, N3.1). A card is drawn as the piece of the
// wheel it shows: its centre colour and three consecutive ring fields (N1.3).
// Every colour also carries its letter (Y, B, G, P), on pawns, fields and cards, so
// nothing is told by colour alone. Keyboard and screen readers: every clickable element
// is a focusable role="button" with a name (a field: its name and stack; a card: its
// colours), played with Enter or Space. The sentences shown are in T (keyed by message id).
import { control, named, focusedKey, restoreFocus, roving } from "/static/board-keys.js";
import { el, svgEl, injectStyle } from "/static/board-dom.js";
import { words } from "/static/i18n.js";

const [T, fill] = words({
  yellow: "yellow", blue: "blue", green: "green", pink: "pink",
  over: "Game over",
  toAct: "Player {p} to act",
  placeOwed: ["Your turn: place a pawn ({n} owed): pick a colour, then a field", "Your turn: place a pawn ({n} owed): pick a colour, then a field"],
  claimOrEnd: "Your turn: claim a card (pick it, then its rotation) or end your turn",
  fieldEmpty: "{name}: empty",
  fieldStack: ["{name}: {n} pawn, bottom to top {colours}; top {top}", "{name}: {n} pawns, bottom to top {colours}; top {top}"],
  placeOn: "place {colour} on {field}",
  cardName: "card {code}: centre {centre}, then clockwise {ring}",
  startCheck: "Start check (player {p}): {text}",
  checkColumn: "“column”: {fields} emptied",
  checkColours: "“4 colours” ({colours})",
  checkNone: "no situation",
  checkLearning: "no start check (learning variant)",
  checkLapsed: "the supply is empty, placements lapse",
  checkOwed: ["{n} placement owed", "{n} placements owed"],
  checkJoin: "; ",
  turnsPlayed: ["{n} turn played. ", "{n} turns played. "],
  turnOf: "Turn {n}; a draw after {max} turns. ",
  learning: "Learning variant: no start check. ",
  mirror: "Mirror option: cards also match turned over.",
  supply: "Supply (pick a colour to place)",
  pawns: "{colour} ×{n}",
  pawnsTip: ["{n} {colour} pawn left (7 in all)", "{n} {colour} pawns left (7 in all)"],
  pickColour: "pick {colour} to place ({n} left)",
  yourStand: "Your stand ({n} to do)",
  standTip: "centre colour in the middle, ring colours clockwise",
  matchesNow: "; matches the board now at k={ks}",
  pickCard: "pick {card} to claim",
  noCards: "no cards left",
  cardHelp: "A card shows the centre colour and three ring fields side by side, clockwise; it may lie at any of the 8 turns of the wheel.",
  claimHead: "Claim {card}: choose where it lies (✓ = matches now)",
  rotation: "{text}: centre and r{a}, r{b}, r{c}",
  rotationOk: " (matches)",
  rotationBad: " (does not match: a false claim ends your turn, N4.4)",
  endTurn: "End turn",
  endTip: "end your turn (N4.5)",
  players: "Players",
  you: "Player {p} (you)",
  other: "Player {p}",
  winner: " ★ winner",
  toDo: ["{n} card still to do", "{n} cards still to do"],
  noneDone: "none done",
  player: "player",
  cardsToDo: "cards to do",
  done: "done",
  faceDown: "a card face down",
  outOfPlay: "Out of play",
  wheel: "The wheel",
}, "tabletop_quartino");

const STYLE_ID = "tt-quartino-style";
const CSS = `
.qn { font-family: system-ui, sans-serif; color: #222; display: flex; flex-wrap: wrap;
  gap: 18px; align-items: flex-start; }
.qn-col { display: flex; flex-direction: column; gap: 10px; max-width: min(560px, 100%); min-width: 0; }
.qn-col.qn-left { width: min(390px, 100%); }
.qn-wheel { width: 100%; max-width: 380px; height: auto; }
.qn [role="button"]:focus-visible, .qn-wheel [role="button"]:focus { outline: 3px solid #1e4fd0; outline-offset: 2px; }
.qn-wheel .qn-field[role="button"]:focus .qn-bg { stroke: #1e4fd0; stroke-width: 5; }
.qn-players { max-width: 100%; }
.qn-table-wrap { overflow-x: auto; max-width: 100%; }
.qn-status { font-weight: 600; font-size: 15px; padding: 6px 10px; border-radius: 6px;
  background: #eef0f4; }
.qn-status.qn-mine { background: #ffe08a; }
.qn-note { font-size: 13px; color: #4a4a4a; }
.qn-wheel .qn-field { cursor: default; }
.qn-wheel .qn-field.qn-legal { cursor: pointer; }
.qn-wheel .qn-field.qn-legal:hover .qn-bg { stroke: #111; stroke-width: 4; }
.qn-wheel .qn-field.qn-cover .qn-bg { stroke: #e63946; stroke-width: 5; }
.qn-supply { display: flex; gap: 8px; flex-wrap: wrap; }
.qn-pawn { display: flex; align-items: center; gap: 6px; padding: 5px 10px; border-radius: 20px;
  border: 2px solid #bbb; background: #fff; font-weight: 600; font-size: 14px; }
.qn-pawn.qn-legal { cursor: pointer; }
.qn-pawn.qn-legal:hover { border-color: #333; }
.qn-pawn.qn-picked { border-color: #111; box-shadow: 0 0 0 3px #ffd24d; }
.qn-pawn.qn-empty { color: #5d5d5d; border-style: dashed; }
.qn-dot { width: 20px; height: 20px; border-radius: 50%; border: 1px solid #0006; display: flex;
  align-items: center; justify-content: center; font: 700 11px system-ui, sans-serif; }
.qn-h { font-weight: 700; font-size: 14px; }
.qn-cards { display: flex; gap: 8px; flex-wrap: wrap; }
.qn-card { display: flex; flex-direction: column; align-items: center; padding: 4px 6px;
  border-radius: 8px; border: 2px solid #ccc; background: #fff; font: 12px monospace; }
.qn-card.qn-legal { cursor: pointer; border-color: #8aa; }
.qn-card.qn-match { border-color: #22a447; background: #e8f8ec; }
.qn-badge { font: 600 11px system-ui, sans-serif; color: #105c27; }
.qn-card.qn-legal:hover { border-color: #333; }
.qn-card.qn-picked { border-color: #111; box-shadow: 0 0 0 3px #ffd24d; }
.qn-back { width: 34px; height: 48px; border-radius: 5px; border: 2px solid #445;
  background: repeating-linear-gradient(45deg, #5a6b8c, #5a6b8c 4px, #7d8fb3 4px, #7d8fb3 8px); }
.qn-rots { display: grid; grid-template-columns: repeat(4, auto); gap: 6px; }
.qn-rot { display: flex; flex-direction: column; align-items: center; font-size: 12px;
  padding: 3px; border-radius: 8px; border: 2px solid #ccc; background: #fff; cursor: pointer; }
.qn-rot:hover { border-color: #333; }
.qn-rot.qn-match { border-color: #22a447; background: #e8f8ec; }
.qn-players { border-collapse: collapse; font-size: 14px; }
.qn-players td { padding: 4px 8px; border-top: 1px solid #ddd; vertical-align: middle; }
.qn-row-to-act td { background: #fff6d5; }
.qn-btn { font-size: 15px; font-weight: 700; padding: 7px 16px; border-radius: 8px;
  border: 2px solid #555; background: #fff; color: #222; cursor: pointer; }
.qn-btn:hover { background: #f0f0f0; }
`;

const COLOURS = { Y: "#f7c800", B: "#1e6fd9", G: "#22a447", P: "#f062a8" };
const NAMES = { Y: T.yellow, B: T.blue, G: T.green, P: T.pink };
// The start check (N4.1) in words, from the view's machine fields (its "text" is English).
function checkText(check) {
  const parts = [];
  if (!check.situations) parts.push(T.checkLearning);
  else {
    if ((check.column || []).length) parts.push(fill("checkColumn", { fields: check.column.join(", ") }));
    if ((check.four_colours || []).length) {
      parts.push(fill("checkColours", { colours: check.four_colours.map((c) => NAMES[c] || c).join(", ") }));
    }
    if (!parts.length) parts.push(T.checkNone);
  }
  parts.push(check.lapsed ? T.checkLapsed : fill("checkOwed", { n: check.owed }));
  return parts.join(T.checkJoin);
}
const INK = { Y: "#000", B: "#fff", G: "#000", P: "#000" }; // a letter readable on its colour
const RING = 8;
const FIELDS = ["c", ...Array.from({ length: RING }, (_, i) => `r${i}`)];
const uiState = new WeakMap(); // root -> {number, colour, card}

function polar(cx, cy, r, deg) {
  const a = (deg * Math.PI) / 180;
  return [cx + r * Math.sin(a), cy - r * Math.cos(a)];
}

/** The path of ring field i (0 = top, clockwise) between radii r1 and r2. */
function sector(cx, cy, r1, r2, i, gap) {
  const a0 = i * 45 - 22.5 + gap;
  const a1 = i * 45 + 22.5 - gap;
  const [x0, y0] = polar(cx, cy, r2, a0);
  const [x1, y1] = polar(cx, cy, r2, a1);
  const [x2, y2] = polar(cx, cy, r1, a1);
  const [x3, y3] = polar(cx, cy, r1, a0);
  return `M${x0} ${y0} A${r2} ${r2} 0 0 1 ${x1} ${y1} L${x2} ${y2} A${r1} ${r1} 0 0 0 ${x3} ${y3} Z`;
}

function tint(colour) {
  return colour ? COLOURS[colour] + "55" : "#f4f1ea";
}

/** A stack of pawns drawn as a tower of discs, bottom to top, the top pawn labelled. */
function tower(g, x, baseY, stack) {
  const slice = stack.length > 6 ? 6 : 9;
  stack.forEach((colour, i) => {
    const y = baseY - i * slice;
    const top = i === stack.length - 1;
    g.appendChild(svgEl("rect", { x: x - 15, y: y - slice, width: 30, height: slice,
      fill: COLOURS[colour], stroke: "#0008", "stroke-width": 1 }));
    g.appendChild(svgEl("ellipse", { cx: x, cy: y, rx: 15, ry: 5, fill: COLOURS[colour],
      stroke: "#0008", "stroke-width": 1 }));
    g.appendChild(svgEl("ellipse", { cx: x, cy: y - slice, rx: 15, ry: 5,
      fill: COLOURS[colour], stroke: top ? "#000" : "#0008", "stroke-width": top ? 2 : 1 }));
    if (!top && slice >= 9) {  // each pawn's letter: the colour is never the only cue
      const letter = svgEl("text", { x: x + 10, y: y - 1, "text-anchor": "middle", "font-size": 7,
        "font-weight": 700, fill: INK[colour] });
      letter.textContent = colour;
      g.appendChild(letter);
    }
  });
  if (stack.length) {
    const label = svgEl("text", { x, y: baseY - stack.length * slice + 1, "text-anchor": "middle",
      "font-size": 9, "font-weight": 700, fill: INK[stack.at(-1)] });
    label.textContent = stack.at(-1);
    g.appendChild(label);
  }
}

function fieldTitle(name, stack) {
  if (!stack.length) return fill("fieldEmpty", { name });
  const colours = stack.map((c) => NAMES[c]).join(", ");
  return fill("fieldStack", { name, n: stack.length, colours, top: NAMES[stack.at(-1)] });
}

/** The big wheel with every field's stack; fields clickable through onField(name). */
function wheel(view, clickable, onField, colour) {
  const size = 380;
  const c = size / 2;
  const svg = svgEl("svg", { viewBox: `0 0 ${size} ${size}`, width: size, height: size,
    class: "qn-wheel", role: "group", "aria-label": T.wheel });
  svg.appendChild(svgEl("circle", { cx: c, cy: c, r: c - 2, fill: "#d8cfc0" }));
  const board = view.board || {};
  FIELDS.forEach((name, f) => {
    if (!(name in board)) return;  // not in play: a research variant's smaller ring (N1.1)
    const stack = board[name] || [];
    const g = svgEl("g", { class: "qn-field" });
    g.dataset.field = name;
    const title = svgEl("title", {});
    title.textContent = fieldTitle(name, stack);
    g.appendChild(title);
    let x;
    let y;
    if (f === 0) {
      g.appendChild(svgEl("circle", { class: "qn-bg", cx: c, cy: c, r: 62, fill: tint(stack.at(-1)),
        stroke: "#8a7f6e", "stroke-width": 2 }));
      [x, y] = [c, c + 30];
    } else {
      g.appendChild(svgEl("path", { class: "qn-bg", d: sector(c, c, 72, c - 6, f - 1, 1.2),
        fill: tint(stack.at(-1)), stroke: "#8a7f6e", "stroke-width": 2 }));
      [x, y] = polar(c, c, 116, (f - 1) * 45);
      y += 4 + Math.min(stack.length, 7) * 3.5;
    }
    tower(g, x, y, stack);
    const [lx, ly] = f === 0 ? [c, c - 42] : polar(c, c, c - 22, (f - 1) * 45);
    const label = svgEl("text", { x: lx, y: ly + 4, "text-anchor": "middle", "font-size": 13,
      "font-weight": 700, fill: "#3b352c" });
    label.textContent = `${name}${stack.length ? ` (${stack.length})` : ""}`;
    g.appendChild(label);
    if (clickable(name)) {
      g.classList.add("qn-legal");
      control(g, `${fill("placeOn", { colour: NAMES[colour], field: name })}; ${fieldTitle(name, stack)}`,
        `field:${name}`, () => onField(name));
    } else {
      named(g, fieldTitle(name, stack));
    }
    svg.appendChild(g);
  });
  return svg;
}

/** A card "X|abc" drawn as its piece of the wheel at rotation k (N1.3, N3.2). */
function cardName(code) {
  return fill("cardName", { code, centre: NAMES[code[0]],
    ring: [...code.slice(2)].map((x) => NAMES[x]).join(", ") });
}

function cardSvg(code, k = 0, size = 52) {
  const svg = svgEl("svg", { viewBox: "0 0 100 100", width: size, height: size, role: "img",
    "aria-label": cardName(code) });
  const title = svgEl("title", {});
  title.textContent = cardName(code);
  svg.appendChild(title);
  const letter = (x, y, c, px) => {
    const t = svgEl("text", { x, y: y + px / 3, "text-anchor": "middle", "font-size": px,
      "font-weight": 700, fill: INK[c], "aria-hidden": "true" });
    t.textContent = c;
    svg.appendChild(t);
  };
  for (let i = 0; i < RING; i++) {
    const j = (i - k + RING) % RING;
    const colour = j < 3 ? COLOURS[code[2 + j]] : "#ece8e0";
    svg.appendChild(svgEl("path", { d: sector(50, 50, 20, 48, i, 1.5), fill: colour,
      stroke: "#0006", "stroke-width": 1 }));
    if (j < 3) letter(...polar(50, 50, 34, i * 45), code[2 + j], 15);
  }
  svg.appendChild(svgEl("circle", { cx: 50, cy: 50, r: 17, fill: COLOURS[code[0]],
    stroke: "#0006", "stroke-width": 1 }));
  letter(50, 50, code[0], 17);
  return svg;
}

function cardBox(code, cls) {
  const box = el("div", "qn-card " + (cls || ""));
  box.appendChild(cardSvg(code, 0, 60));
  box.appendChild(el("span", "", code));
  return box;
}

function tops(view) {
  const out = {};
  for (const name of FIELDS) out[name] = ((view.board || {})[name] || []).at(-1);
  return out;
}

/** Does card match at rotation k on the board as shown (N3.2, mirror when the option is on)? */
function matches(view, code, k) {
  const t = tops(view);
  if (t.c !== code[0]) return false;
  const ring = (step) => [0, 1, 2].every((i) => t[`r${(k + step * i + 2 * RING) % RING}`] === code[2 + i]);
  return ring(1) || (view.mirror === true && ring(-1));
}

function statusText(position, view, legal, seat) {
  if (view.status === "over") return T.over;  // who won and why: the page says it once
  if (position.status === "over") return T.over;  // e.g. lost on time: the page says why
  if (!legal.length) return fill("toAct", { p: view.to_act });
  const owed = view.owed || 0;
  if (owed) return fill("placeOwed", { n: owed });
  return T.claimOrEnd;
}

function playersTable(view, seat) {
  const table = el("table", "qn-players");
  const sizes = view.stand_size || {};
  for (const p of Object.keys(sizes)) {
    const row = el("tr", Number(p) === view.to_act ? "qn-row-to-act" : "");
    const who = fill(Number(p) === seat ? "you" : "other", { p });
    row.appendChild(el("td", "qn-h", who + (Number(p) === view.winner ? T.winner : "")));
    const stand = el("td", "");
    // every stand at the end; before it your own (the others' face down)
    const shown = (view.stands || {})[p] || (Number(p) === seat ? view.stand : null);
    const box = el("div", "qn-cards");
    if (shown) shown.forEach((code) => box.appendChild(cardBox(code)));
    else for (let i = 0; i < sizes[p]; i++) named(box.appendChild(el("div", "qn-back")), T.faceDown);
    stand.appendChild(box);
    stand.title = fill("toDo", { n: sizes[p] });
    row.appendChild(stand);
    const done = el("td", "");
    const doneBox = el("div", "qn-cards");
    const list = (view.done || {})[p] || [];
    list.forEach((code) => doneBox.appendChild(cardBox(code)));
    done.appendChild(list.length ? doneBox : el("span", "qn-note", T.noneDone));
    row.appendChild(done);
    table.appendChild(row);
  }
  const head = el("tr", "");
  for (const h of [T.player, T.cardsToDo, T.done]) head.appendChild(el("th", "qn-note", h));
  table.prepend(head);
  const wrap = el("div", "qn-table-wrap");
  wrap.appendChild(table);
  return wrap;
}

/** Draw the position into root; clicks call act(text) in Quartino notation (N6). */
export function render(root, position, act, seat) {
  injectStyle(STYLE_ID, CSS);
  const view = position.view || {};
  const legal = position.legal || [];
  const can = new Set(legal.map((t) => t.toUpperCase()));
  let ui = uiState.get(root);
  if (!ui || ui.number !== position.number) {
    ui = { number: position.number, colour: ui ? ui.colour : null, card: null };
    uiState.set(root, ui);
  }
  const redraw = () => render(root, position, act, seat);
  const placeable = (colour) => FIELDS.some((f) => can.has(`PLACE ${colour} ${f}`.toUpperCase()));
  if (ui.colour && !placeable(ui.colour)) ui.colour = null;
  const stand = view.stand || [];
  const claimable = (code) => can.has(`CLAIM ${code} 0`);
  if (ui.card && !claimable(ui.card)) ui.card = null;

  let focused = focusedKey(root);
  const next = ui.next;  // a colour or a card just picked: on to the fields or rotations
  ui.next = null;
  root.replaceChildren();
  const wrap = el("div", "qn");
  wrap.dataset.board = "quartino";
  const left = el("div", "qn-col qn-left");
  left.appendChild(el("div", "qn-status" + (legal.length ? " qn-mine" : ""),
    statusText(position, view, legal, seat)));
  if (view.check && view.check.text && view.status !== "over" && position.status !== "over") {
    left.appendChild(el("div", "qn-note", fill("startCheck", { p: view.check.player, text: checkText(view.check) })));
  }
  const fieldLegal = (name) => ui.colour && can.has(`PLACE ${ui.colour} ${name}`.toUpperCase());
  left.appendChild(wheel(view, fieldLegal, (name) => act(`place ${ui.colour} ${name}`), ui.colour));
  left.appendChild(el("div", "qn-note",
    (view.status === "over" ? fill("turnsPlayed", { n: view.turns || 0 })
      : fill("turnOf", { n: (view.turns || 0) + 1, max: view.max_turns })) +
    (view.situations === false ? T.learning : "") + (view.mirror ? T.mirror : "")));
  wrap.appendChild(left);

  const right = el("div", "qn-col");
  right.appendChild(el("div", "qn-h", T.supply));
  const supply = el("div", "qn-supply");
  for (const [colour, n] of Object.entries(view.supply || {})) {
    const chip = el("div", "qn-pawn");
    chip.dataset.colour = colour;
    const dot = el("span", "qn-dot", colour);
    dot.style.background = COLOURS[colour];
    dot.style.color = INK[colour];
    dot.setAttribute("aria-hidden", "true");
    chip.append(dot, fill("pawns", { colour: NAMES[colour], n }));
    chip.title = fill("pawnsTip", { n, colour: NAMES[colour] });
    if (!n) chip.classList.add("qn-empty");
    if (placeable(colour)) {
      chip.classList.add("qn-legal");
      if (ui.colour === colour) chip.classList.add("qn-picked");
      control(chip, fill("pickColour", { colour: NAMES[colour], n }), `colour:${colour}`,
        () => { ui.colour = colour; ui.next = "field:"; redraw(); });
      chip.setAttribute("aria-pressed", ui.colour === colour ? "true" : "false");
    }
    supply.appendChild(chip);
  }
  right.appendChild(supply);

  if (view.stand) {
    right.appendChild(el("div", "qn-h", fill("yourStand", { n: stand.length })));
    const cards = el("div", "qn-cards");
    for (const code of stand) {
      const box = cardBox(code, claimable(code) ? "qn-legal" : "");
      box.dataset.card = code;
      box.title = T.standTip;
      const lying = [...Array(RING).keys()].filter((k) => matches(view, code, k));
      if (lying.length) {
        box.classList.add("qn-match");
        box.appendChild(el("span", "qn-badge", `✓ k=${lying.join(",")}`));
        box.title += fill("matchesNow", { ks: lying.join(", ") });
      }
      if (claimable(code)) {
        if (ui.card === code) box.classList.add("qn-picked");
        control(box, `${fill("pickCard", { card: cardName(code) })}${lying.length ? fill("matchesNow", { ks: lying.join(", ") }) : ""}`,
          `card:${code}`, () => { ui.card = code; ui.next = "rotation:"; redraw(); });
        box.setAttribute("aria-pressed", ui.card === code ? "true" : "false");
      }
      cards.appendChild(box);
    }
    if (!stand.length) cards.appendChild(el("span", "qn-note", T.noCards));
    right.appendChild(cards);
    right.appendChild(el("div", "qn-note", T.cardHelp));
  }
  if (ui.card) {
    right.appendChild(el("div", "qn-h", fill("claimHead", { card: ui.card })));
    const rots = el("div", "qn-rots");
    for (let k = 0; k < RING; k++) {
      const text = `claim ${ui.card} ${k}`;
      if (!can.has(text.toUpperCase())) continue;
      const ok = matches(view, ui.card, k);
      const b = el("div", "qn-rot" + (ok ? " qn-match" : ""));
      b.dataset.rotation = String(k);
      b.title = fill("rotation", { text, a: k, b: (k + 1) % RING, c: (k + 2) % RING }) +
        (ok ? T.rotationOk : T.rotationBad);
      b.appendChild(cardSvg(ui.card, k, 56));
      b.appendChild(el("span", "", `k=${k}${ok ? " ✓" : ""}`));
      control(b, b.title, `rotation:${k}`, () => act(text));
      const covered = ["c", ...[0, 1, 2].map((i) => `r${(k + i) % RING}`)];
      const mark = (on) => covered.forEach((f) => {
        const g = root.querySelector(`.qn-wheel [data-field="${f}"]`);
        if (g) g.classList.toggle("qn-cover", on);
      });
      b.addEventListener("mouseenter", () => mark(true));
      b.addEventListener("mouseleave", () => mark(false));
      rots.appendChild(b);
    }
    right.appendChild(rots);
  }
  if (can.has("END")) {
    const b = el("button", "qn-btn", T.endTurn);
    b.type = "button";
    b.dataset.action = "end";
    b.dataset.act = "end";  // the action a click plays (the coach marks a hinted one)
    b.dataset.focus = "action:end";
    b.title = T.endTip;
    b.addEventListener("click", () => act("end"));
    right.appendChild(b);
  }
  right.appendChild(el("div", "qn-h", T.players));
  right.appendChild(playersTable(view, seat));
  if (view.out_of_play) {
    right.appendChild(el("div", "qn-h", T.outOfPlay));
    const box = el("div", "qn-cards");
    view.out_of_play.forEach((code) => box.appendChild(cardBox(code)));
    right.appendChild(box);
  }
  wrap.appendChild(right);
  root.appendChild(wrap);
  // one tab stop for each group of controls, the arrow keys inside it (a turn in a few keys)
  const group = (selector, columns) => {
    const nodes = [...root.querySelectorAll(selector)].filter((n) => n.dataset.focus);
    roving(nodes, columns, focused);
    return nodes;
  };
  const fields = group(".qn-wheel [data-field]", 1);
  group(".qn-supply [data-colour]", 4);
  group(".qn-cards [data-card]", 4);
  const rotations = group(".qn-rots [data-rotation]", 4);
  const first = { "field:": fields[0], "rotation:": rotations[0] }[next];
  if (first && focused) focused = first.dataset.focus;
  restoreFocus(root, focused);
}

// Quartino's browser board (the web-board contract: render(root, position, act, seat)).
//
// Shows only position.view (your own stand, the others' stands face down, N7) and offers
// only what position.legal lists. Clickable elements (stable data-* attributes):
//   data-colour="Y|B|G|P"   a colour of the supply: picks the colour to place (N4.2)
//   data-field="c|r0..r7"   a field of the wheel: with a colour picked = "place Y r3"
//   data-card="X|abc"       a card of your stand: picks the card to claim (N4.3)
//   data-rotation="0..7"    with a card picked = "claim P|YBG 5" (rotation k, N3.2)
//   data-action="end"       ends the turn (N4.5)
// The wheel: centre c and ring r0..r7 clockwise from the top; each field shows its stack
// bottom to top (only the top pawn counts, N3.1). A card is drawn as the piece of the
// wheel it shows: its centre colour and three consecutive ring fields (N1.3).

const STYLE_ID = "tt-quartino-style";
const CSS = `
.qn { font-family: system-ui, sans-serif; color: #222; display: flex; flex-wrap: wrap;
  gap: 18px; align-items: flex-start; }
.qn-col { display: flex; flex-direction: column; gap: 10px; max-width: 560px; }
.qn-col.qn-left { width: 390px; }
.qn-status { font-weight: 600; font-size: 15px; padding: 6px 10px; border-radius: 6px;
  background: #eef0f4; }
.qn-status.qn-mine { background: #ffe08a; }
.qn-note { font-size: 13px; color: #555; }
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
.qn-pawn.qn-empty { opacity: 0.4; }
.qn-dot { width: 18px; height: 18px; border-radius: 50%; border: 1px solid #0006; }
.qn-h { font-weight: 700; font-size: 14px; }
.qn-cards { display: flex; gap: 8px; flex-wrap: wrap; }
.qn-card { display: flex; flex-direction: column; align-items: center; padding: 4px 6px;
  border-radius: 8px; border: 2px solid #ccc; background: #fff; font: 12px monospace; }
.qn-card.qn-legal { cursor: pointer; border-color: #8aa; }
.qn-card.qn-match { border-color: #22a447; background: #e8f8ec; }
.qn-badge { font: 600 11px system-ui, sans-serif; color: #167a34; }
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
  border: 2px solid #555; background: #fff; cursor: pointer; }
.qn-btn:hover { background: #f0f0f0; }
`;

const COLOURS = { Y: "#f7c800", B: "#1e6fd9", G: "#22a447", P: "#f062a8" };
const NAMES = { Y: "yellow", B: "blue", G: "green", P: "pink" };
const RING = 8;
const FIELDS = ["c", ...Array.from({ length: RING }, (_, i) => `r${i}`)];
const SVG = "http://www.w3.org/2000/svg";
const uiState = new WeakMap(); // root -> {number, colour, card}

function injectStyle() {
  if (document.getElementById(STYLE_ID)) return;
  const style = document.createElement("style");
  style.id = STYLE_ID;
  style.textContent = CSS;
  document.head.appendChild(style);
}

function el(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined) node.textContent = text;
  return node;
}

function svgEl(tag, attrs) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  return node;
}

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
  });
  if (stack.length) {
    const label = svgEl("text", { x, y: baseY - stack.length * slice + 1, "text-anchor": "middle",
      "font-size": 9, "font-weight": 700, fill: stack.at(-1) === "Y" ? "#000" : "#fff" });
    label.textContent = stack.at(-1);
    g.appendChild(label);
  }
}

function fieldTitle(name, stack) {
  if (!stack.length) return `${name}: empty`;
  const words = stack.map((c) => NAMES[c]).join(", ");
  return `${name}: ${stack.length} pawn${stack.length > 1 ? "s" : ""}, bottom to top ${words}; top ${NAMES[stack.at(-1)]}`;
}

/** The big wheel with every field's stack; fields clickable through onField(name). */
function wheel(view, clickable, onField) {
  const size = 380;
  const c = size / 2;
  const svg = svgEl("svg", { viewBox: `0 0 ${size} ${size}`, width: size, height: size,
    class: "qn-wheel" });
  svg.appendChild(svgEl("circle", { cx: c, cy: c, r: c - 2, fill: "#d8cfc0" }));
  const board = view.board || {};
  FIELDS.forEach((name, f) => {
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
      g.addEventListener("click", () => onField(name));
    }
    svg.appendChild(g);
  });
  return svg;
}

/** A card "X|abc" drawn as its piece of the wheel at rotation k (N1.3, N3.2). */
function cardSvg(code, k = 0, size = 52) {
  const svg = svgEl("svg", { viewBox: "0 0 100 100", width: size, height: size, role: "img" });
  const title = svgEl("title", {});
  title.textContent = `card ${code}: centre ${NAMES[code[0]]}, then clockwise ` +
    `${[...code.slice(2)].map((x) => NAMES[x]).join(", ")}`;
  svg.appendChild(title);
  for (let i = 0; i < RING; i++) {
    const j = (i - k + RING) % RING;
    const colour = j < 3 ? COLOURS[code[2 + j]] : "#ece8e0";
    svg.appendChild(svgEl("path", { d: sector(50, 50, 20, 48, i, 1.5), fill: colour,
      stroke: "#0006", "stroke-width": 1 }));
  }
  svg.appendChild(svgEl("circle", { cx: 50, cy: 50, r: 17, fill: COLOURS[code[0]],
    stroke: "#0006", "stroke-width": 1 }));
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

function statusText(view, legal, seat) {
  if (view.status === "over") {
    if (!view.winner) return "Game over: a draw (N5.2)";
    return view.winner === seat ? "You completed your cards: you win!" :
      `Game over: player ${view.winner} completed their cards and wins`;
  }
  if (!legal.length) return `Player ${view.to_act} to act`;
  const owed = view.owed || 0;
  if (owed) return `Your turn: place a pawn (${owed} owed): pick a colour, then a field`;
  return "Your turn: claim a card (pick it, then its rotation) or end your turn";
}

function playersTable(view, seat) {
  const table = el("table", "qn-players");
  const sizes = view.stand_size || {};
  for (const p of Object.keys(sizes)) {
    const row = el("tr", Number(p) === view.to_act ? "qn-row-to-act" : "");
    const who = Number(p) === seat ? `Player ${p} (you)` : `Player ${p}`;
    row.appendChild(el("td", "qn-h", who + (Number(p) === view.winner ? " ★ winner" : "")));
    const stand = el("td", "");
    const shown = (view.stands || {})[p];
    const box = el("div", "qn-cards");
    if (shown) shown.forEach((code) => box.appendChild(cardBox(code)));
    else for (let i = 0; i < sizes[p]; i++) box.appendChild(el("div", "qn-back"));
    stand.appendChild(box);
    stand.title = `${sizes[p]} card(s) still to do`;
    row.appendChild(stand);
    const done = el("td", "");
    const doneBox = el("div", "qn-cards");
    const list = (view.done || {})[p] || [];
    list.forEach((code) => doneBox.appendChild(cardBox(code)));
    done.appendChild(list.length ? doneBox : el("span", "qn-note", "none done"));
    row.appendChild(done);
    table.appendChild(row);
  }
  const head = el("tr", "");
  for (const h of ["", "cards to do", "done"]) head.appendChild(el("td", "qn-note", h));
  table.prepend(head);
  return table;
}

/** Draw the position into root; clicks call act(text) in Quartino notation (N6). */
export function render(root, position, act, seat) {
  injectStyle();
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

  root.replaceChildren();
  const wrap = el("div", "qn");
  wrap.dataset.board = "quartino";
  const left = el("div", "qn-col qn-left");
  left.appendChild(el("div", "qn-status" + (legal.length ? " qn-mine" : ""),
    statusText(view, legal, seat)));
  if (view.check && view.check.text) {
    left.appendChild(el("div", "qn-note", `Start check (player ${view.check.player}): ${view.check.text}`));
  }
  const fieldLegal = (name) => ui.colour && can.has(`PLACE ${ui.colour} ${name}`.toUpperCase());
  left.appendChild(wheel(view, fieldLegal, (name) => act(`place ${ui.colour} ${name}`)));
  left.appendChild(el("div", "qn-note",
    (view.status === "over" ? `${view.turns || 0} turns played. `
      : `Turn ${(view.turns || 0) + 1}; a draw after ${view.max_turns} turns. `) +
    (view.situations === false ? "Learning variant: no start check. " : "") +
    (view.mirror ? "Mirror option: cards also match turned over." : "")));
  wrap.appendChild(left);

  const right = el("div", "qn-col");
  right.appendChild(el("div", "qn-h", "Supply (pick a colour to place)"));
  const supply = el("div", "qn-supply");
  for (const [colour, n] of Object.entries(view.supply || {})) {
    const chip = el("div", "qn-pawn");
    chip.dataset.colour = colour;
    const dot = el("span", "qn-dot");
    dot.style.background = COLOURS[colour];
    chip.append(dot, `${NAMES[colour]} ×${n}`);
    chip.title = `${n} ${NAMES[colour]} pawn(s) left (7 in all)`;
    if (!n) chip.classList.add("qn-empty");
    if (placeable(colour)) {
      chip.classList.add("qn-legal");
      if (ui.colour === colour) chip.classList.add("qn-picked");
      chip.addEventListener("click", () => { ui.colour = colour; redraw(); });
    }
    supply.appendChild(chip);
  }
  right.appendChild(supply);

  if (view.stand) {
    right.appendChild(el("div", "qn-h", `Your stand (${stand.length} to do)`));
    const cards = el("div", "qn-cards");
    for (const code of stand) {
      const box = cardBox(code, claimable(code) ? "qn-legal" : "");
      box.dataset.card = code;
      box.title = "centre colour in the middle, ring colours clockwise";
      const lying = [...Array(RING).keys()].filter((k) => matches(view, code, k));
      if (lying.length) {
        box.classList.add("qn-match");
        box.appendChild(el("span", "qn-badge", `✓ k=${lying.join(",")}`));
        box.title += `; matches the board now at k=${lying.join(", ")}`;
      }
      if (claimable(code)) {
        if (ui.card === code) box.classList.add("qn-picked");
        box.addEventListener("click", () => { ui.card = code; redraw(); });
      }
      cards.appendChild(box);
    }
    if (!stand.length) cards.appendChild(el("span", "qn-note", "no cards left"));
    right.appendChild(cards);
    right.appendChild(el("div", "qn-note", "A card shows the centre colour and three ring " +
      "fields side by side, clockwise; it may lie at any of the 8 turns of the wheel."));
  }
  if (ui.card) {
    right.appendChild(el("div", "qn-h", `Claim ${ui.card}: choose where it lies (✓ = matches now)`));
    const rots = el("div", "qn-rots");
    for (let k = 0; k < RING; k++) {
      const text = `claim ${ui.card} ${k}`;
      if (!can.has(text.toUpperCase())) continue;
      const ok = matches(view, ui.card, k);
      const b = el("div", "qn-rot" + (ok ? " qn-match" : ""));
      b.dataset.rotation = String(k);
      b.title = `${text}: centre and r${k}, r${(k + 1) % RING}, r${(k + 2) % RING}` +
        (ok ? " (matches)" : " (does not match: a false claim ends your turn, N4.4)");
      b.appendChild(cardSvg(ui.card, k, 56));
      b.appendChild(el("span", "", `k=${k}${ok ? " ✓" : ""}`));
      b.addEventListener("click", () => act(text));
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
    const b = el("button", "qn-btn", "End turn");
    b.dataset.action = "end";
    b.title = "end your turn (N4.5)";
    b.addEventListener("click", () => act("end"));
    right.appendChild(b);
  }
  right.appendChild(el("div", "qn-h", "Players"));
  right.appendChild(playersTable(view, seat));
  if (view.out_of_play) {
    right.appendChild(el("div", "qn-h", "Out of play"));
    const box = el("div", "qn-cards");
    view.out_of_play.forEach((code) => box.appendChild(cardBox(code)));
    right.appendChild(box);
  }
  wrap.appendChild(right);
  root.appendChild(wrap);
}

// The generic board: any game's view shown readably. Same contract as a game's own board,
// render(root, position, act, seat); the page's own legal-action buttons (data-legal) and
// text box are how a game without a board is played, so this board lists no actions.
import { words } from "/static/i18n.js";

const [T] = words({
  none: "(none)",
});
// The field names most games' views use, in the reader's language; any other key is shown
// as it is written (its underscores as spaces): a view's keys are the game's machine words.
const [FIELD] = words({
  board: "board",
  to_act: "to act",
  player: "player",
  players: "players",
  connect: "in a line to win",
  line: "winning line",
  winner: "winner",
  winners: "winners",
  scores: "scores",
  score: "score",
  turn: "turn",
  turns: "turns",
  hand: "hand",
  hands: "hands",
  stock: "stock",
  pile: "pile",
  piles: "piles",
  cards: "cards",
  pieces: "pieces",
  left: "left",
  last: "last action",
  moves: "moves",
  options: "options",
});
const fieldName = (key) => (Object.hasOwn(FIELD, key) ? FIELD[key] : key.replaceAll("_", " "));

const el = (tag, cls, text) => {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined) node.textContent = text;
  return node;
};

const isScalar = (v) => v === null || ["string", "number", "boolean"].includes(typeof v);

// Rows of a board: three or more strings of one length (3+), some with a repeated
// character (".......", "X.O"); a list of card codes is not a board.
const isGrid = (value) => value.length >= 3 && value.every((v) => typeof v === "string")
  && value.every((v) => v.length === value[0].length) && value[0].length >= 3
  && value.some((v) => new Set(v).size < v.length);

function show(value) {
  if (isScalar(value)) return el("span", "", value === null ? "—" : String(value));
  if (Array.isArray(value)) {
    if (isGrid(value)) {
      const grid = el("pre", "grid", value.join("\n"));  // rows of a board
      return grid;
    }
    if (value.every(isScalar)) {
      const box = el("span");
      if (!value.length) box.textContent = T.none;
      for (const v of value) box.append(el("span", "chip", v === null ? "—" : String(v)));
      return box;
    }
    const list = el("ol");
    for (const v of value) { const item = el("li"); item.append(show(v)); list.append(item); }
    return list;
  }
  const dl = el("dl");
  for (const [key, v] of Object.entries(value)) {
    dl.append(el("dt", "", fieldName(key)));
    const dd = el("dd");
    dd.append(show(v));
    dl.append(dd);
  }
  return dl;
}

export function render(root, position, act, seat) {
  root.replaceChildren();
  root.classList.add("gv");
  const view = position.view;
  root.append(show(view));
}

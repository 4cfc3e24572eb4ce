// Čtverák's browser board (the web-board contract: render(root, position, act, seat)).
//
// Shows only position.view (your hand; others' hands face down; the piles' face-up cards,
// never their bases or the stock, K8) and offers only what position.legal lists.
// The board's outer element carries data-board="ctverak".
// Clickable elements (stable data-* attributes):
//   data-card="<code>"       a card of your hand, e.g. "7H", "X" (joker); click selects or
//                             unselects it (aria-pressed="true"/"false"; two identical
//                             cards are two elements with the same code)
//   data-action="meld"       starts a meld with the selected cards: "meld 7S 7H X"  (K4.2)
//   data-meld="<n>"          your meld n: adds the selected cards: "add 1 7D"       (K4.2)
//   data-pile="stock"        draws from the stock: "draw stock"                     (K4.1)
//   data-pile="1".."4"       draws the pile's top card ("draw 2"), or, with one card
//                             selected, discards it there ("discard 9C 2")          (K4.3)
//   data-action="end"        ends the turn when no discard is owed                  (K4.3)

const STYLE_ID = "tt-ctverak-style";
const CSS = `
.ck { font-family: system-ui, sans-serif; color: #1d2a22; display: flex; flex-direction: column;
  gap: 12px; max-width: 1000px; }
.ck-status { font-weight: 600; font-size: 15px; padding: 6px 10px; border-radius: 6px;
  background: #e9efe9; }
.ck-status.ck-mine { background: #ffe08a; }
.ck-note { font-size: 13px; color: #4b5a50; }
.ck-table { display: flex; gap: 16px; padding: 12px; border-radius: 12px; background: #2f6b45;
  box-shadow: inset 0 0 18px #0006; align-items: flex-start; flex-wrap: wrap; }
.ck-slot { display: flex; flex-direction: column; align-items: center; gap: 4px; padding: 4px;
  border-radius: 10px; border: 2px solid transparent; min-width: 66px; }
.ck-slot-label { color: #eaf5ec; font-size: 13px; font-weight: 700; }
.ck-slot.ck-legal { cursor: pointer; border-color: #ffd24d; background: #ffffff22; }
.ck-slot.ck-legal:hover { background: #ffffff44; }
.ck-fan { position: relative; width: 58px; }
.ck-card { width: 54px; height: 76px; border-radius: 6px; background: #fff; border: 1px solid #999;
  box-shadow: 0 1px 3px #0005; display: flex; flex-direction: column; align-items: center;
  justify-content: center; font-weight: 700; font-size: 20px; line-height: 1.05;
  box-sizing: border-box; user-select: none; }
.ck-card { position: relative; }
.ck-card .ck-corner { position: absolute; top: 1px; left: 4px; font-size: 14px; line-height: 1.1; }
.ck-card .ck-pip { font-size: 26px; margin-top: 12px; }
.ck-small .ck-corner { font-size: 12px; }
.ck-small .ck-pip { font-size: 16px; margin-top: 10px; }
.ck-fan .ck-card { position: absolute; left: 0; }
.ck-card.ck-red { color: #c62828; }
.ck-card.ck-black { color: #111; }
.ck-card.ck-joker { color: #7b1fa2; background: #fbf3ff; }
.ck-card.ck-joker .ck-pip { font-size: 13px; }
.ck-small.ck-joker .ck-pip { font-size: 9px; }
.ck-base:not(.ck-back) { border: 2px dashed #6b8f76; opacity: 0.85; }
.ck-back { background: repeating-linear-gradient(45deg, #8b2b2b, #8b2b2b 5px, #a94444 5px,
  #a94444 10px); border: 2px solid #fff; }
.ck-small { width: 36px; height: 50px; font-size: 14px; }
.ck-hand { display: flex; gap: 8px; flex-wrap: wrap; align-items: flex-end; padding: 8px;
  border-radius: 10px; background: #f1ede4; min-height: 90px; }
.ck-hand .ck-card { position: relative; cursor: pointer; transition: transform 0.1s; }
.ck-hand .ck-card[aria-pressed="true"] { transform: translateY(-12px); border: 3px solid #1e6fd9;
  box-shadow: 0 6px 10px #0004; }
.ck-row { display: flex; gap: 8px; align-items: center; flex-wrap: wrap; }
.ck-btn { font-size: 15px; font-weight: 700; padding: 7px 16px; border-radius: 8px;
  border: 2px solid #555; background: #fff; cursor: pointer; }
.ck-btn:disabled { opacity: 0.4; cursor: default; }
.ck-players { display: flex; gap: 10px; flex-wrap: wrap; align-items: flex-start; }
.ck-player { border: 1px solid #cfd8cf; border-radius: 10px; padding: 8px; background: #fff;
  min-width: 220px; display: flex; flex-direction: column; gap: 6px; }
.ck-player.ck-to-act { border: 2px solid #f0b400; background: #fffaea; }
.ck-melds { display: flex; flex-wrap: wrap; gap: 2px 12px; max-width: 470px; }
.ck-meld { display: flex; gap: 3px; align-items: center; padding: 3px; border-radius: 8px;
  border: 2px solid transparent; }
.ck-meld.ck-legal { cursor: pointer; border-color: #1e6fd9; background: #eaf3ff; }
.ck-tag { font-size: 12px; padding: 1px 6px; border-radius: 10px; background: #eee; margin-left: 4px; }
.ck-tag.ck-clean { background: #c8f0d0; } .ck-tag.ck-dirty { background: #d7ecf7; }
.ck-tag.ck-jokers { background: #f0d7f7; } .ck-tag.ck-open { background: #fff0c2; }
`;

const RANKS = "A23456789TJQK";
const SUITS = "SHDC";
const SYMBOL = { S: "♠", H: "♥", D: "♦", C: "♣" };
const SUIT_NAME = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
const RANK_NAME = { A: "ace", T: "10", J: "jack", Q: "queen", K: "king" };
const uiState = new WeakMap(); // root -> {number, selected: Set of hand indices}

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

/** The canonical order of cards (rank, then suit S H D C; jokers last), as the rules sort. */
function order(code) {
  return code === "X" ? 52 : RANKS.indexOf(code[0]) * 4 + SUITS.indexOf(code[1]);
}

function sameCards(a, b) {
  const key = (list) => list.map(order).sort((x, y) => x - y).join(",");
  return a.length === b.length && key(a) === key(b);
}

/** The card's name for tooltips: "7 of hearts", "joker". */
function cardName(code) {
  if (code === "X") return "joker";
  return `${RANK_NAME[code[0]] || code[0]} of ${SUIT_NAME[code[1]]}`;
}

/** A card's short label: "7♥", "10♠", "joker". */
function label(code) {
  return code === "X" ? "joker" : (code[0] === "T" ? "10" : code[0]) + SYMBOL[code[1]];
}

/** A card face (or a face-down back when code is null). */
function cardFace(code, small) {
  const card = el("div", "ck-card" + (small ? " ck-small" : ""));
  if (code === null) {
    card.classList.add("ck-back");
    card.title = "face down";
    return card;
  }
  card.title = `${cardName(code)} (${code})`;
  if (code === "X") {
    card.classList.add("ck-joker");
    card.append(el("span", "ck-corner", "★"), el("span", "ck-pip", "Joker"));
    return card;
  }
  const rank = code[0] === "T" ? "10" : code[0];
  card.classList.add("HD".includes(code[1]) ? "ck-red" : "ck-black");
  card.append(el("span", "ck-corner", rank + SYMBOL[code[1]]), el("span", "ck-pip", SYMBOL[code[1]]));
  return card;
}

function meldTag(codes) {
  if (codes.length < 4) return ["open", "ck-open"];
  if (codes.every((c) => c === "X")) return ["joker čtverka ×2", "ck-jokers"];
  if (codes.includes("X")) return ["dirty čtverka", "ck-dirty"];
  return ["clean čtverka ✓", "ck-clean"];
}

function statusText(view, legal, seat) {
  if (view.to_act === null || view.step === "over") {
    const w = view.winners || [];
    const who = !w.length ? "a draw" : w.includes(seat) ? "you win!" : `player ${w.join(", ")} wins`;
    return `Game over: ${who}` + (view.reason ? ` — ${view.reason}` : "");
  }
  if (!legal.length) return `Player ${view.to_act} to act (${view.step})`;
  if (view.step === "refill") {
    return `Your turn: draw to 4 cards — click the stock or a pile's top card (K4.1)`;
  }
  return view.discard_owed
    ? "Your turn: select cards to meld or add; then select one card and click a pile to discard it"
    : "Your turn: meld or add more, or end your turn";
}

/** Draw the position into root; clicks call act(text) in Čtverák notation (K7). */
export function render(root, position, act, seat) {
  injectStyle();
  const view = position.view || {};
  const legal = position.legal || [];
  const can = new Set(legal);
  let ui = uiState.get(root);
  if (!ui || ui.number !== position.number) {
    ui = { number: position.number, selected: new Set() };
    uiState.set(root, ui);
  }
  const redraw = () => render(root, position, act, seat);
  const hand = view.hand || [];
  const chosen = [...ui.selected].sort((a, b) => a - b).map((i) => hand[i]).filter(Boolean);
  const find = (verb, prefix) => legal.find((t) => {
    const w = t.split(" ");
    if (w[0] !== verb) return false;
    const fixed = prefix.length;
    return prefix.every((p, i) => w[1 + i] === p) && sameCards(w.slice(1 + fixed), chosen);
  });

  root.replaceChildren();
  const wrap = el("div", "ck");
  wrap.dataset.board = "ctverak";
  wrap.appendChild(el("div", "ck-status" + (legal.length ? " ck-mine" : ""),
    statusText(view, legal, seat)));

  // The table: stock and the four piles (bases face down until the end, K2.2).
  const table = el("div", "ck-table");
  const stock = el("div", "ck-slot");
  stock.dataset.pile = "stock";
  stock.appendChild(el("div", "ck-slot-label", "Stock"));
  stock.appendChild(view.stock ? cardFace(null) : el("div", "ck-card ck-back", ""));
  stock.appendChild(el("div", "ck-slot-label", `${view.stock} card${view.stock === 1 ? "" : "s"}`));
  stock.title = `the face-down stock: ${view.stock} cards`;
  if (can.has("draw stock")) {
    stock.classList.add("ck-legal");
    stock.addEventListener("click", () => act("draw stock"));
  }
  table.appendChild(stock);
  const bases = view.bases || null;
  (view.piles || []).forEach((pile, i) => {
    const n = String(i + 1);
    const slot = el("div", "ck-slot");
    slot.dataset.pile = n;
    slot.appendChild(el("div", "ck-slot-label", `Pile ${n}`));
    const fan = el("div", "ck-fan");
    const step = pile.length > 8 ? 15 : 20;
    const cards = [bases ? bases[i] : null, ...pile];
    cards.forEach((code, j) => {
      const face = cardFace(code);
      face.style.top = `${j * step}px`;
      if (j === 0) {
        face.title = bases ? `base: ${cardName(code)} (${code})` : "base (face down, never taken)";
        face.classList.add("ck-base");
      }
      fan.appendChild(face);
    });
    fan.style.height = `${76 + (cards.length - 1) * step}px`;
    slot.appendChild(fan);
    slot.appendChild(el("div", "ck-slot-label", pile.length ? `top ${label(pile.at(-1))}` : "empty"));
    const draw = `draw ${n}`;
    const discard = chosen.length === 1 ? `discard ${chosen[0]} ${n}` : null;
    let text = null;
    if (can.has(draw)) {
      text = draw;
      slot.title = `draw the top card of pile ${n}`;
    } else if (discard && can.has(discard)) {
      text = discard;
      slot.title = `discard ${cardName(chosen[0])} on pile ${n}`;
    }
    if (text) {
      slot.classList.add("ck-legal");
      slot.addEventListener("click", () => act(text));
    }
    table.appendChild(slot);
  });
  wrap.appendChild(table);

  // Your hand and the buttons.
  if (view.hand) {
    wrap.appendChild(el("div", "", "")).appendChild(
      el("b", "", `Your hand (${hand.length}) — click cards to select them`));
    const box = el("div", "ck-hand");
    hand.forEach((code, i) => {
      const face = cardFace(code);
      face.dataset.card = code;
      face.setAttribute("aria-pressed", ui.selected.has(i) ? "true" : "false");
      face.addEventListener("click", () => {
        if (ui.selected.has(i)) ui.selected.delete(i); else ui.selected.add(i);
        redraw();
      });
      box.appendChild(face);
    });
    if (!hand.length) box.appendChild(el("span", "ck-note", "no cards"));
    wrap.appendChild(box);
    const row = el("div", "ck-row");
    const meldText = chosen.length ? find("meld", []) : undefined;
    const meld = el("button", "ck-btn", chosen.length ? `Meld ${chosen.map(label).join(" ")}` : "Meld selected");
    meld.dataset.action = "meld";
    meld.disabled = !meldText;
    meld.title = "start a meld: 2-4 cards of one rank plus jokers (K3.1, K4.2)";
    if (meldText) meld.addEventListener("click", () => act(meldText));
    row.appendChild(meld);
    if (can.has("end")) {
      const end = el("button", "ck-btn", "End turn");
      end.dataset.action = "end";
      end.title = "end the turn: you laid cards, so no discard is owed (K4.3)";
      end.addEventListener("click", () => act("end"));
      row.appendChild(end);
    }
    row.appendChild(el("span", "ck-note",
      "Add to your open meld: select cards, click the meld. Discard: select one card, click a pile."));
    if (view.step === "meld" && legal.length) wrap.appendChild(row);
  }

  // Every player's melds, hand size and čtverky.
  const players = el("div", "ck-players");
  for (const p of Object.keys(view.hand_sizes || {})) {
    const mine = Number(p) === seat;
    const box = el("div", "ck-player" + (Number(p) === view.to_act ? " ck-to-act" : ""));
    const won = (view.winners || []).includes(Number(p));
    box.appendChild(el("b", "", `Player ${p}${mine ? " (you)" : ""}${won ? " ★ winner" : ""}`));
    box.appendChild(el("span", "ck-note",
      `čtverky ${(view.ctverky || {})[p] || 0}/4 · points ${(view.points || {})[p] || 0}`));
    const handRow = el("div", "ck-row");
    const shown = (view.hands || {})[p];
    const size = view.hand_sizes[p];
    if (shown) shown.forEach((code) => handRow.appendChild(cardFace(code, true)));
    else if (!mine) for (let i = 0; i < size; i++) handRow.appendChild(cardFace(null, true));
    handRow.appendChild(el("span", "ck-note", `hand: ${size}`));
    box.appendChild(handRow);
    const melds = (view.melds || {})[p] || [];
    const meldBox = el("div", "ck-melds");
    melds.forEach((codes, j) => {
      const n = String(j + 1);
      const m = el("div", "ck-meld");
      m.appendChild(el("b", "", `${n}:`));
      codes.forEach((code) => m.appendChild(cardFace(code, true)));
      const [tag, cls] = meldTag(codes);
      m.appendChild(el("span", `ck-tag ${cls}`, tag));
      if (mine) {
        m.dataset.meld = n;
        const text = chosen.length ? find("add", [n]) : undefined;
        if (text) {
          m.classList.add("ck-legal");
          m.title = `add the selected cards to meld ${n}`;
          m.addEventListener("click", () => act(text));
        }
      }
      meldBox.appendChild(m);
    });
    box.appendChild(melds.length ? meldBox : el("span", "ck-note", "no melds yet"));
    players.appendChild(box);
  }
  wrap.appendChild(players);
  wrap.appendChild(el("div", "ck-note",
    "A čtverka is a meld of exactly 4 cards of one rank (jokers wild); clean without a joker. " +
    "Four čtverky win (a joker čtverka counts two)." +
    (view.stock_exhausted ? ` The stock ran out: idle turns ${view.idle_turns}.` : "")));
  root.appendChild(wrap);
}

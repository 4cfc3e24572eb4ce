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
//   data-act="<action>"      on the stock, a pile to draw from and End: the action a click plays
// Keyboard and screen readers: every clickable element is a focusable role="button" named
// by what it is and does (a card: its rank and suit), played with Enter or Space; hand
// cards say whether they are selected (aria-pressed). The sentences are in T (by id).
import { control, named, focusedKey, restoreFocus } from "/static/board-keys.js";
import { el, injectStyle } from "/static/board-dom.js";
import { words } from "/static/i18n.js";

const [T, fill] = words({
  joker: "joker", of: "{rank} of {suit}",
  spades: "spades", hearts: "hearts", diamonds: "diamonds", clubs: "clubs",
  ace: "ace", ten: "10", jack: "jack", queen: "queen", king: "king",
  faceDown: "face down",
  jokerFace: "Joker",
  open: "open", jokerCtverka: "joker čtverka ×2", dirty: "dirty čtverka", clean: "clean čtverka ✓",
  over: "Game over",
  toAct: "Player {p} to act ({step})",
  refill: "Your turn: draw to 4 cards — click the stock or a pile's top card (K4.1)",
  owed: "Your turn: select cards to meld or add; then select one card and click a pile to discard it",
  more: "Your turn: meld or add more, or end your turn",
  stock: "Stock",
  stockCards: ["{n} card", "{n} cards"],
  stockTip: ["the face-down stock: {n} card", "the face-down stock: {n} cards"],
  drawStock: ["draw from the stock ({n} card)", "draw from the stock ({n} cards)"],
  pile: "Pile {n}",
  base: "base: {card}",
  baseDown: "base (face down, never taken)",
  top: "top {card}",
  empty: "empty",
  pileSaid: "pile {n}: {cards}",
  pileEmpty: "pile {n}: empty",
  drawPile: "draw the top card of pile {n}, {card}",
  discardOn: "discard {card} on pile {n}",
  yourHand: "Your hand ({n}) — click cards to select them",
  yourHandEnd: "Your hand ({n})",
  handCard: "{card}",
  noCards: "no cards",
  meldSelected: "Meld selected",
  meldThese: "Meld {cards}",
  meldTip: "start a meld: 2-4 cards of one rank plus jokers (K3.1, K4.2)",
  endTurn: "End turn",
  endTip: "end the turn: you laid cards, so no discard is owed (K4.3)",
  howTo: "Add to your open meld: select cards, click the meld. Discard: select one card, click a pile.",
  you: " (you)", winner: " ★ winner",
  playerName: "Player {p}",
  tally: "čtverky {n}/4 · meld value {v}",
  tallyTip: "čtverky count to win (four win, a joker čtverka counts two); the meld value is the extended score and decides a blocked game after the čtverky (K5.2, K6)",
  handSize: "hand: {n}",
  meldsNone: "no melds yet",
  addTo: "add the selected cards to meld {n}",
  meldSaid: "meld {n}: {cards}, {tag}",
  rules: "A čtverka is a meld of exactly 4 cards of one rank (jokers wild); clean without a joker. Four čtverky win (a joker čtverka counts two).",
  stockOut: " The stock ran out: idle turns {n}.",
}, "tabletop_ctverak");

const STYLE_ID = "tt-ctverak-style";
const CSS = `
.ck { font-family: system-ui, sans-serif; color: #1d2a22; display: flex; flex-direction: column;
  gap: 12px; max-width: 1000px; }
.ck-status { font-weight: 600; font-size: 15px; padding: 6px 10px; border-radius: 6px;
  background: #e9efe9; }
.ck-status.ck-mine { background: #ffe08a; }
.ck-note { font-size: 13px; color: #3f4c44; }
.ck [role="button"]:focus-visible { outline: 3px solid #1e4fd0; outline-offset: 2px; }
.ck-slot[role="button"]:focus-visible { outline-color: #ffd24d; }
.ck-table { display: flex; gap: 16px; padding: 12px; border-radius: 12px; background: #2f6b45;
  box-shadow: inset 0 0 18px #0006; align-items: flex-start; flex-wrap: wrap; }
.ck-slot { display: flex; flex-direction: column; align-items: center; gap: 4px; padding: 4px;
  border-radius: 10px; border: 2px solid transparent; min-width: 66px; }
.ck-slot-label { color: #eaf5ec; font-size: 13px; font-weight: 700; }
.ck-slot.ck-legal { cursor: pointer; border-color: #ffd24d; background: #24543a; }
.ck-slot.ck-legal:hover { background: #1b4230; }
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
.ck-card.ck-joker .ck-pip { font-size: 11px; white-space: nowrap; } /* "Джокер" in 52 px */
.ck-small.ck-joker .ck-pip { font-size: 16px; }
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
  border: 2px solid #555; background: #fff; color: #1d2a22; cursor: pointer; }
.ck-btn:disabled { background: #eceee9; color: #4f5a52; border-color: #9aa39c; cursor: default; }
.ck-players { display: flex; gap: 10px; flex-wrap: wrap; align-items: flex-start; }
.ck-player { border: 1px solid #cfd8cf; border-radius: 10px; padding: 8px; background: #fff;
  min-width: min(220px, 100%); max-width: 100%; display: flex; flex-direction: column; gap: 6px; }
.ck-player.ck-to-act { border: 2px solid #f0b400; background: #fffaea; }
.ck-melds { display: flex; flex-wrap: wrap; gap: 2px 12px; max-width: 470px; }
.ck-meld { display: flex; gap: 3px; align-items: center; padding: 3px; border-radius: 8px;
  border: 2px solid transparent; }
.ck-meld.ck-legal { cursor: pointer; border-color: #1e6fd9; background: #eaf3ff; }
.ck-tag { font-size: 12px; padding: 1px 6px; border-radius: 10px; background: #eee; margin-left: 4px;
  color: #1d2a22; }
.ck-tag.ck-clean { background: #c8f0d0; } .ck-tag.ck-dirty { background: #d7ecf7; }
.ck-tag.ck-jokers { background: #f0d7f7; } .ck-tag.ck-open { background: #fff0c2; }
`;

const RANKS = "A23456789TJQK";
const SUITS = "SHDC";
const SYMBOL = { S: "♠", H: "♥", D: "♦", C: "♣" };
const SUIT_NAME = { S: T.spades, H: T.hearts, D: T.diamonds, C: T.clubs };
const RANK_NAME = { A: T.ace, T: T.ten, J: T.jack, Q: T.queen, K: T.king };
const uiState = new WeakMap(); // root -> {number, selected: Set of hand indices}

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
  if (code === null) return T.faceDown;
  if (code === "X") return T.joker;
  return fill("of", { rank: RANK_NAME[code[0]] || code[0], suit: SUIT_NAME[code[1]] });
}

/** A card's short label: "7♥", "10♠", the joker's name in the reader's language. */
function label(code) {
  return code === "X" ? T.joker : (code[0] === "T" ? "10" : code[0]) + SYMBOL[code[1]];
}

/** A card face (or a face-down back when code is null). */
function cardFace(code, small) {
  const card = el("div", "ck-card" + (small ? " ck-small" : ""));
  if (code === null) {
    card.classList.add("ck-back");
    card.title = T.faceDown;
    return card;
  }
  card.title = `${cardName(code)} (${code})`;
  if (code === "X") {
    card.classList.add("ck-joker");
    // a small card has no room for the word ("Джокер" broke in two at 36 px): a star,
    // its name in the tooltip as on every card
    card.append(el("span", "ck-corner", "★"), el("span", "ck-pip", small ? "★" : T.jokerFace));
    return card;
  }
  const rank = code[0] === "T" ? "10" : code[0];
  card.classList.add("HD".includes(code[1]) ? "ck-red" : "ck-black");
  card.append(el("span", "ck-corner", rank + SYMBOL[code[1]]), el("span", "ck-pip", SYMBOL[code[1]]));
  return card;
}

function meldTag(codes) {
  if (codes.length < 4) return [T.open, "ck-open"];
  if (codes.every((c) => c === "X")) return [T.jokerCtverka, "ck-jokers"];
  if (codes.includes("X")) return [T.dirty, "ck-dirty"];
  return [T.clean, "ck-clean"];
}

function statusText(position, view, legal, seat) {
  if (view.to_act === null || view.step === "over") return T.over;  // the page says who and why
  if (position.status === "over") return T.over;  // e.g. lost on time: the page says why
  if (!legal.length) return fill("toAct", { p: view.to_act, step: view.step });
  if (view.step === "refill") return T.refill;
  return view.discard_owed ? T.owed : T.more;
}

/** Draw the position into root; clicks call act(text) in Čtverák notation (K7). */
export function render(root, position, act, seat) {
  injectStyle(STYLE_ID, CSS);
  const view = position.view || {};
  const legal = position.legal || [];
  const can = new Set(legal);
  let ui = uiState.get(root);
  if (!ui || ui.number !== position.number) {
    ui = { number: position.number, selected: new Set() };
    uiState.set(root, ui);
  }
  const redraw = () => render(root, position, act, seat);
  const over = view.step === "over" || position.status === "over";
  const hand = view.hand || [];
  const chosen = [...ui.selected].sort((a, b) => a - b).map((i) => hand[i]).filter(Boolean);
  const find = (verb, prefix) => legal.find((t) => {
    const w = t.split(" ");
    if (w[0] !== verb) return false;
    const fixed = prefix.length;
    return prefix.every((p, i) => w[1 + i] === p) && sameCards(w.slice(1 + fixed), chosen);
  });

  const focused = focusedKey(root);
  root.replaceChildren();
  const wrap = el("div", "ck");
  wrap.dataset.board = "ctverak";
  wrap.appendChild(el("div", "ck-status" + (legal.length ? " ck-mine" : ""),
    statusText(position, view, legal, seat)));

  // The table: stock and the four piles (bases face down until the end, K2.2).
  const table = el("div", "ck-table");
  const stock = el("div", "ck-slot");
  stock.dataset.pile = "stock";
  stock.appendChild(el("div", "ck-slot-label", T.stock));
  stock.appendChild(view.stock ? cardFace(null) : el("div", "ck-card ck-back", ""));
  stock.appendChild(el("div", "ck-slot-label", fill("stockCards", { n: view.stock })));
  stock.title = fill("stockTip", { n: view.stock });
  if (can.has("draw stock")) {
    stock.classList.add("ck-legal");
    control(stock, fill("drawStock", { n: view.stock }), "pile:stock", () => act("draw stock"));
    stock.dataset.act = "draw stock";  // the action a click plays (the coach marks a hinted one)
  } else {
    named(stock, stock.title);
  }
  table.appendChild(stock);
  const bases = view.bases || null;
  (view.piles || []).forEach((pile, i) => {
    const n = String(i + 1);
    const slot = el("div", "ck-slot");
    slot.dataset.pile = n;
    slot.appendChild(el("div", "ck-slot-label", fill("pile", { n })));
    const fan = el("div", "ck-fan");
    const step = pile.length > 8 ? 15 : 20;
    const cards = [bases ? bases[i] : null, ...pile];
    cards.forEach((code, j) => {
      const face = cardFace(code);
      face.style.top = `${j * step}px`;
      if (j === 0) {
        face.title = bases ? fill("base", { card: `${cardName(code)} (${code})` }) : T.baseDown;
        face.classList.add("ck-base");
      }
      fan.appendChild(face);
    });
    fan.style.height = `${76 + (cards.length - 1) * step}px`;
    slot.appendChild(fan);
    slot.appendChild(el("div", "ck-slot-label", pile.length ? fill("top", { card: label(pile.at(-1)) }) : T.empty));
    const said = pile.length ? fill("pileSaid", { n, cards: pile.map(cardName).join(", ") }) : fill("pileEmpty", { n });
    const draw = `draw ${n}`;
    const discard = chosen.length === 1 ? `discard ${chosen[0]} ${n}` : null;
    let text = null;
    if (can.has(draw)) {
      text = draw;
      slot.title = fill("drawPile", { n, card: cardName(pile.at(-1)) });
    } else if (discard && can.has(discard)) {
      text = discard;
      slot.title = fill("discardOn", { card: cardName(chosen[0]), n });
    }
    if (text) {
      slot.classList.add("ck-legal");
      control(slot, `${slot.title}; ${said}`, `pile:${n}`, () => act(text));
      if (text === draw) slot.dataset.act = text;  // a discard depends on the card picked
    } else {
      named(slot, said);
    }
    table.appendChild(slot);
  });
  wrap.appendChild(table);

  // Your hand and the buttons.
  if (view.hand) {
    wrap.appendChild(el("div", "", "")).appendChild(
      el("b", "", fill(over ? "yourHandEnd" : "yourHand", { n: hand.length })));
    const box = el("div", "ck-hand");
    hand.forEach((code, i) => {
      const face = cardFace(code);
      face.dataset.card = code;
      if (over) {  // nothing to select once the game is over
        named(face, `${cardName(code)} (${code})`);
        box.appendChild(face);
        return;
      }
      control(face, `${cardName(code)} (${code})`, `card:${i}`, () => {
        if (ui.selected.has(i)) ui.selected.delete(i); else ui.selected.add(i);
        redraw();
      });
      face.setAttribute("aria-pressed", ui.selected.has(i) ? "true" : "false");
      box.appendChild(face);
    });
    if (!hand.length) box.appendChild(el("span", "ck-note", T.noCards));
    wrap.appendChild(box);
    const row = el("div", "ck-row");
    const meldText = chosen.length ? find("meld", []) : undefined;
    const meld = el("button", "ck-btn", chosen.length ? fill("meldThese", { cards: chosen.map(label).join(" ") }) : T.meldSelected);
    meld.type = "button";
    meld.dataset.action = "meld";
    meld.dataset.focus = "action:meld";
    meld.disabled = !meldText;
    meld.title = T.meldTip;
    if (meldText) meld.addEventListener("click", () => act(meldText));
    row.appendChild(meld);
    if (can.has("end")) {
      const end = el("button", "ck-btn", T.endTurn);
      end.type = "button";
      end.dataset.action = "end";
      end.dataset.act = "end";
      end.dataset.focus = "action:end";
      end.title = T.endTip;
      end.addEventListener("click", () => act("end"));
      row.appendChild(end);
    }
    row.appendChild(el("span", "ck-note", T.howTo));
    if (view.step === "meld" && legal.length) wrap.appendChild(row);
  }

  // Every player's melds, hand size and čtverky.
  const players = el("div", "ck-players");
  for (const p of Object.keys(view.hand_sizes || {})) {
    const mine = Number(p) === seat;
    const box = el("div", "ck-player" + (Number(p) === view.to_act ? " ck-to-act" : ""));
    const won = (view.winners || []).includes(Number(p));
    box.appendChild(el("b", "", fill("playerName", { p }) + (mine ? T.you : "") + (won ? T.winner : "")));
    const tally = el("span", "ck-note",
      fill("tally", { n: (view.ctverky || {})[p] || 0, v: (view.points || {})[p] || 0 }));
    tally.title = T.tallyTip;
    box.appendChild(tally);
    const handRow = el("div", "ck-row");
    const shown = (view.hands || {})[p];
    const size = view.hand_sizes[p];
    if (shown) shown.forEach((code) => named(handRow.appendChild(cardFace(code, true)), cardName(code)));
    else if (!mine) for (let i = 0; i < size; i++) named(handRow.appendChild(cardFace(null, true)), T.faceDown);
    handRow.appendChild(el("span", "ck-note", fill("handSize", { n: size })));
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
      const said = fill("meldSaid", { n, cards: codes.map(cardName).join(", "), tag });
      let text;
      if (mine) {
        m.dataset.meld = n;
        text = chosen.length ? find("add", [n]) : undefined;
        if (text) {
          m.classList.add("ck-legal");
          m.title = fill("addTo", { n });
          control(m, `${m.title}; ${said}`, `meld:${n}`, () => act(text));
        }
      }
      if (!text) named(m, said);
      meldBox.appendChild(m);
    });
    box.appendChild(melds.length ? meldBox : el("span", "ck-note", T.meldsNone));
    players.appendChild(box);
  }
  wrap.appendChild(players);
  wrap.appendChild(el("div", "ck-note",
    T.rules + (view.stock_exhausted ? fill("stockOut", { n: view.idle_turns }) : "")));
  root.appendChild(wrap);
  restoreFocus(root, focused);
}

// Display names on the match page (docs/web.md, message "name"): the "Your name" field
// (remembered in localStorage, sent again on every connection), and how a seat is called
// in the players list, the chat, the log and the status: its name beside its seat number
// ("Alice (player 2)"), never the name alone. Names are put in as text, never as HTML.
import { words } from "/static/i18n.js";

export const [N, fillN] = words({
  player: "player {p}",
  named: "{name} (player {p})",
  namedYou: "{name} (player {p}, you)",
  unnamedYou: "player {p} (you)",
  spectator: "Spectator",
  spectatorTag: "spectator",
  you: "you",
  presence: "{who}: {state}",
  openSeat: "{who}: open, anyone may take this seat in the lobby",
  waitingOpen: "Waiting for someone to take the open seat of {who} in the lobby",
  saved: "Saved: the table calls you {name}.",
  youAreNamed: "you are {name} (player {p})",
  watchingAs: "you are watching as {name}",
});

const KEY = "tabletop.name";
let names = {};   // seat (string) -> the name it chose
let open = [];    // seats still open to take from the lobby
let me = { seat: null, name: "" };

export function remembered() {
  try { return localStorage.getItem(KEY) || ""; } catch { return ""; }
}
function remember(name) {
  try { localStorage.setItem(KEY, name); } catch { /* private mode: this visit only */ }
}

/** The names and open seats of a presence (``presence.names``, ``presence.open``);
 * true when a name changed (the log is drawn again). */
export function learn(presence) {
  const before = JSON.stringify(names);
  names = presence.names || {};
  open = (presence.open || []).map(String);
  return JSON.stringify(names) !== before;
}
export const nameOf = (p) => names[String(p)] || "";
export const isOpen = (p) => open.includes(String(p));

/** The status line while open seat ``p`` is to act (null: not an open seat). */
export const waitingOpen = (p) => (isOpen(p) ? fillN("waitingOpen", { who: fillN("player", { p }) }) : null);

/** How seat ``p`` is called in a sentence: "Alice (player 2)", or "player 2". */
export function called(p) {
  const name = nameOf(p);
  return name ? fillN("named", { name, p }) : fillN("player", { p });
}

/** A players-list line: name, seat, a "you" mark, its state (``state`` the protocol's
 * word, ``said`` it translated); an open seat says so. */
export function presenceLine(seat, state, said, mine) {
  const name = nameOf(seat);
  let who = name ? fillN(mine ? "namedYou" : "named", { name, p: seat })
    : (mine ? fillN("unnamedYou", { p: seat }) : fillN("player", { p: seat }));
  if (isOpen(seat) && state === "offline") return fillN("openSeat", { who });
  return fillN("presence", { who, state: said });
}

/** One chat message as a list item: time, the sender's name (or its seat's label), its
 * seat beside it, a "you" tag on your own, then the text; all text nodes. */
export function chatItem(message, seat) {
  const span = (cls, text) => {
    const node = document.createElement("span");
    node.className = cls;
    node.textContent = text;
    return node;
  };
  const item = document.createElement("li");
  item.dataset.chat = "";
  const mine = message.mine === true || (seat !== null && message.seat === seat);
  const at = new Date(message.at * 1000);
  item.append(span("muted", `${at.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })} `));
  const who = document.createElement("b");
  const label = message.seat === null ? N.spectator : fillN("player", { p: message.seat });
  who.textContent = message.name || label;
  item.append(who);
  if (message.name) item.append(" ", span("badge", message.seat === null ? N.spectatorTag : label));
  if (mine) { item.classList.add("mine"); item.dataset.mine = ""; item.append(" ", span("badge you", N.you)); }
  item.append(": ", document.createTextNode(message.text));
  return item;
}

/** Set up the name form: prefilled from the browser, saved on submit (``send`` a message;
 * false when not connected). */
export function setUpName(send) {
  const form = document.querySelector("#name-form");
  const input = document.querySelector("#name-text");
  input.value = remembered();
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    document.querySelector("#name-note").textContent = "";
    const name = input.value.trim();
    if (name) send({ type: "name", name });
  });
}

/** On connecting (``hello``): say the remembered name again. */
export function greet(hello, send) {
  me = { seat: hello.seat, name: "" };
  const name = remembered();
  if (name) send({ type: "name", name });
}

/** The server's answer: the name kept (remembered) or why not (``error`` about name). */
export function answered(message) {
  const note = document.querySelector("#name-note");
  if (message.type === "name") {
    me.name = message.name;
    remember(message.name);
    document.querySelector("#me").textContent = me.seat === null
      ? fillN("watchingAs", { name: message.name }) : fillN("youAreNamed", { name: message.name, p: me.seat });
    document.querySelector("#name-text").value = message.name;
    note.textContent = fillN("saved", { name: message.name });
    note.classList.remove("error");
  } else {
    note.textContent = message.error;
    note.classList.add("error");
  }
}

// The match page's shell: connection, whose turn, prompt, clock, presence, the game log,
// table talk, result, rematch, undo, the text box and the legal actions, and the signals
// that it is your turn (title, opt-in sound and notification, a live status line). The
// board itself is the game's module (GET /games/{id}/board.js) or the generic board; both
// export render(root, position, act, seat) (see docs/web.md).
//
// Every sentence a person reads is in T below (one place, keyed by message id), so that a
// translation can replace it; {name} marks a value put in.
import { lang, ready, words } from "/static/i18n.js";
import { S, chanceEntry, drawSealed, toChoose, waitingLine } from "/static/sealed.js";
import { drawDeclined, drawEndings, setUpEndings } from "/static/endings.js";
import { answered, called, chatItem, greet, isOpen, learn, presenceLine, setUpName, waitingOpen } from "/static/names.js";

await ready;
const [T, fill] = words({
  connecting: "connecting…",
  yourTurn: "Your turn",
  waitingFor: "Waiting for {who}",
  overWon: "Game over: {who} won",
  overDraw: "Game over: a draw",
  and: " and ",
  you: "you",
  player: "player {p}",
  Player: "Player {p}",
  youAre: "you are player {p}",
  spectating: "you are watching",
  rulesOf: "Rules of {name}",
  titleTurn: "● Your turn · {name} — tabletop",
  titleIdle: "{name} — tabletop",
  clock: "clock, {who}: {left} s left",
  clockWaits: "the clock starts once {who} opened their link",
  clockOpen: "the clock starts once someone takes the open seat of {who} in the lobby",
  clockPaused: "clock paused: not connected",
  lost: "Connection lost: reconnecting… Nothing you click is sent until it is back.",
  notSent: "Not connected: that was not sent. Reconnecting…",
  reason: "Why: {reason}",
  scores: "Scores",
  score: "{who}: {score}",
  rematch: "Rematch (seats rotated)",
  rematchLink: "Rematch: open your new seat",
  rematchWatch: "Rematch: watch it",
  record: "Download the game record",
  undoAskYou: ["You asked to take back {n} action.", "You asked to take back {n} actions."],
  undoAsk: ["{who} asks to take back {n} action.", "{who} asks to take back {n} actions."],
  undoWaiting: "Waiting for {who}.",
  undoDone: ["Undone: {n} action taken back.", "Undone: {n} actions taken back."],
  undoNot: "Undo not done: {reason}.",
  agree: "Agree",
  decline: "Decline",
  online: "online",
  offline: "offline",
  computer: "computer",
  unknown: "unknown",
  spectators: "spectators: {n}",
  logEntry: "{who}: {text}",
  hiddenAction: "a hidden action",
  chatRead: "Spectators read the talk here; only the players write.",
  notifyAsk: "Allow notifications in the browser's question to get them.",
  notifyDenied: "The browser refuses notifications for this page.",
  notifyNone: "This browser shows no notifications.",
  notifyTitle: "Your turn",
  notifyBody: "{name}: it is your turn.",
  boardFailed: "the board could not draw this position: {err}",
});

const $ = (sel) => document.querySelector(sel);
const el = (tag, attrs = {}, text = "") => {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text) node.textContent = text;
  return node;
};
const matchId = decodeURIComponent(location.pathname.split("/").pop());
const token = new URLSearchParams(location.search).get("token");
let socket = null;
let hello = null;
let board = null;
let position = null;
let deadline = null;
let retry = 500;
let pending = null;  // the position number an action was sent on, until the answer
let wasMyTurn = false;
let log = [];

const who = (p) => (hello && hello.seat === p ? T.you : called(p));
// at the start of a line ("You: 12" in the scores): "you" capitalised in the page's language
const Who = (p) => (hello && hello.seat === p
  ? T.you.charAt(0).toLocaleUpperCase(lang) + T.you.slice(1) : fill("Player", { p }));
const connected = () => socket && socket.readyState === WebSocket.OPEN;

function send(message) {
  if (!connected()) {
    $("#error").textContent = T.notSent;
    return false;
  }
  socket.send(JSON.stringify(message));
  return true;
}
function act(text) {
  if (!position) return;
  if (pending === position.number) return;  // a double click: the first one is on its way
  $("#error").textContent = "";
  if (send({ type: "action", action: text, number: position.number })) pending = position.number;
}

async function loadBoard() {
  try {
    board = await import(hello.board || "/static/generic.js");
  } catch (err) {
    console.error("board failed to load; using the generic board", err);
    board = await import("/static/generic.js");
  }
}

function drawBoard() {
  const root = $("#board");
  try {
    board.render(root, position, act, hello.seat);
  } catch (err) {
    console.error(err);
    root.textContent = fill("boardFailed", { err });
  }
}

function drawStatus() {
  const p = position;
  const status = $("#status");
  const mine = toChoose(p, hello.seat);  // at a sealed step: still to choose
  const text = statusText(p, mine);
  if (status.textContent !== text) status.textContent = text;  // the live region speaks changes
  status.dataset.toAct = p.to_act ?? "";
  status.dataset.number = String(p.number);
  status.dataset.state = p.status;
  status.dataset.end = p.end || "";  // how it ended: "resigned", "agreed-draw", a game's word
  status.classList.toggle("mine", mine);
  const chose = p.sealed && hello.seat !== null && p.sealed.mine !== null;  // waits: no prompt
  $("#prompt").textContent = p.status === "over" || chose || !mine ? "" : p.prompt;  // yours only
  const banner = $("#undo-banner");
  if (banner.dataset.sealed && !mine) { banner.hidden = true; delete banner.dataset.sealed; }
  drawSealed($("#sealed"), p, hello.seat, who, () => send({ type: "undo" }));
  deadline = p.clock && !p.clock.waiting?.length ? performance.now() + p.clock.left * 1000 : null;
  tick();
  const legal = $("#legal");
  legal.replaceChildren();
  for (const [i, text] of p.legal.entries()) {  // shown in the reader's words, sent as notation
    const button = el("button", { "data-legal": text, type: "button" }, (p.legal_said || [])[i] || text);
    button.addEventListener("click", () => act(text));
    legal.append(button);
  }
  $("#legal-box").hidden = !p.legal.length;
  $("#act-box").hidden = hello.seat === null || p.status === "over";  // no controls after the end
  $("#undo").disabled = p.number === 0;  // nothing to undo yet
  drawEndings(p, hello, who, Who, send);
  drawResult();
  signalTurn(mine);
}

/** Whose turn, as the status line says it: an open seat's turn waits for a taker. */
function statusText(p, mine) {
  if (p.status === "over") {
    return p.winners.length ? fill("overWon", { who: p.winners.map(who).join(T.and) }) : T.overDraw;
  }
  return mine ? T.yourTurn : (waitingLine(p) ?? waitingOpen(p.to_act) ?? fill("waitingFor", { who: who(p.to_act) }));
}

function drawResult() {
  const box = $("#result");
  const p = position;
  box.hidden = p.status !== "over";
  if (box.hidden) return;
  if (box.dataset.number === String(p.number)) return;  // drawn once; keeps the rematch link
  box.dataset.number = String(p.number);
  box.replaceChildren();  // the status line above already says who won
  if (p.reason) box.append(el("p", { id: "reason" }, fill("reason", { reason: p.reason })));
  if (p.scores) {
    box.append(el("h2", { class: "h3", id: "scores-title" }, T.scores));
    const list = el("ul", { id: "scores", "aria-labelledby": "scores-title" });
    for (const [player, score] of Object.entries(p.scores)) {
      list.append(el("li", {}, fill("score", { who: Who(Number(player)), score })));
    }
    box.append(list);
  }
  if (hello.seat !== null) {
    const rematch = el("button", { id: "rematch", type: "button" }, T.rematch);
    rematch.addEventListener("click", () => send({ type: "rematch" }));
    box.append(rematch);
    const record = el("a", { id: "record",
      href: `/api/matches/${matchId}/record?token=${encodeURIComponent(token)}`,
      download: `${matchId}.json` }, T.record);
    box.append(" ", record);
  }
  box.append(el("div", { id: "rematch-link" }));
}

function tick() {
  const clock = $("#clock");
  if (!position || position.status === "over" || !position.clock) {
    clock.textContent = "";
    return;
  }
  if (!connected()) {
    clock.textContent = T.clockPaused;
    return;
  }
  if (position.clock.waiting?.length) {
    const waiting = position.clock.waiting;
    clock.textContent = waiting.every(isOpen) ? fill("clockOpen", { who: waiting.map(who).join(", ") })
      : fill("clockWaits", { who: waiting.map(who).join(", ") });
    clock.classList.remove("low");
    return;
  }
  if (deadline === null) { clock.textContent = ""; return; }
  const left = Math.max(0, (deadline - performance.now()) / 1000);
  clock.textContent = fill("clock", { who: who(position.clock.player), left: new Intl.NumberFormat(lang, { maximumFractionDigits: 0 }).format(left) });
  clock.classList.toggle("low", left <= 10);
}
setInterval(tick, 250);

function drawPresence(presence) {
  const list = $("#presence");
  list.replaceChildren();
  const renamed = learn(presence);
  const live = connected();
  for (const [seat, state] of Object.entries(presence.seats)) {
    const mine = hello && String(hello.seat) === seat;
    const shown = live ? state : "unknown";
    list.append(el("li", { class: shown, "data-presence": seat }, presenceLine(seat, shown, T[shown], mine)));
  }
  list.append(el("li", {}, fill("spectators", { n: presence.spectators })));
  if (renamed && log.length) drawLog({ from: 0, entries: log });  // the log names them
  if (position && hello) {  // a seat taken or named: the status line says it at once
    const text = statusText(position, toChoose(position, hello.seat));
    if ($("#status").textContent !== text) $("#status").textContent = text;
  }
}

function drawLog(message) {
  log = log.slice(0, message.from).concat(message.entries);
  const list = $("#log");
  while (list.children.length > message.from) list.lastElementChild.remove();
  for (const entry of message.entries) {
    // "said": the action in the reader's words, or for a text not for this seat
    // (protocol's "played") the game's sentence for it
    const text = entry.said || (entry.text === "played" ? T.hiddenAction : entry.text);
    const item = el("li", { value: String(entry.number), "data-log": String(entry.number) },
      fill("logEntry", { who: who(entry.player), text }));
    const drawn = chanceEntry({ ...entry, text });  // a chance outcome: no player's
    if (drawn !== null) { item.textContent = drawn; item.dataset.chance = ""; }
    list.append(item);
  }
  list.scrollTop = list.scrollHeight;
}

function drawChat(message) {
  const list = $("#chat");
  list.append(chatItem(message, hello ? hello.seat : null));  // text only, never HTML
  list.scrollTop = list.scrollHeight;
}

function drawUndo(message) {
  const banner = $("#undo-banner");
  if (message.type === "undo-result") {
    banner.hidden = false;
    if (message.sealed) banner.dataset.sealed = "yes";  // hidden once you have chosen again
    banner.textContent = message.sealed ? S.takenBack : message.done
      ? fill("undoDone", { n: message.count }) : fill("undoNot", { reason: message.reason });
    setTimeout(() => { banner.hidden = true; }, 4000);
    return;
  }
  banner.hidden = false;
  const mine = hello.seat === message.by;
  banner.replaceChildren(el("span", {}, mine ? fill("undoAskYou", { n: message.count })
    : fill("undoAsk", { who: Who(message.by), n: message.count }), ));
  banner.append(" ");
  if (hello.seat !== null && message.waiting.includes(hello.seat)) {
    for (const [label, agree, cls] of [[T.agree, true, "good"], [T.decline, false, "secondary danger"]]) {
      const button = el("button", { "data-undo-answer": String(agree), class: cls, type: "button" }, label);
      button.addEventListener("click", () => send({ type: "undo-answer", agree }));
      banner.append(button);
    }
  } else {
    banner.append(el("span", { class: "muted" }, fill("undoWaiting", { who: message.waiting.map(who).join(", ") })));
  }
}

// -- your turn: title, sound, notification --------------------------------------------
const prefs = {
  get(key) { try { return localStorage.getItem(`tabletop.${key}`) === "on"; } catch { return false; } },
  set(key, on) { try { localStorage.setItem(`tabletop.${key}`, on ? "on" : "off"); } catch { /* private mode */ } },
};

function beep() {
  try {
    const audio = new (window.AudioContext || window.webkitAudioContext)();
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.frequency.value = 660;
    gain.gain.setValueAtTime(0.15, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.4);
    tone.connect(gain).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.4);
  } catch { /* no audio: the title and status still say it */ }
}

function signalTurn(mine) {
  const name = hello ? hello.name : "";
  document.title = fill(mine ? "titleTurn" : "titleIdle", { name });
  document.body.dataset.myTurn = mine ? "yes" : "no";
  if (mine && !wasMyTurn) {
    if (prefs.get("sound")) beep();
    if (prefs.get("notify") && "Notification" in window && Notification.permission === "granted"
        && document.hidden) {
      try { new Notification(T.notifyTitle, { body: fill("notifyBody", { name }), tag: matchId }); } catch { /* ignore */ }
    }
  }
  wasMyTurn = mine;
}

function setUpSignals() {
  const sound = $("#sound");
  const notify = $("#notify");
  const note = $("#notify-note");
  sound.checked = prefs.get("sound");
  sound.addEventListener("change", () => { prefs.set("sound", sound.checked); if (sound.checked) beep(); });
  const supported = "Notification" in window;
  notify.checked = supported && prefs.get("notify") && Notification.permission === "granted";
  if (!supported) { notify.disabled = true; note.textContent = T.notifyNone; }
  notify.addEventListener("change", async () => {
    if (!notify.checked) { prefs.set("notify", false); note.textContent = ""; return; }
    note.textContent = T.notifyAsk;
    const answer = await Notification.requestPermission();  // asked on this click only
    notify.checked = answer === "granted";
    prefs.set("notify", notify.checked);
    note.textContent = answer === "denied" ? T.notifyDenied : "";
  });
}

// -- your matches (listed by the lobby) ------------------------------------------------
function remember() {
  try {
    const key = "tabletop.matches";
    const list = JSON.parse(localStorage.getItem(key) || "[]").filter(
      (m) => !(m.id === hello.match && m.seat === hello.seat));
    list.unshift({ id: hello.match, game: hello.game, name: hello.name, seat: hello.seat,
      url: location.pathname + location.search, at: Date.now() });
    localStorage.setItem(key, JSON.stringify(list.slice(0, 50)));
  } catch { /* private mode: nothing remembered */ }
}

function onHello(message) {
  hello = message;
  $("#title").textContent = `${message.name} · ${message.match}`;
  $("#heading").textContent = `${message.name} · ${message.match}`;
  $("#me").textContent = message.seat === null ? T.spectating : fill("youAre", { p: message.seat });
  const rules = $("#rules-link");
  rules.href = message.rules || `/games/${message.game}/rules`;
  rules.textContent = fill("rulesOf", { name: message.name });
  rules.target = "_blank";  // the rules beside the match, never in its place
  rules.rel = "noopener";
  rules.hidden = false;
  const canWrite = !message.chat || message.chat.write;
  $("#chat-form").hidden = !canWrite;
  $("#chat-note").textContent = canWrite ? "" : T.chatRead;
  document.querySelector("aside section").hidden = message.seat === null;  // signals: players only
  document.title = fill("titleIdle", { name: message.name });
  remember();
  greet(message, send);
}

async function receive(event) {
  const message = JSON.parse(event.data);
  switch (message.type) {
    case "hello":
      $("#chat").replaceChildren();
      onHello(message);
      await loadBoard();
      $("#legal-box").open = !message.board;  // a game's own board has the controls
      break;
    case "position":
      position = message;
      pending = null;
      $("#error").textContent = "";  // an error about an earlier position is stale now
      drawStatus();
      drawBoard();
      drawPresence(message.presence);
      break;
    case "log": drawLog(message); break;
    case "chat": drawChat(message); break;
    case "name": answered(message); break;
    case "presence": if (hello) drawPresence(message.presence); break;
    case "undo-request": case "undo-result": drawUndo(message); break;
    case "draw-declined": drawDeclined(message); break;
    case "rematch": {
      const box = $("#rematch-link");
      const said = hello && hello.seat === null ? T.rematchWatch : T.rematchLink;  // a spectator watches
      if (box) box.replaceChildren(el("a", { href: message.url, id: "rematch-url" }, said));
      break;
    }
    case "error":
      if (message.about === "name") { answered(message); break; }
      pending = null;
      $("#error").textContent = message.error;
      if (!hello) $("#status").textContent = message.error;
      showChatError(message.error);
      break;
  }
}

function showChatError(text) {
  if (document.activeElement === $("#chat-text")) $("#chat-note").textContent = text;
}

function setConnection(open) {
  const banner = $("#connection");
  banner.hidden = open;
  banner.textContent = open ? "" : T.lost;
  document.body.dataset.connection = open ? "open" : "lost";
  if (!open && position) {
    $("#status").textContent = T.lost;
    drawPresence(position.presence);
  }
  tick();
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const query = token ? `?token=${encodeURIComponent(token)}` : "";
  socket = new WebSocket(`${scheme}://${location.host}/ws/${encodeURIComponent(matchId)}${query}`);
  let chain = Promise.resolve();
  socket.onmessage = (event) => { chain = chain.then(() => receive(event)); };
  socket.onopen = () => { retry = 500; setConnection(true); };
  socket.onclose = (event) => {
    pending = null;
    if (event.code === 1008) return;  // refused: the reason is on the page
    setConnection(false);
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 8000);
  };
}

$("#act-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const text = $("#action").value.trim();
  if (text) act(text);
  $("#action").value = "";
});
$("#chat-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const input = $("#chat-text");
  const text = input.value.trim();
  if (!text) return;
  $("#chat-note").textContent = "";
  if (send({ type: "chat", text })) input.value = "";
});
$("#undo").addEventListener("click", () => send({ type: "undo" }));
setUpName(send);
setUpEndings(send);
$("#status").textContent = T.connecting;
setUpSignals();
connect();

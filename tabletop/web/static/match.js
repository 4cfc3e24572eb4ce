// The match page's shell: connection, whose turn, prompt, clock, presence, last actions,
// result, rematch, undo, the text box and the legal actions. The board itself is the
// game's module (GET /games/{id}/board.js) or the generic board; both export
// render(root, position, act, seat) (see docs/web.md).
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
let closedForGood = false;

const who = (p) => (hello && hello.seat === p ? "you" : `player ${p}`);

function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}
function act(text) {
  if (!position) return;
  $("#error").textContent = "";
  send({ type: "action", action: text, number: position.number });
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
    root.textContent = `the board could not draw this position: ${err}`;
  }
}

function drawStatus() {
  const p = position;
  const status = $("#status");
  if (p.status === "over") {
    status.textContent = p.winners.length
      ? `Game over: ${p.winners.map(who).join(" and ")} won` : "Game over: a draw";
  } else if (hello.seat !== null && p.to_act === hello.seat) {
    status.textContent = "Your turn";
  } else {
    status.textContent = `Waiting for ${who(p.to_act)}`;
  }
  status.dataset.toAct = p.to_act ?? "";
  status.dataset.number = String(p.number);
  status.dataset.state = p.status;
  $("#prompt").textContent = p.status === "over" ? "" : p.prompt;
  deadline = p.clock ? performance.now() + p.clock.left * 1000 : null;
  tick();
  const legal = $("#legal");
  legal.replaceChildren();
  for (const text of p.legal) {
    const button = el("button", { "data-legal": text }, text);
    button.addEventListener("click", () => act(text));
    legal.append(button);
  }
  $("#act-box").hidden = hello.seat === null;
  $("#undo").disabled = p.status === "over" || p.number === 0;  // nothing to undo yet
  drawResult();
}

function drawResult() {
  const box = $("#result");
  const p = position;
  box.hidden = p.status !== "over";
  if (box.hidden) return;
  box.replaceChildren();  // the status line above already says who won
  if (p.reason) box.append(el("p", { id: "reason" }, p.reason));
  if (p.scores) {
    const list = el("ul", { id: "scores" });
    for (const [player, score] of Object.entries(p.scores)) {
      list.append(el("li", {}, `player ${player}: ${score}`));
    }
    box.append(list);
  }
  if (hello.seat !== null) {
    const rematch = el("button", { id: "rematch" }, "Rematch (seats rotated)");
    rematch.addEventListener("click", () => send({ type: "rematch" }));
    box.append(rematch);
    const record = el("a", { id: "record",
      href: `/api/matches/${matchId}/record?token=${encodeURIComponent(token)}`,
      download: `${matchId}.json` }, " download the game record");
    box.append(record);
  }
  box.append(el("div", { id: "rematch-link" }));
}

function tick() {
  const clock = $("#clock");
  if (deadline === null || !position || position.status === "over") {
    clock.textContent = "";
    return;
  }
  const left = Math.max(0, (deadline - performance.now()) / 1000);
  clock.textContent = `clock, ${who(position.clock.player)}: ${left.toFixed(0)} s left`;
  clock.classList.toggle("low", left <= 10);
}
setInterval(tick, 250);

function drawPresence(presence) {
  const list = $("#presence");
  list.replaceChildren();
  for (const [seat, state] of Object.entries(presence.seats)) {
    const mine = hello && String(hello.seat) === seat ? " (you)" : "";
    list.append(el("li", { class: state, "data-presence": seat }, `player ${seat}${mine}: ${state}`));
  }
  list.append(el("li", {}, `spectators: ${presence.spectators}`));
}

function drawLast(actions) {
  const list = $("#last");
  list.replaceChildren();
  for (const [player, text] of Object.entries(actions)) {
    list.append(el("li", { "data-last": player }, `player ${player}: ${text ?? "—"}`));
  }
}

function drawUndo(message) {
  const banner = $("#undo-banner");
  if (message.type === "undo-result") {
    banner.hidden = false;
    banner.textContent = message.done ? `undone: ${message.count} action(s) taken back`
      : `undo not done: ${message.reason}`;
    setTimeout(() => { banner.hidden = true; }, 4000);
    return;
  }
  banner.hidden = false;
  banner.replaceChildren(el("span", {},
    `${who(message.by)} asks to take back ${message.count} action(s). `));
  if (hello.seat !== null && message.waiting.includes(hello.seat)) {
    for (const [label, agree] of [["Agree", true], ["Decline", false]]) {
      const button = el("button", { "data-undo-answer": String(agree) }, label);
      button.addEventListener("click", () => send({ type: "undo-answer", agree }));
      banner.append(button);
    }
  } else {
    banner.append(el("span", { class: "muted" }, `waiting for ${message.waiting.map(who).join(", ")}`));
  }
}

async function receive(event) {
  const message = JSON.parse(event.data);
  switch (message.type) {
    case "hello":
      hello = message;
      await loadBoard();
      $("#title").textContent = `${message.name} · match ${message.match}`;
      $("#me").textContent = message.seat === null ? "spectating" : `you are player ${message.seat}`;
      document.title = `tabletop — ${message.name}`;
      break;
    case "position":
      position = message;
      drawStatus();
      drawBoard();
      drawPresence(message.presence);
      break;
    case "last": drawLast(message.actions); break;
    case "presence": drawPresence(message.presence); break;
    case "undo-request": case "undo-result": drawUndo(message); break;
    case "rematch": {
      const box = $("#rematch-link");
      if (box) box.replaceChildren(el("a", { href: message.url, id: "rematch-url" }, "Rematch: open your new seat"));
      break;
    }
    case "error": $("#error").textContent = message.error;
      if (!hello) $("#status").textContent = message.error;
      break;
  }
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const query = token ? `?token=${encodeURIComponent(token)}` : "";
  socket = new WebSocket(`${scheme}://${location.host}/ws/${encodeURIComponent(matchId)}${query}`);
  let chain = Promise.resolve();
  socket.onmessage = (event) => { chain = chain.then(() => receive(event)); };
  socket.onopen = () => { retry = 500; };
  socket.onclose = (event) => {
    if (event.code === 1008 || closedForGood) return;
    $("#status").textContent = "connection lost; reconnecting…";
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
$("#undo").addEventListener("click", () => send({ type: "undo" }));
connect();

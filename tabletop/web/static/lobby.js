// The lobby: installed games, the create-match form (built from each game's options),
// the seat and spectator links of a new match, and the matches on this server.
const $ = (sel, root = document) => root.querySelector(sel);
const el = (tag, attrs = {}, ...children) => {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "text") node.textContent = v;
    else if (v !== null && v !== undefined && v !== false) node.setAttribute(k, v === true ? "" : v);
  }
  for (const child of children) node.append(child);
  return node;
};
let games = [];

async function loadGames() {
  games = await (await fetch("/api/games")).json();
  const box = $("#games");
  box.replaceChildren();
  for (const game of games) {
    const players = game.min_players === game.max_players
      ? `${game.min_players} players` : `${game.min_players}–${game.max_players} players`;
    const button = el("button", { "data-create": game.id, text: "New match" });
    button.addEventListener("click", () => showForm(game));
    box.append(el("div", { class: "game", "data-game": game.id },
      el("h3", { text: game.name }), el("div", { class: "muted", text: players }),
      el("p", { text: game.summary }), button));
  }
}

function optionInput(option) {
  const id = `opt-${option.name}`;
  let input;
  if (Array.isArray(option.allowed)) {
    input = el("select", { id, name: option.name, "data-option": option.name });
    for (const value of option.allowed) {
      const shown = typeof value === "boolean" ? String(value) : String(value);
      input.append(el("option", { value: JSON.stringify(value), text: shown,
        selected: JSON.stringify(value) === JSON.stringify(option.default) }));
    }
  } else {
    input = el("input", { id, name: option.name, "data-option": option.name,
      value: option.default === null ? "" : String(option.default) });
  }
  return el("label", { for: id }, el("b", { text: option.name + " " }), input,
    el("div", { class: "help", text: `${option.help} (default ${JSON.stringify(option.default)};` +
      ` allowed: ${Array.isArray(option.allowed) ? option.allowed.join(", ") : option.allowed})` }));
}

function seatRows(game, count, box) {
  box.replaceChildren();
  for (let seat = 1; seat <= count; seat++) {
    const select = el("select", { "data-seat": seat });
    select.append(el("option", { value: "", text: "a person" }));
    for (const level of game.ai_levels) {
      select.append(el("option", { value: level.name,
        text: `computer ${level.name}: ${level.description}` }));
    }
    box.append(el("label", {}, el("b", { text: `Seat ${seat}: ` }), select));
  }
}

function showForm(game) {
  $("#create").hidden = false;
  $("#created").hidden = true;
  $("#create-error").textContent = "";
  $("#create-title").textContent = `New match of ${game.name}`;
  const form = $("#create-form");
  form.replaceChildren();
  const players = el("select", { id: "players", "data-players": "" });
  for (const n of game.players) players.append(el("option", { value: n, text: String(n) }));
  const seats = el("div", { id: "seats" });
  players.addEventListener("change", () => seatRows(game, Number(players.value), seats));
  form.append(el("label", {}, el("b", { text: "Players " }), players));
  for (const option of game.options) form.append(optionInput(option));
  form.append(el("h3", { text: "Seats" }), seats);
  seatRows(game, Number(players.value), seats);
  form.append(el("label", {}, el("input", { type: "checkbox", id: "spectators", checked: true }),
    " spectators allowed"));
  form.append(el("label", {}, el("b", { text: "Move clock " }),
    el("input", { id: "move-time", type: "number", min: "1", step: "1", placeholder: "none" }),
    el("span", { class: "help", text: " seconds per action; who runs out loses (empty: no clock)" })));
  form.append(el("button", { type: "submit", id: "create-submit", text: "Create match" }));
  form.onsubmit = (event) => { event.preventDefault(); create(game); };
  $("#create").scrollIntoView();
}

async function create(game) {
  const options = {};
  for (const input of document.querySelectorAll("[data-option]")) {
    const name = input.dataset.option;
    options[name] = input.tagName === "SELECT" ? JSON.parse(input.value) : input.value;
  }
  const seats = [...document.querySelectorAll("[data-seat]")].map((s) => ({
    seat: Number(s.dataset.seat), ai: s.value || null }));
  const moveTime = $("#move-time").value;
  const body = { game: game.id, players: Number($("#players").value), options, seats,
    spectators: $("#spectators").checked, move_time: moveTime ? Number(moveTime) : null };
  const answer = await fetch("/api/matches", { method: "POST",
    headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const data = await answer.json();
  if (!answer.ok) { $("#create-error").textContent = data.error; return; }
  $("#create-error").textContent = "";
  const box = $("#created");
  box.hidden = false;
  box.replaceChildren(el("h3", { text: "Private links: give each person theirs" }));
  for (const seat of data.seats) {
    box.append(el("p", {}, el("b", { text: `Seat ${seat.seat}: ` }),
      el("a", { href: seat.url, "data-seat-link": seat.seat, text: seat.url })));
  }
  if (data.spectator_url) {
    box.append(el("p", {}, el("b", { text: "Spectators: " }),
      el("a", { href: data.spectator_url, "data-spectator-link": "", text: data.spectator_url })));
  }
  loadMatches();
}

let page = 1;

async function loadMatches() {
  const answer = await (await fetch(`/api/matches?page=${page}`)).json();
  if (answer.error) { page = 1; return; }
  const body = $("#matches tbody");
  body.replaceChildren();
  for (const m of answer.matches) {
    const seats = m.seats.map((s) => s.kind === "computer" ? `${s.seat}: computer ${s.level}`
      : `${s.seat}: ${s.free ? "free" : "taken"}${s.online ? " (online)" : ""}`).join(" · ");
    const watch = m.spectators ? el("a", { href: `/match/${m.id}`, text: "watch" }) : "";
    const status = m.damaged ? `damaged: ${m.damaged}` : `${m.status} (${m.number} actions)`;
    body.append(el("tr", { "data-match": m.id }, el("td", { text: m.id }),
      el("td", { text: m.game }), el("td", { text: status }),
      el("td", { text: seats }), el("td", {}, watch)));
  }
  for (const u of answer.unserved) {
    body.append(el("tr", { "data-match": u.id }, el("td", { text: u.id }), el("td", { text: "" }),
      el("td", { text: `not served: ${u.reason}` }), el("td", { text: "" }), el("td", { text: "" })));
  }
  const pager = $("#pages");
  pager.replaceChildren();
  if (answer.pages > 1) {
    for (let n = 1; n <= answer.pages; n++) {
      const button = el("button", { type: "button", "aria-current": n === page ? "page" : null,
        text: String(n) });
      button.addEventListener("click", () => { page = n; loadMatches(); });
      pager.append(button);
    }
  }
}

loadGames();
loadMatches();
setInterval(loadMatches, 5000);

// The lobby: installed games (each with its rules page), the create-match form (built from
// each game's options, labelled in plain words with the rule ID as a small reference), the
// seat, spectator and host links of a new match, the matches this browser opened ("your
// matches", remembered by the match page in localStorage) and the matches on this server,
// each open seat with a button that takes it (the first taker gets the seat's link).
//
// Every sentence a person reads is in T (one place, keyed by message id).
import { copyButton } from "/static/copy.js";
import { lang, ready, words } from "/static/i18n.js";

await ready;
const [T, fill] = words({
  players: ["{n} player", "{n} players"],
  playersRange: "{min}–{max} players",
  newMatch: "New match",
  rules: "Rules",
  rulesOf: "Rules of {name}",
  newMatchOf: "New match of {name}",
  playersLabel: "Players",
  yes: "yes",
  no: "no",
  values: "values: {values}; default {default}",
  ruleRef: "rule {ids}",
  seats: "Seats",
  seat: "Seat {seat}",
  person: "a person",
  openSeat: "open: the first to take it in the lobby",
  seatOpen: "open: the first person to take it in the lobby gets this seat",
  takeSeat: "Take seat {seat}",
  computer: "computer {level}: {description}",
  spectators: "spectators may watch",
  spectatorChat: "spectators may write in the table talk too (they always read it)",
  moveClock: "Move clock",
  noClock: "none",
  moveClockHelp: "seconds per action; who runs out loses (empty: no clock). It starts once every person opened their link.",
  create: "Create match",
  linksTitle: "Private links: give each person theirs",
  spectatorLinks: "Spectators",
  hostLink: "Host page",
  hostHelp: "keep it private: it lists every seat link, to send a lost one again",
  open: "open",
  watch: "watch",
  watching: "spectator",
  status: ["{status} ({n} action)", "{status} ({n} actions)"],
  free: "free",
  taken: "taken",
  online: " (online)",
  seatComputer: "{seat}: computer {level}",
  seatPerson: "{seat}: {state}",
  noMatches: "No matches yet.",
  damaged: "damaged: {reason}",
  unserved: "not served: {reason}",
  pageN: "page {n}",
  gone: "not in the listing now",
  ongoing: "ongoing",
  over: "over",
});

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
  games = await (await fetch(`/api/games?lang=${encodeURIComponent(lang)}`)).json();
  const box = $("#games");
  box.replaceChildren();
  for (const game of games) {
    const players = game.min_players === game.max_players
      ? fill("players", { n: game.min_players })
      : fill("playersRange", { min: game.min_players, max: game.max_players });
    const button = el("button", { "data-create": game.id, type: "button", text: T.newMatch,
      "aria-label": fill("newMatchOf", { name: game.name }) });
    button.addEventListener("click", () => showForm(game));
    const rules = el("a", { href: `/games/${encodeURIComponent(game.id)}/rules`, "data-rules-link": game.id,
      text: T.rules, "aria-label": fill("rulesOf", { name: game.name }) });
    box.append(el("div", { class: "game", "data-game": game.id },
      el("h3", { text: game.name }), el("div", { class: "muted", text: players }),
      el("p", { text: game.summary }), button, " ", rules));
  }
}

// An option's help as plain words: the rule IDs (Q4.4, K3.3, ...) come out as a small
// reference, the spec's markers ([decision], [our addition]) are dropped.
const RULE_ID = /\b[A-Z]\d+(?:\.\d+)*\b/g;
function plain(help) {
  const ids = [...new Set(help.match(RULE_ID) || [])];
  const text = help.replace(/\[[^\]]*\]/g, "").replace(RULE_ID, "")
    .replace(/\(\s*(?:,\s*)*\)/g, "").replace(/^\s*[:,;]\s*/, "").replace(/\s+([:;,.)])/g, "$1")
    .replace(/(^|;\s*)[:,]\s*/g, "$1").replace(/\s{2,}/g, " ").trim();
  return { text: text.charAt(0).toUpperCase() + text.slice(1), ids };
}
const statusWord = (status) => (status === "ongoing" || status === "over" ? T[status] : status);
// a value as a person reads it: the game's label for it (translated by the server), yes/no
const valueText = (v, labels = {}) => labels[JSON.stringify(v)] ?? (v === true ? T.yes : v === false ? T.no : String(v));
// the game's name for the lobby's tables (a listing row carries the game's id only)
const gameName = (id) => (games.find((g) => g.id === id) || {}).name || id;

function optionInput(option) {
  const id = `opt-${option.name}`;
  let input;
  if (Array.isArray(option.allowed)) {
    input = el("select", { id, name: option.name, "data-option": option.name, "aria-describedby": `${id}-help` });
    for (const value of option.allowed) {
      input.append(el("option", { value: JSON.stringify(value), text: valueText(value, option.labels),
        selected: JSON.stringify(value) === JSON.stringify(option.default) }));
    }
  } else {
    input = el("input", { id, name: option.name, "data-option": option.name, "aria-describedby": `${id}-help`,
      value: option.default === null ? "" : String(option.default) });
  }
  const { text, ids } = plain(option.help);
  const labels = option.labels || {};
  const allowed = Array.isArray(option.allowed) ? option.allowed.map((v) => valueText(v, labels)).join(", ") : option.allowed;
  const shownDefault = Array.isArray(option.default) ? option.default.join(",") : valueText(option.default, labels);
  const help = el("div", { class: "help", id: `${id}-help` },
    `${text} (${fill("values", { values: allowed, default: shownDefault })})`);
  if (ids.length) help.append(" ", el("span", { class: "ref", text: fill("ruleRef", { ids: ids.join(", ") }) }));
  return el("div", { class: "option" }, el("label", { for: id }, el("b", { text: option.label || option.name.replaceAll("_", " ") })), input, help);
}

function seatRows(game, count, box) {
  box.replaceChildren();
  for (let seat = 1; seat <= count; seat++) {
    const select = el("select", { "data-seat": seat, id: `seat-${seat}` });
    select.append(el("option", { value: "", text: T.person }));
    select.append(el("option", { value: "", "data-open": "", text: T.openSeat }));
    for (const level of game.ai_levels) {
      select.append(el("option", { value: level.name,
        text: fill("computer", { level: level.name, description: level.description }) }));
    }
    box.append(el("div", {}, el("label", { for: `seat-${seat}` }, el("b", { text: fill("seat", { seat }) })), select));
  }
}

function showForm(game) {
  $("#create").hidden = false;
  $("#created").hidden = true;
  $("#create-error").textContent = "";
  $("#create-title").textContent = fill("newMatchOf", { name: game.name });
  const form = $("#create-form");
  form.replaceChildren();
  const players = el("select", { id: "players", "data-players": "" });
  for (const n of game.players) players.append(el("option", { value: n, text: String(n) }));
  const seats = el("div", { id: "seats" });
  players.addEventListener("change", () => seatRows(game, Number(players.value), seats));
  form.append(el("label", { for: "players" }, el("b", { text: T.playersLabel })), players);
  for (const option of game.options) form.append(optionInput(option));
  form.append(el("h3", { text: T.seats }), seats);
  seatRows(game, Number(players.value), seats);
  form.append(el("label", { class: "inline" }, el("input", { type: "checkbox", id: "spectators", checked: true }),
    T.spectators));
  form.append(el("label", { class: "inline" }, el("input", { type: "checkbox", id: "spectator-chat" }),
    T.spectatorChat));
  form.append(el("label", { for: "move-time" }, el("b", { text: T.moveClock })),
    el("input", { id: "move-time", type: "number", min: "1", step: "1", placeholder: T.noClock,
      "aria-describedby": "move-time-help" }),
    el("div", { class: "help", id: "move-time-help", text: T.moveClockHelp }));
  form.append(el("button", { type: "submit", id: "create-submit", text: T.create }));
  form.onsubmit = (event) => { event.preventDefault(); create(game); };
  $("#create").scrollIntoView();
}

async function create(game) {
  const options = {};
  for (const input of document.querySelectorAll("[data-option]")) {
    const name = input.dataset.option;
    options[name] = input.tagName === "SELECT" ? JSON.parse(input.value) : input.value;
  }
  const seats = [...document.querySelectorAll("[data-seat]")].map((s) => (
    s.selectedOptions[0]?.hasAttribute("data-open") ? { seat: Number(s.dataset.seat), open: true }
      : { seat: Number(s.dataset.seat), ai: s.value || null }));
  const moveTime = $("#move-time").value;
  const body = { game: game.id, players: Number($("#players").value), options, seats,
    spectators: $("#spectators").checked, spectator_chat: $("#spectator-chat").checked,
    move_time: moveTime ? Number(moveTime) : null };
  const answer = await fetch("/api/matches", { method: "POST",
    headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  let data;
  try { data = await answer.json(); } catch { data = { error: `${answer.status} ${answer.statusText}` }; }
  if (!answer.ok) { $("#create-error").textContent = data.error; return; }
  $("#create-error").textContent = "";
  const box = $("#created");
  box.hidden = false;
  box.replaceChildren(el("h3", { text: T.linksTitle }));
  for (const seat of data.seats) {
    const name = fill("seat", { seat: seat.seat });
    if (seat.open) {
      box.append(el("p", { "data-open-seat": seat.seat }, el("b", { text: `${name}: ` }), T.seatOpen));
      continue;
    }
    box.append(el("p", {}, el("b", { text: `${name}: ` }),
      el("a", { href: seat.url, "data-seat-link": seat.seat, text: seat.url }), copyButton(seat.url, name)));
  }
  if (data.spectator_url) {
    box.append(el("p", {}, el("b", { text: `${T.spectatorLinks}: ` }),
      el("a", { href: data.spectator_url, "data-spectator-link": "", text: data.spectator_url }),
      copyButton(data.spectator_url, T.spectatorLinks)));
  }
  if (data.host_url) {
    box.append(el("p", {}, el("b", { text: `${T.hostLink}: ` }),
      el("a", { href: data.host_url, "data-host-link": "", text: data.host_url }),
      copyButton(data.host_url, T.hostLink),
      el("span", { class: "help", text: ` (${T.hostHelp})` })));
    rememberHost(data, game);
  }
  loadMatches();
}

function mine() {
  try { return JSON.parse(localStorage.getItem("tabletop.matches") || "[]"); } catch { return []; }
}
function rememberHost(data, game) {
  try {
    const list = mine().filter((m) => !(m.id === data.id && m.seat === "host"));
    list.unshift({ id: data.id, game: game.id, name: game.name, seat: "host",
      url: new URL(data.host_url).pathname + new URL(data.host_url).search, at: Date.now() });
    localStorage.setItem("tabletop.matches", JSON.stringify(list.slice(0, 50)));
  } catch { /* private mode */ }
}

/** Each cell's column head as its data-label: a phone shows a row as "head: value"
 * lines (style.css), every cell, the link too, in reach without a sideways scroll. The
 * table's roles are said outright, as a phone's block layout would drop them. */
function labelCells(table) {
  table.setAttribute("role", "table");
  for (const group of table.querySelectorAll("thead, tbody")) group.setAttribute("role", "rowgroup");
  const heads = [...table.querySelectorAll("thead th")].map((th) => {
    th.setAttribute("role", "columnheader");
    return th.textContent;
  });
  for (const row of table.querySelectorAll("tr")) row.setAttribute("role", "row");
  for (const row of table.querySelectorAll("tbody tr")) {
    [...row.cells].forEach((cell, i) => {
      cell.setAttribute("role", "cell");
      if (cell.colSpan === 1 && heads[i]) cell.dataset.label = heads[i];
    });
  }
}

function drawMine(rows) {
  const list = mine();
  $("#mine").hidden = !list.length;
  const status = Object.fromEntries(rows.map((m) => [m.id, fill("status", { status: statusWord(m.status), n: m.number })]));
  const body = $("#my-matches tbody");
  body.replaceChildren();
  for (const m of list) {
    const seat = m.seat === null ? T.watching : m.seat === "host" ? T.hostLink : fill("seat", { seat: m.seat });
    body.append(el("tr", { "data-my-match": m.id }, el("td", { text: m.id }), el("td", { text: gameName(m.game) || m.name }),
      el("td", { text: seat }), el("td", { text: status[m.id] || T.gone }),
      el("td", {}, el("a", { href: m.url, text: T.open, "aria-label": `${T.open} ${gameName(m.game) || m.name} ${m.id}, ${seat}` }))));
  }
  labelCells($("#my-matches"));
}

// An open seat of a listed match: taking it opens the seat's link (the first taker's only).
function takeButton(m, seat) {
  const text = fill("takeSeat", { seat });
  const button = el("button", { type: "button", "data-take": `${m.id}:${seat}`, text,
    "aria-label": `${text}, ${gameName(m.game)} ${m.id}` });
  button.addEventListener("click", async () => {
    button.disabled = true;
    const answer = await fetch(`/api/matches/${encodeURIComponent(m.id)}/seats/${seat}/take`, { method: "POST" });
    let data;
    try { data = await answer.json(); } catch { data = { error: `${answer.status} ${answer.statusText}` }; }
    if (answer.ok) { location.href = data.url; return; }
    $("#take-error").textContent = data.error;
    loadMatches();
  });
  return button;
}

let page = 1;

async function loadMatches() {
  const answer = await (await fetch(`/api/matches?page=${page}`)).json();
  if (answer.error) { page = 1; return; }
  const list = answer.matches || [];
  const body = $("#matches tbody");
  body.replaceChildren();
  for (const m of list) {
    const seats = m.seats.map((s) => s.kind === "computer" ? fill("seatComputer", { seat: s.seat, level: s.level })
      : fill("seatPerson", { seat: s.seat, state: s.free ? T.free : T.taken }) + (s.online ? T.online : "")).join(" · ");
    const watch = m.spectators ? el("a", { href: `/match/${m.id}`, text: T.watch, "aria-label": `${T.watch} ${m.id}` }) : "";
    const status = m.damaged ? fill("damaged", { reason: m.damaged }) : fill("status", { status: statusWord(m.status), n: m.number });
    const seatCell = el("td", {}, seats);
    for (const seat of m.open_seats || []) seatCell.append(" ", takeButton(m, seat));
    body.append(el("tr", { "data-match": m.id }, el("td", { text: m.id }),
      el("td", { text: gameName(m.game) }), el("td", { text: status }),
      seatCell, el("td", {}, watch)));
  }
  for (const u of answer.unserved || []) {
    body.append(el("tr", { "data-match": u.id }, el("td", { text: u.id }), el("td", { text: "" }),
      el("td", { text: fill("unserved", { reason: u.reason }) }), el("td", { text: "" }), el("td", { text: "" })));
  }
  if (!list.length && !(answer.unserved || []).length) {
    body.append(el("tr", {}, el("td", { colspan: "5", text: T.noMatches })));
  }
  labelCells($("#matches"));
  const pager = $("#pages");
  pager.replaceChildren();
  if (answer.pages > 1) {
    for (let n = 1; n <= answer.pages; n++) {
      const button = el("button", { type: "button", "aria-current": n === page ? "page" : null,
        "aria-label": fill("pageN", { n }), text: String(n) });
      button.addEventListener("click", () => { page = n; loadMatches(); });
      pager.append(button);
    }
  }
  drawMine(list);
}

await loadGames();
loadMatches();
setInterval(loadMatches, 5000);

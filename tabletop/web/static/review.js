// The review page (tabletop/web/coach.py): the coach's review of a finished match as an
// evaluation chart over the game (each player's win chance after each of their actions)
// and the list of mistakes, each clickable to show the position as that player saw it,
// drawn by the game's own board (or the generic one).
const $ = (sel) => document.querySelector(sel);
const el = (tag, attrs = {}, text = "") => {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text) node.textContent = text;
  return node;
};
const SVG = "http://www.w3.org/2000/svg";
const svg = (tag, attrs) => {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  return node;
};
const parts = location.pathname.split("/");
const matchId = decodeURIComponent(parts[parts.length - 2]);
const query = new URLSearchParams(location.search);
const COLOURS = ["#1f5fa8", "#c0392b", "#2e8b57", "#8e44ad", "#d35400", "#16a085"];
const BAD = ["inaccuracy", "mistake", "blunder"];

const TEXT = {
  title: (name) => `${name}: review`,
  status: (n) => `${n} actions reviewed`,
  player: (p, s) => `player ${p}: accuracy ${s.accuracy === null ? "n/a" : s.accuracy + "%"}, `
    + `inaccuracies ${s.inaccuracy}, mistakes ${s.mistake}, blunders ${s.blunder}`,
  entry: (a) => `${a.number}. player ${a.player}: ${a.action} — ${a.verdict} `
    + `(${pct(a.before)} → ${pct(a.after)}); best: ${a.best}`,
  shown: (a) => `before action ${a.number}, as player ${a.player} saw it`,
  none: "no inaccuracies, mistakes or blunders",
  legend: (p) => `player ${p}`,
  caption: "each player's win chance after each of their actions (dashed: even); "
    + "dots: inaccuracies, mistakes, blunders (the larger, the worse)",
};
const pct = (x) => `${Math.round(100 * x)}%`;

let board = null;
let review = null;

async function loadBoard(game) {
  try {
    board = await import(`/games/${encodeURIComponent(game)}/board.js`);
  } catch (err) {
    board = await import("/static/generic.js");
  }
}

function show(index) {
  const entry = review.actions[index];
  $("#shown-title").textContent = TEXT.shown(entry);
  $("#shown-why").textContent = [entry.why, entry.best_why && `best ${entry.best}: ${entry.best_why}`]
    .filter(Boolean).join(" · ");
  const root = $("#board");
  root.textContent = "";
  try {
    board.render(root, review.positions[index], () => {}, entry.player);
  } catch (err) {
    root.textContent = `the board could not draw this position: ${err}`;
  }
  for (const b of document.querySelectorAll("[data-number]")) {
    b.classList.toggle("selected", Number(b.dataset.number) === entry.number);
  }
}

function chart() {
  const W = 900, H = 240, pad = 24;
  const n = review.actions.length;
  const x = (number) => pad + ((W - 2 * pad) * (number - 1)) / Math.max(1, n - 1);
  const y = (chance) => H - pad - (H - 2 * pad) * chance;
  const root = svg("svg", { viewBox: `0 0 ${W} ${H}`, role: "img" });
  root.append(svg("line", { x1: pad, x2: W - pad, y1: y(0.5), y2: y(0.5), stroke: "#bbb", "stroke-dasharray": "4 4" }));
  for (let p = 1; p <= review.players; p++) {
    const mine = review.actions.filter((a) => a.player === p);
    const points = mine.map((a) => `${x(a.number)},${y(a.after)}`).join(" ");
    root.append(svg("polyline", { points, fill: "none", stroke: COLOURS[(p - 1) % COLOURS.length], "stroke-width": 2 }));
  }
  review.actions.forEach((a, index) => {
    if (!BAD.includes(a.verdict)) return;
    const mark = svg("circle", {
      cx: x(a.number), cy: y(a.after), r: 3 + BAD.indexOf(a.verdict) * 2,
      class: `mark verdict-${a.verdict}`, fill: "currentColor", "data-mark": a.number,
    });
    mark.append(svg("title", {}));
    mark.firstChild.textContent = TEXT.entry(a);
    mark.addEventListener("click", () => show(index));
    root.append(mark);
  });
  $("#chart").append(root);
  const legend = el("div", { class: "muted" });
  for (let p = 1; p <= review.players; p++) {
    const key = el("span", { style: `color: ${COLOURS[(p - 1) % COLOURS.length]}` }, `■ ${TEXT.legend(p)}  `);
    legend.append(key);
  }
  legend.append(el("span", {}, TEXT.caption));
  $("#chart").append(legend);
}

function lists() {
  for (const [p, s] of Object.entries(review.summary)) $("#summary").append(el("div", {}, TEXT.player(p, s)));
  const box = $("#mistakes");
  review.actions.forEach((a, index) => {
    if (!BAD.includes(a.verdict)) return;
    const button = el("button", { type: "button", class: `secondary verdict-${a.verdict}`, "data-number": a.number }, TEXT.entry(a));
    button.addEventListener("click", () => show(index));
    box.append(button);
  });
  if (!box.children.length) box.textContent = TEXT.none;
}

async function main() {
  const level = query.get("level") ? `&level=${encodeURIComponent(query.get("level"))}` : "";
  const answer = await fetch(`/api/matches/${encodeURIComponent(matchId)}/review?token=${encodeURIComponent(query.get("token") || "")}${level}`);
  const data = await answer.json();
  if (!answer.ok) {
    $("#status").textContent = data.error;
    return;
  }
  review = data;
  $("#title").textContent = TEXT.title(data.name);
  await loadBoard(data.game);
  $("#status").textContent = TEXT.status(data.actions.length);
  lists();
  chart();
  const first = data.actions.findIndex((a) => BAD.includes(a.verdict));
  if (first >= 0) show(first);
}

main();

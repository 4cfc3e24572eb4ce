// The review page (tabletop/web/coach.py): the coach's review of a finished match as an
// evaluation chart over the game (each player's win chance after each of their actions)
// and the list of mistakes, each clickable to show the position as that player saw it,
// drawn by the game's own board (or the generic one).
import { lang, ready, words } from "/static/i18n.js";

await ready;
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

const [TEXT, fill] = words({
  title: "{name}: review",
  status: ["{n} action reviewed", "{n} actions reviewed"],
  player: "player {p}: accuracy {accuracy}, inaccuracies {inaccuracy}, mistakes {mistake}, blunders {blunder}",
  na: "n/a",
  entry: "{number}. player {p}: {action} — {verdict} ({before} → {after}); best: {best}",
  inaccuracy: "inaccuracy",
  mistake: "mistake",
  blunder: "blunder",
  shown: "before action {number}, as player {p} saw it",
  bestWhy: "best {best}: {why}",
  none: "no inaccuracies, mistakes or blunders",
  legend: "player {p}",
  caption: "each player's win chance after each of their actions (dashed: even); dots: inaccuracies, mistakes, blunders (the larger, the worse)",
  boardFailed: "the board could not draw this position: {err}",
});
const verdict = (v) => (v in { inaccuracy: 1, mistake: 1, blunder: 1 } ? TEXT[v] : v);
const entryText = (a) => fill("entry", { number: a.number, p: a.player, action: a.action,
  verdict: verdict(a.verdict), before: pct(a.before), after: pct(a.after), best: a.best });
// Numbers in the page's language (CLDR through the browser's Intl): "67 %", "66,7 %" in Czech.
const pct = (x) => new Intl.NumberFormat(lang, { style: "percent", maximumFractionDigits: 0 }).format(x);
const accuracyText = (a) => new Intl.NumberFormat(lang, { style: "percent", maximumFractionDigits: 1 }).format(a / 100);

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
  $("#shown-title").textContent = fill("shown", { number: entry.number, p: entry.player });
  $("#shown-why").textContent = [entry.why, entry.best_why && fill("bestWhy", { best: entry.best, why: entry.best_why })]
    .filter(Boolean).join(" · ");
  const root = $("#board");
  root.textContent = "";
  try {
    board.render(root, review.positions[index], () => {}, entry.player);
  } catch (err) {
    root.textContent = fill("boardFailed", { err });
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
    mark.firstChild.textContent = entryText(a);
    mark.addEventListener("click", () => show(index));
    root.append(mark);
  });
  $("#chart").append(root);
  const legend = el("div", { class: "muted" });
  for (let p = 1; p <= review.players; p++) {
    const key = el("span", { style: `color: ${COLOURS[(p - 1) % COLOURS.length]}` }, `■ ${fill("legend", { p })}  `);
    legend.append(key);
  }
  legend.append(el("span", {}, TEXT.caption));
  $("#chart").append(legend);
}

function lists() {
  for (const [p, s] of Object.entries(review.summary)) $("#summary").append(el("div", {}, fill("player", { p, accuracy: s.accuracy === null ? TEXT.na : accuracyText(s.accuracy), inaccuracy: s.inaccuracy, mistake: s.mistake, blunder: s.blunder })));
  const box = $("#mistakes");
  review.actions.forEach((a, index) => {
    if (!BAD.includes(a.verdict)) return;
    const button = el("button", { type: "button", class: `secondary verdict-${a.verdict}`, "data-number": a.number }, entryText(a));
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
  $("#title").textContent = fill("title", { name: data.name });
  await loadBoard(data.game);
  $("#status").textContent = fill("status", { n: data.actions.length });
  lists();
  chart();
  const first = data.actions.findIndex((a) => BAD.includes(a.verdict));
  if (first >= 0) show(first);
}

main();

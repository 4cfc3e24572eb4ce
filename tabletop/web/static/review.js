// The review page (tabletop/web/coach.py): the coach's review of a finished match, read as
// the seat whose link opened it. A chart of each player's win chance after each of their
// actions (review-chart.js; its numbers also as a table), and every action stepped through
// (First / Previous / Next / Last, or the arrow keys, Home and End in the review area):
// the position after it as this seat saw it, drawn by the game's own board (or the generic
// one), its verdict and why. The mistakes list jumps to one.
import { lang, ready, words } from "/static/i18n.js";
import { COLOURS, drawChart } from "/static/review-chart.js";

await ready;
const $ = (sel) => document.querySelector(sel);
const el = (tag, attrs = {}, text = "") => {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text) node.textContent = text;
  return node;
};
const parts = location.pathname.split("/");
const matchId = decodeURIComponent(parts[parts.length - 2]);
const query = new URLSearchParams(location.search);
const BAD = ["inaccuracy", "mistake", "blunder"];

const [TEXT, fill] = words({
  title: "{name}: review",
  heading: "Review: {name}",
  status: ["{n} action reviewed", "{n} actions reviewed"],
  player: "player {p}: accuracy {accuracy}, inaccuracies {inaccuracy}, mistakes {mistake}, blunders {blunder}",
  na: "n/a",
  entry: "{number}. player {p}: {action} — {verdict} ({before} → {after}); best: {best}",
  best: "best",
  good: "good",
  inaccuracy: "inaccuracy",
  mistake: "mistake",
  blunder: "blunder",
  shownTitle: "Action {number} of {total}: player {p}, {action}",
  chanceTitle: "Action {number} of {total}: chance, {action}",
  judged: "{verdict}: win chance {before} → {after}; best: {best}",
  judgedBest: "{verdict}: win chance {before} → {after}",
  forced: "forced (the only legal action)",
  unseen: "not judged: played from what you could not see",
  chanceMove: "not judged: a chance outcome",
  bestWhy: "best {best}: {why}",
  none: "no inaccuracies, mistakes or blunders",
  legend: "player {p}",
  xTitle: "action number",
  yTitle: "win chance",
  chartSummary: "Each player's win chance after each of their actions, from 0 to 100 % (dashed: even); larger dots: inaccuracies, mistakes, blunders.",
  trend: "Player {p}: {first} after their first action, {last} after their last, lowest {low}.",
  boardFailed: "the board could not draw this position: {err}",
  failed: "the review could not be loaded; reload the page to try again",
});
// Numbers in the page's language (CLDR through the browser's Intl): "62,5 %" in Czech.
const pctFormat = new Intl.NumberFormat(lang, { style: "percent", maximumFractionDigits: 1 });
const pct = (x) => (x === null || x === undefined ? "—" : pctFormat.format(x));
const accuracyText = (a) => pctFormat.format(a / 100);
const verdict = (v) => (["best", "good", ...BAD].includes(v) ? TEXT[v] : v);
// "said"/"best_said": the actions in the reader's words ("action"/"best": the notation)
const entryText = (a) => fill("entry", { number: a.number, p: a.player, action: a.said || a.action,
  verdict: verdict(a.verdict), before: pct(a.before), after: pct(a.after), best: a.best_said || a.best });
const judgement = (a) => {
  if (a.before === null) return a.player < 1 ? TEXT.chanceMove : TEXT.unseen;
  if (a.forced) return TEXT.forced;
  return fill(a.best === a.action ? "judgedBest" : "judged", { verdict: verdict(a.verdict), before: pct(a.before), after: pct(a.after), best: a.best_said || a.best });
};

let board = null;
let review = null;
let current = -1;
let marks = {};

async function loadBoard(game) {
  try {
    board = await import(`/games/${encodeURIComponent(game)}/board.js`);
  } catch (err) {
    board = await import("/static/generic.js");
  }
}

/** Show action ``index`` (0-based): the position after it, its verdict and why. */
function show(index, focusPoint = false) {
  const total = review.actions.length;
  current = Math.max(0, Math.min(total - 1, index));
  const entry = review.actions[current];
  const named = { number: entry.number, total, p: entry.player, action: entry.said || entry.action };
  $("#shown-title").textContent = fill(entry.player < 1 ? "chanceTitle" : "shownTitle", named);
  $("#shown-title").dataset.number = entry.number;
  $("#shown-verdict").textContent = judgement(entry);
  $("#shown-verdict").className = BAD.includes(entry.verdict) ? `verdict-${entry.verdict}` : "";
  $("#shown-why").textContent = [entry.why, entry.best_why && entry.best !== entry.action
    && fill("bestWhy", { best: entry.best_said || entry.best, why: entry.best_why })].filter(Boolean).join(" · ");
  const root = $("#board");
  root.textContent = "";
  const after = current + 1 < total ? review.positions[current + 1] : review.final;
  try {
    board.render(root, after, () => {}, review.reader);
  } catch (err) {
    root.textContent = fill("boardFailed", { err });
  }
  for (const [id, off] of [["first", current === 0], ["previous", current === 0],
    ["next", current === total - 1], ["last", current === total - 1]]) {
    $(`#${id}`).setAttribute("aria-disabled", String(off));
  }
  for (const b of document.querySelectorAll("#mistakes [data-number]")) {
    b.classList.toggle("selected", Number(b.dataset.number) === entry.number);
    b.setAttribute("aria-current", Number(b.dataset.number) === entry.number ? "step" : "false");
  }
  chart();
  if (focusPoint && marks[current]) marks[current].focus();
}

function chart() {
  marks = drawChart($("#chart-box"), review, {
    xTitle: TEXT.xTitle, yTitle: TEXT.yTitle, label: entryText, pct,
  }, (index) => show(index, true), current);
}

function describe() {
  const lines = [TEXT.chartSummary];
  for (let p = 1; p <= review.players; p++) {
    const mine = review.actions.filter((a) => a.player === p && a.after !== null);
    if (!mine.length) continue;
    const low = Math.min(...mine.map((a) => a.after));
    lines.push(fill("trend", { p, first: pct(mine[0].after), last: pct(mine[mine.length - 1].after), low: pct(low) }));
  }
  $("#chart-summary").textContent = lines.join(" ");
  const legend = $("#legend");
  for (let p = 1; p <= review.players; p++) {
    if (!review.actions.some((a) => a.player === p && a.after !== null)) continue; // no line
    legend.append(el("span", { style: `color: ${COLOURS[(p - 1) % COLOURS.length]}` }, `■ ${fill("legend", { p })}`));
  }
  const heads = [...document.querySelectorAll("#chart-table th")].map((th) => th.textContent);
  const body = $("#chart-table tbody");
  for (const a of review.actions) {
    const row = el("tr");
    const cells = [a.number, a.player < 1 ? "—" : a.player, a.action,
      a.before === null ? judgement(a) : a.forced ? TEXT.forced : verdict(a.verdict), pct(a.before), pct(a.after)];
    cells.forEach((value, i) => row.append(el("td", { "data-label": heads[i] }, String(value))));
    body.append(row);
  }
}

function lists() {
  for (const [p, s] of Object.entries(review.summary)) {
    $("#summary").append(el("div", {}, fill("player", { p, accuracy: s.accuracy === null ? TEXT.na : accuracyText(s.accuracy), inaccuracy: s.inaccuracy, mistake: s.mistake, blunder: s.blunder })));
  }
  const box = $("#mistakes");
  review.actions.forEach((a, index) => {
    if (!BAD.includes(a.verdict)) return;
    const button = el("button", { type: "button", class: `secondary verdict-${a.verdict}`, "data-number": a.number }, entryText(a));
    button.addEventListener("click", () => show(index));
    box.append(button);
  });
  if (!box.children.length) box.textContent = TEXT.none;
}

function keys() {
  const last = () => review.actions.length - 1;
  $("#first").addEventListener("click", () => show(0));
  $("#previous").addEventListener("click", () => show(current - 1));
  $("#next").addEventListener("click", () => show(current + 1));
  $("#last").addEventListener("click", () => show(last()));
  $("#review").addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey || event.target.closest("summary, table")) return;
    const to = { ArrowLeft: current - 1, ArrowUp: current - 1, ArrowRight: current + 1,
      ArrowDown: current + 1, Home: 0, End: last() }[event.key];
    if (to === undefined) return;
    event.preventDefault();
    show(to, Boolean(event.target.closest("svg")));
  });
  let pending = false;
  window.addEventListener("resize", () => {
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => { pending = false; chart(); });
  });
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
  document.title = fill("title", { name: data.name });
  $("#heading").textContent = fill("heading", { name: data.name });
  await loadBoard(data.game);
  $("#status").textContent = fill("status", { n: data.actions.length });
  $("#review").hidden = false;
  lists();
  describe();
  keys();
  if (!data.actions.length) return;
  const first = data.actions.findIndex((a) => BAD.includes(a.verdict));
  show(first >= 0 ? first : 0);
}

main().catch(() => {
  $("#status").textContent = TEXT.failed; // (a proxy's error page, a dropped connection)
});

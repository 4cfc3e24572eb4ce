// The replay page (tabletop/web/playback.py): a match move by move, each position as this
// link's viewer saw it (a seat's token: that seat; none: a spectator), drawn read-only by
// the game's own board (or the generic one). First / previous / next / last, and the
// arrow, Home and End keys; ?at=N keeps the position across a reload.
import { ready, words } from "/static/i18n.js";

await ready;
const $ = (sel) => document.querySelector(sel);
const parts = location.pathname.split("/");
const matchId = decodeURIComponent(parts[parts.length - 2]);
const query = new URLSearchParams(location.search);
const token = query.get("token");

const [T, fill] = words({
  title: "Replay: {name}",
  where: "position {at} of {last}",
  start: "The start of the game.",
  played: "Player {p}: {text}",
  chance: "Chance: {text}",
  boardFailed: "the board could not be drawn: {err}",
  notLoaded: "the replay could not be loaded ({status})",
});

let board = null;
let at = 0;
let last = 0;
let busy = false;

function url(n) {
  const q = new URLSearchParams();
  if (token) q.set("token", token);
  q.set("at", String(n));
  return `/api/matches/${encodeURIComponent(matchId)}/replay?${q}`;
}

function said(step) {
  return step.player === -1 ? fill("chance", { text: step.text }) : fill("played", { p: step.player, text: step.text });
}

async function show(n) {
  if (busy) return;
  busy = true;
  try {
    const answer = await fetch(url(n));
    let data;
    try { data = await answer.json(); } catch { data = { error: fill("notLoaded", { status: answer.status }) }; }
    if (!answer.ok) {
      $("#error").textContent = data.error;
      return;
    }
    $("#error").textContent = "";
    if (!board) {
      try { board = await import(data.board || "/static/generic.js"); } catch { board = await import("/static/generic.js"); }
    }
    at = data.at;
    last = data.stops - 1;
    const title = fill("title", { name: data.name });
    $("#heading").textContent = title;
    document.title = `tabletop — ${title}`;
    $("#where").textContent = fill("where", { at, last });
    $("#played").textContent = data.played.length ? data.played.map(said).join("; ") : T.start;
    try {
      board.render($("#board"), data.position, () => {}, data.seat);
    } catch (err) {
      console.error(err);
      $("#board").textContent = fill("boardFailed", { err });
    }
    $("#first").disabled = $("#previous").disabled = at === 0;
    $("#next").disabled = $("#last").disabled = at === last;
    const here = new URLSearchParams(location.search);
    here.set("at", String(at));
    history.replaceState(null, "", `${location.pathname}?${here}`);
  } finally {
    busy = false;
  }
}

const back = $("#back");
back.href = `/match/${encodeURIComponent(matchId)}${token ? `?token=${encodeURIComponent(token)}` : ""}`;
$("#first").addEventListener("click", () => show(0));
$("#previous").addEventListener("click", () => show(Math.max(0, at - 1)));
$("#next").addEventListener("click", () => show(Math.min(last, at + 1)));
$("#last").addEventListener("click", () => show(last));
document.addEventListener("keydown", (event) => {
  if (event.altKey || event.ctrlKey || event.metaKey || event.target.closest?.("input, textarea, select")) return;
  const to = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: last }[event.key];
  if (to === undefined) return;
  event.preventDefault();
  show(Math.min(last, Math.max(0, to)));
});
const asked = Number.parseInt(query.get("at") ?? "0", 10);
await show(Number.isFinite(asked) && asked >= 0 ? asked : 0);

// The coach on the match page (tabletop/web/coach.py): a Hint button for the seat to
// act when the match allows hints, and a link to the review once the game is over.
// Self-contained: it reads the match id and token from the address and adds its own
// section only when it has something to offer (none in a match between people without
// hints); the page's shell (match.js) knows nothing of it. The hinted action is marked
// where the page shows it: its button in the legal actions, and on the board every
// element whose click plays it (a board's data-act attribute, docs/plugins.md). It keeps
// asking the server through a restart (a failed request is tried again), so the review
// link still comes at the end.
import { ready, words } from "/static/i18n.js";

await ready;
const matchId = decodeURIComponent(location.pathname.split("/").pop());
const token = new URLSearchParams(location.search).get("token");
const api = (what) => `/api/matches/${encodeURIComponent(matchId)}/${what}?token=${encodeURIComponent(token)}`;
const el = (tag, attrs = {}, text = "") => {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text) node.textContent = text;
  return node;
};

const [TEXT] = words({
  title: "Coach",
  hint: "Hint",
  thinking: "thinking…",
  review: "Review the game",
  unreachable: "the server cannot be reached; try again in a moment",
  hinted: "the coach's suggestion",
});

let box = null;

function unmark() {
  for (const node of document.querySelectorAll(".hinted")) {
    node.classList.remove("hinted");
    node.removeAttribute("aria-description");
  }
}

function mark(action) {
  unmark();
  if (!action) return;
  const quoted = CSS.escape(action);
  for (const node of document.querySelectorAll(`[data-legal="${quoted}"], [data-act="${quoted}"]`)) {
    node.classList.add("hinted");
    node.setAttribute("aria-description", TEXT.hinted);
  }
}

async function askHint(out) {
  out.textContent = TEXT.thinking;
  try {
    const answer = await fetch(api("hint"));
    const data = await answer.json();
    out.textContent = answer.ok ? data.text : data.error;
    mark(answer.ok && data.actions?.length ? data.actions[0].action : null);
  } catch {
    out.textContent = TEXT.unreachable;
  }
}

function section(status) {
  box = el("section", { id: "coach", "aria-labelledby": "coach-title" });
  box.append(el("h2", { id: "coach-title", class: "h3" }, TEXT.title));
  if (status.hints) {
    const button = el("button", { id: "hint", type: "button" }, TEXT.hint);
    const out = el("p", { id: "hint-text", class: "hint", "aria-live": "polite" });
    button.addEventListener("click", () => askHint(out));
    box.append(button, out);
  }
  const link = el("a", { id: "review-link", href: `/match/${encodeURIComponent(matchId)}/review?token=${encodeURIComponent(token)}` }, TEXT.review);
  link.hidden = !status.over;
  box.append(link);
  (document.querySelector("aside") || document.querySelector("main") || document.body).append(box);
}

async function poll() {
  let status;
  try {
    const answer = await fetch(api("coach"));
    if (answer.status === 403 || answer.status === 404) return;  // no seat: no coach
    if (!answer.ok) throw new Error(String(answer.status));
    status = await answer.json();
  } catch {
    setTimeout(poll, 5000);  // the server restarting: ask again
    return;
  }
  if (!box && (status.hints || status.over)) section(status);
  if (box) {
    box.querySelector("#review-link").hidden = !status.over;
    const hint = box.querySelector("#hint");
    if (hint) hint.hidden = status.over;  // nothing to hint once the game is over
  }
  if (!status.over) setTimeout(poll, 3000);
}

if (token) poll();

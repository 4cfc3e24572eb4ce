// The coach on the match page (tabletop/web/coach.py): a Hint button for the seat to
// act when the match allows hints, and a link to the review once the game is over.
// Self-contained: it reads the match id and token from the address and adds its own
// section; the page's shell (match.js) knows nothing of it.
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
});

let box = null;

function section(status) {
  box = el("section", { id: "coach" });
  box.append(el("h3", {}, TEXT.title));
  if (status.hints) {
    const button = el("button", { id: "hint", type: "button" }, TEXT.hint);
    const out = el("pre", { id: "hint-text", class: "hint" });
    button.addEventListener("click", async () => {
      out.textContent = TEXT.thinking;
      const answer = await fetch(api("hint"));
      const data = await answer.json();
      out.textContent = answer.ok ? data.text : data.error;
    });
    box.append(button, out);
  }
  const link = el("a", { id: "review-link", href: `/match/${encodeURIComponent(matchId)}/review?token=${encodeURIComponent(token)}` }, TEXT.review);
  link.hidden = !status.over;
  box.append(link);
  (document.querySelector("aside") || document.querySelector("main") || document.body).append(box);
}

async function poll() {
  const answer = await fetch(api("coach"));
  if (!answer.ok) return;  // no seat: a spectator gets no coach
  const status = await answer.json();
  if (!box) section(status);
  document.querySelector("#review-link").hidden = !status.over;
  const hint = document.querySelector("#hint");
  if (hint) hint.hidden = status.over;  // nothing to hint once the game is over
  if (!status.over) setTimeout(poll, 3000);
}

if (token) poll();

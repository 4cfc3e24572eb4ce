// Simultaneous (sealed) steps and chance steps on the match page (issue 35). The server
// sends, at a sealed step, position.sealed = {players, waiting, mine}: who chooses, who is
// still to choose (never what anyone chose) and this seat's own choice (to this seat only).
// A chance outcome is a log entry of player -1, drawn by the server: nobody waits for it.
import { words } from "/static/i18n.js";

export const [S, fillS] = words({
  waiting: ["Waiting for {n} of {total}: {n} player is still choosing.",
    "Waiting for {n} of {total}: {n} players are still choosing."],
  chooseNow: "Everyone chooses at once: nobody sees your choice until all have chosen.",
  chosen: "Has chosen: {who}",
  mine: "Your choice (only you see it): {text}",
  takeBack: "Take back my choice",
  takenBack: "Your choice is taken back: choose again.",
  chance: "chance: {text}",
});

/** Whether ``seat`` is still to choose at the step of ``position`` (or is to act). */
export function toChoose(position, seat) {
  if (seat === null || position.status === "over") return false;
  if (position.sealed) return position.sealed.waiting.includes(seat);
  return position.to_act === seat;
}

/** The status line at a sealed step ("Waiting for 1 of 2: …"), or null at any other. */
export function waitingLine(position) {
  const sealed = position.sealed;
  if (!sealed || position.status === "over") return null;
  return fillS("waiting", { n: sealed.waiting.length, total: sealed.players.length });
}

/** Draw the sealed step's box: whether you still choose, who has chosen, your own choice
 * and the button taking it back (``undo``: sends the undo message). Hidden at other steps. */
export function drawSealed(box, position, seat, who, undo) {
  const sealed = position.status === "over" ? null : position.sealed;
  box.hidden = !sealed;
  box.replaceChildren();
  if (!sealed) return;
  const line = (text, attrs = {}) => {
    const p = document.createElement("p");
    for (const [k, v] of Object.entries(attrs)) p.setAttribute(k, v);
    p.textContent = text;
    box.append(p);
    return p;
  };
  if (seat !== null && sealed.waiting.includes(seat)) {
    line(waitingLine(position), { "data-sealed": "waiting" });
    line(S.chooseNow, { class: "help" });
  }
  const chosen = sealed.players.filter((p) => !sealed.waiting.includes(p));
  if (chosen.length) line(fillS("chosen", { who: chosen.map(who).join(", ") }), { "data-sealed": "chosen" });
  if (sealed.mine !== null && sealed.mine !== undefined) {
    const mine = line(fillS("mine", { text: sealed.mine }), { "data-sealed": "mine" });
    mine.append(" ");
    const button = document.createElement("button");
    button.type = "button";
    button.className = "secondary";
    button.id = "take-back";
    button.textContent = S.takeBack;
    button.addEventListener("click", undo);
    mine.append(button);
  }
}

/** A log entry's text: a chance outcome's ("chance: die 3") or null for a player's. */
export function chanceEntry(entry) {
  return entry.player === -1 ? fillS("chance", { text: entry.text }) : null;
}

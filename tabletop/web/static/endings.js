// Resigning and draws on the match page (issue 37). The server's hello says whether the
// game has draws (hello.draws); every position says the draw offered and not yet answered
// (position.draw = {by, waiting} or null) and how the game ended (position.end:
// "resigned", "agreed-draw", ...). "Resign" asks once more before it is sent; "Offer a
// draw" is shown to a player while no offer stands; "Accept the draw" and "Decline" only
// to the players whose answer the offer waits for. See docs/web.md.
import { words } from "/static/i18n.js";

export const [E, fillE] = words({
  offered: "You offered a draw. Waiting for {who}.",
  offers: "{who} offers a draw.",
  waiting: "Waiting for {who}.",
  accept: "Accept the draw",
  decline: "Decline the draw",
  declined: "No draw: {reason}.",
});

const $ = (sel) => document.querySelector(sel);

/** Show or hide the resign and draw controls and the draw banner for ``position``. */
export function drawEndings(position, hello, who, Who, send) {
  const playing = hello.seat !== null && position.status !== "over";
  const offer = position.draw;
  $("#offer-draw").hidden = !playing || !hello.draws || offer !== null;
  if (!playing) askResign(false);
  const banner = $("#draw-banner");
  if (offer === null || position.status === "over") {  // a "No draw" said stays its while
    if (!banner.dataset.declined || position.status === "over") banner.hidden = true;
    return;
  }
  delete banner.dataset.declined;
  banner.hidden = false;
  banner.replaceChildren();
  if (offer.by === hello.seat) {
    banner.append(fillE("offered", { who: offer.waiting.map(who).join(", ") }));
    return;
  }
  banner.append(fillE("offers", { who: Who(offer.by) }), " ");
  if (hello.seat !== null && offer.waiting.includes(hello.seat)) {
    for (const [label, accept, cls] of [[E.accept, true, "good"], [E.decline, false, "secondary danger"]]) {
      const button = el("button", { "data-draw-answer": String(accept), class: cls, type: "button" }, label);
      button.addEventListener("click", () => send({ type: "draw-answer", accept }));
      banner.append(button);
    }
  } else {
    banner.append(el("span", { class: "muted" }, fillE("waiting", { who: offer.waiting.map(who).join(", ") })));
  }
}

/** A declined offer: said in the banner for a few seconds. */
export function drawDeclined(message) {
  const banner = $("#draw-banner");
  const said = String(Date.now());
  banner.dataset.declined = said;
  banner.hidden = false;
  banner.textContent = fillE("declined", { reason: message.reason });
  setTimeout(() => {
    if (banner.dataset.declined !== said) return;
    banner.hidden = true;
    delete banner.dataset.declined;
  }, 5000);
}

/** The second step of resigning: the question and its two answers, or the button back. */
function askResign(open) {
  $("#resign").hidden = open;
  $("#resign-ask").hidden = !open;
  if (open) $("#resign-no").focus();
}

/** Wire the buttons once: resign (asked again first) and offer a draw. */
export function setUpEndings(send) {
  $("#resign").addEventListener("click", () => askResign(true));
  $("#resign-no").addEventListener("click", () => { askResign(false); $("#resign").focus(); });
  $("#resign-yes").addEventListener("click", () => { if (send({ type: "resign" })) askResign(false); });
  $("#offer-draw").addEventListener("click", () => send({ type: "draw-offer" }));
}

function el(tag, attrs = {}, text = "") {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text) node.textContent = text;
  return node;
}

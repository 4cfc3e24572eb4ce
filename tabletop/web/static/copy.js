// "Copy link" buttons: beside a link, a button that copies its address and says "Copied"
// (aria-live, for a screen reader too). navigator.clipboard where the page is a secure
// context (https, localhost); on a page served over plain http the older execCommand copy
// of a selected text field. The lobby builds them with copyButton(); a page whose <body>
// has data-copy-links (the host page) gets one beside each of its seat and spectator links.
import { ready, words } from "/static/i18n.js";

await ready;
const [T, fill] = words({
  copy: "Copy link",
  copyOf: "Copy link: {what}",
  copied: "Copied",
  notCopied: "Not copied: select the link and copy it",
});

async function copied(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch { /* not a secure context, or no permission: the older way */ }
  const field = document.createElement("textarea");
  field.value = text;
  field.setAttribute("readonly", "");
  field.style.position = "fixed";
  field.style.opacity = "0";
  document.body.append(field);
  field.select();
  let done = false;
  try { done = document.execCommand("copy"); } catch { done = false; }
  field.remove();
  return done;
}

/** A button copying ``url`` (``what``: the link's name, for the button's accessible name),
 * with the line that says it was copied. */
export function copyButton(url, what) {
  const said = document.createElement("span");
  said.className = "copied";
  said.setAttribute("aria-live", "polite");
  const button = document.createElement("button");
  button.type = "button";
  button.className = "secondary copy";
  button.textContent = T.copy;
  button.dataset.copy = url;
  if (what) button.setAttribute("aria-label", fill("copyOf", { what }));
  button.addEventListener("click", async () => {
    for (const other of document.querySelectorAll(".copied")) other.textContent = ""; // the last one says
    said.textContent = (await copied(url)) ? T.copied : T.notCopied;
  });
  const box = document.createElement("span");
  box.className = "copy-box";
  box.append(" ", button, " ", said);
  return box;
}

if (document.body.hasAttribute("data-copy-links")) {
  for (const link of document.querySelectorAll("a[data-seat-link], a[data-spectator-link]")) {
    const label = link.closest("li")?.querySelector("b")?.textContent.replace(/:\s*$/, "");
    link.after(copyButton(link.href, label));
  }
}

// Small DOM helpers for browser boards (the web-board contract, docs/plugins.md "In the
// browser"), shared by the built-in boards and open to any plugin's board:
//   import { el, svgEl, injectStyle } from "/static/board-dom.js";

const SVG = "http://www.w3.org/2000/svg";

/** A new ``tag`` element with the class names ``cls`` and the text ``text`` (both optional). */
export function el(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined) node.textContent = text;
  return node;
}

/** A new SVG element ``tag`` with the attributes ``attrs``. */
export function svgEl(tag, attrs) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  return node;
}

/** The board's style sheet ``css``, added to the page once (``id`` tells it is there). */
export function injectStyle(id, css) {
  if (document.getElementById(id)) return;
  const style = document.createElement("style");
  style.id = id;
  style.textContent = css;
  document.head.appendChild(style);
}

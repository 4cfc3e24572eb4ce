// Keyboard and focus for browser boards (the web-board contract, docs/plugins.md "In the
// browser"): one module the built-in boards and any plugin's board import from the page,
//   import { control, named, focusedKey, restoreFocus, gridArrows, roving } from "/static/board-keys.js";
//
// A board redraws itself from scratch on every position; the focus survives that through a
// stable key on each control (data-focus), taken before the redraw and given back after it.

/** Make ``node`` a keyboard control: focusable, a button to assistive technology, named
 *  ``label``, played by click, Enter or Space. ``key`` finds it again after a redraw. */
export function control(node, label, key, handler) {
  node.setAttribute("tabindex", "0"); // SVG elements too, where tabIndex may not be settable
  node.setAttribute("role", "button");
  node.setAttribute("aria-label", label);
  node.dataset.focus = key;
  node.addEventListener("click", handler);
  node.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") { event.preventDefault(); handler(); }
  });
}

/** A described element that is not a control: an image with a name. */
export function named(node, label) {
  node.setAttribute("role", "img");
  node.setAttribute("aria-label", label);
}

/** The focus key (data-focus) of the focused element inside ``root`` (``"*"`` for the
 *  board itself, which keeps the focus while there is nothing to play), or null: call it
 *  before ``root`` is redrawn. */
export function focusedKey(root) {
  if (!root.contains(document.activeElement)) return null;
  return document.activeElement.dataset.focus || "*";
}

/** After a redraw, focus the element with ``key`` again, else the first control that is a
 *  tab stop (the one played is gone; at the start of one's turn); while the board offers
 *  no control the board itself keeps the focus, so it never falls to the page. Nothing
 *  when the focus was not on the board. */
export function restoreFocus(root, key) {
  if (!key) return;
  const again = (key !== "*" && root.querySelector(`[data-focus="${CSS.escape(key)}"]`))
    || root.querySelector('[data-focus][tabindex="0"]') || root.querySelector("[data-focus]");
  if (again) {
    again.setAttribute("tabindex", "0");
    again.focus();
    return;
  }
  root.setAttribute("tabindex", "-1");
  root.focus();
}

/** One tab stop for the controls ``nodes`` (in reading order): the first, or the one
 *  with ``key``; the arrow keys move between them (Left/Right by one, round from the last
 *  to the first; Up/Down by ``columns``), Home and End to the first and the last,
 *  carrying the tab stop along. */
export function roving(nodes, columns, key = null) {
  if (!nodes.length) return;
  const start = Math.max(0, nodes.findIndex((n) => n.dataset.focus === key));
  const count = nodes.length;
  nodes.forEach((node, i) => {
    node.setAttribute("tabindex", i === start ? "0" : "-1");
    node.addEventListener("keydown", (event) => {
      const moves = { ArrowUp: -columns, ArrowDown: columns };
      let to = event.key === "ArrowLeft" ? (i + count - 1) % count
        : event.key === "ArrowRight" ? (i + 1) % count
          : event.key in moves ? i + moves[event.key] : event.key === "Home" ? 0
            : event.key === "End" ? count - 1 : null;
      if (to === null) return;
      event.preventDefault();
      to = Math.min(count - 1, Math.max(0, to));
      nodes[i].setAttribute("tabindex", "-1");
      nodes[to].setAttribute("tabindex", "0");
      nodes[to].focus();
    });
  });
}

const STEPS = { ArrowUp: [0, 1], ArrowDown: [0, -1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] };

/** Arrow keys on a grid of ``columns`` × ``rows`` cells (row 0 at the bottom, so ArrowUp
 *  goes up a rank): focus moves from the cell of ``event.target`` to the next one in that
 *  direction that ``find(column, row)`` returns (a focusable element, or null to pass over
 *  it), wrapping at the edges. ``where(node)`` is a node's [column, row], or null for
 *  anything that is not a cell (the key is then left alone). */
export function gridArrows(event, columns, rows, where, find) {
  const step = STEPS[event.key];
  const at = step ? where(event.target) : null;
  if (!at) return;
  event.preventDefault();
  let [c, r] = at;
  for (let i = 0; i < (step[0] ? columns : rows); i++) {
    c = (c + step[0] + columns) % columns;
    r = (r + step[1] + rows) % rows;
    const next = find(c, r);
    if (next) { next.focus(); return; }
  }
}

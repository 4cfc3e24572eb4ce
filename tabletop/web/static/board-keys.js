// Keyboard and focus for browser boards (the web-board contract, docs/plugins.md "In the
// browser"): one module the built-in boards and any plugin's board import from the page,
//   import { control, named, focusedKey, restoreFocus, gridArrows } from "/static/board-keys.js";
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

/** The focus key (data-focus) of the focused element inside ``root``, or null: call it
 *  before ``root`` is redrawn. */
export function focusedKey(root) {
  return root.contains(document.activeElement) ? document.activeElement.dataset.focus : null;
}

/** After a redraw, focus the element with ``key`` again, or the first control when it is
 *  gone (it was played); nothing when no control of ``root`` had the focus. */
export function restoreFocus(root, key) {
  if (!key) return;
  const again = root.querySelector(`[data-focus="${key}"]`) || root.querySelector("[data-focus]");
  if (again) again.focus();
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

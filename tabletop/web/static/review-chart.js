// The review page's chart (review.js): each player's win chance after each of their judged
// actions, drawn in the box's own pixels (labels stay readable on a phone) with labelled
// axes: the action number along x, the win chance 0-100 % along y. Every judged action is
// a point, a keyboard-focusable button named by its line of the review (one tab stop: the
// shown action's point; the review area's arrow keys move between them); a click picks it.
// The chart is the same data as the table under it, which screen readers may read instead.

const SVG = "http://www.w3.org/2000/svg";
export const COLOURS = ["#1f5fa8", "#c0392b", "#2e7d4f", "#8e44ad", "#b35400", "#137a6a"];
const BAD = ["inaccuracy", "mistake", "blunder"];

function svg(tag, attrs = {}, text = "") {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text) node.textContent = text;
  return node;
}

/** Ticks 1..n, at most ``most`` of them, on round steps (1, 2, 5, 10, 20, 50...). */
function ticks(n, most) {
  let step = 1;
  for (const base of [1, 2, 5, 10, 20, 50, 100, 200, 500]) {
    step = base;
    if (Math.ceil(n / base) <= most) break;
  }
  const out = [1];
  for (let k = step; k <= n; k += step) if (k !== 1) out.push(k);
  return out;
}

/**
 * Draw ``review`` into ``box`` (emptied first). ``words``: {xTitle, yTitle, label(entry),
 * pct(x)}; ``pick(index)`` when a point is clicked; ``current``: the shown action's index.
 * Returns the points by action index (for focus).
 */
export function drawChart(box, review, words, pick, current) {
  box.textContent = "";
  const W = Math.max(280, Math.min(1100, Math.round(box.clientWidth || 900)));
  const H = W < 500 ? 220 : 260;
  const left = 58, right = 14, top = 12, bottom = 46;
  const n = review.actions.length;
  const x = (number) => left + ((W - left - right) * (number - 1)) / Math.max(1, n - 1);
  const y = (chance) => top + (H - top - bottom) * (1 - chance);
  const root = svg("svg", { viewBox: `0 0 ${W} ${H}`, width: W, height: H, role: "group",
    "aria-labelledby": "chart-title", "aria-describedby": "chart-summary" });
  const axes = svg("g", { class: "axis", "aria-hidden": "true" });
  for (const chance of [0, 0.25, 0.5, 0.75, 1]) {
    axes.append(svg("line", { x1: left, x2: W - right, y1: y(chance), y2: y(chance),
      class: chance === 0.5 ? "even" : "grid" }));
    axes.append(svg("text", { x: left - 6, y: y(chance) + 4, "text-anchor": "end" }, words.pct(chance)));
  }
  axes.append(svg("line", { x1: left, x2: left, y1: top, y2: H - bottom }));
  axes.append(svg("line", { x1: left, x2: W - right, y1: H - bottom, y2: H - bottom }));
  for (const k of ticks(n, Math.max(2, Math.floor((W - left - right) / 36)))) {
    axes.append(svg("line", { x1: x(k), x2: x(k), y1: H - bottom, y2: H - bottom + 5 }));
    axes.append(svg("text", { x: x(k), y: H - bottom + 18, "text-anchor": "middle" }, String(k)));
  }
  axes.append(svg("text", { x: (left + W - right) / 2, y: H - 6, "text-anchor": "middle" }, words.xTitle));
  axes.append(svg("text", { x: -(top + H - bottom) / 2, y: 14, transform: "rotate(-90)",
    "text-anchor": "middle" }, words.yTitle));
  root.append(axes);
  if (current !== null && current >= 0) {
    const at = x(review.actions[current].number);
    root.append(svg("line", { x1: at, x2: at, y1: top, y2: H - bottom, class: "now", "aria-hidden": "true" }));
  }
  for (let p = 1; p <= review.players; p++) {
    const mine = review.actions.filter((a) => a.player === p && a.after !== null);
    if (!mine.length) continue;
    const points = mine.map((a) => `${x(a.number)},${y(a.after)}`).join(" ");
    root.append(svg("polyline", { points, fill: "none", "stroke-width": 2, "aria-hidden": "true",
      stroke: COLOURS[(p - 1) % COLOURS.length] }));
  }
  const marks = {};
  review.actions.forEach((a, index) => {
    if (a.after === null) return;
    const bad = BAD.indexOf(a.verdict);
    const mark = svg("circle", {
      cx: x(a.number), cy: y(a.after), r: bad >= 0 ? 6 + bad * 2 : 5,
      class: `point ${bad >= 0 ? `verdict-${a.verdict}` : ""}`, role: "button",
      tabindex: index === current ? 0 : -1, "aria-label": words.label(a), "data-point": a.number,
      fill: bad >= 0 ? "currentColor" : COLOURS[(a.player - 1) % COLOURS.length],
    });
    if (index === current) mark.setAttribute("aria-current", "step");
    mark.append(svg("title", {}, words.label(a)));
    mark.addEventListener("click", () => pick(index));
    mark.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        pick(index);
      }
    });
    marks[index] = mark;
    root.append(mark);
  });
  box.append(root);
  return marks;
}

"""What the browser tests check on every page they look at: WCAG AA contrast of every
control's text against its computed background, no sideways scroll, and the axe-core audit
(``axe-playwright-python`` bundles axe-core; it runs inside the page)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

# For every visible, enabled control (and each element with text inside one): its text
# colour, the background it shows on (the first opaque background up the tree, the
# transparent ones blended on it), its font size and weight, and a name to report.
CONTRAST_JS = """
() => {
  const parse = (c) => {
    const m = c.match(/rgba?\\(([^)]+)\\)/);
    if (!m) return null;
    const p = m[1].split(/[ ,\\/]+/).filter(Boolean).map(Number);
    return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
  };
  const over = (top, under) => {
    const a = top[3];
    return [0, 1, 2].map((i) => top[i] * a + under[i] * (1 - a)).concat([1]);
  };
  const lum = (c) => {
    const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]);
  };
  const background = (node) => {
    const layers = [];
    for (let n = node; n && n.nodeType === 1; n = n.parentElement) {
      const style = getComputedStyle(n);
      if (style.backgroundImage && style.backgroundImage !== "none") return null;  // a picture
      const c = parse(style.backgroundColor);
      if (c && c[3] > 0) { layers.push(c); if (c[3] >= 1) break; }
    }
    let colour = [255, 255, 255, 1];
    for (const layer of layers.reverse()) colour = over(layer, colour);
    return colour;
  };
  const visible = (n) => {
    const r = n.getBoundingClientRect();
    const s = getComputedStyle(n);
    return r.width > 0 && r.height > 0 && s.visibility !== "hidden" && s.display !== "none";
  };
  const controls = document.querySelectorAll(
    "button, a[href], input, select, textarea, [role=button], [tabindex]:not([tabindex='-1'])");
  const out = [];
  for (const control of controls) {
    if (control.disabled || control.closest("[hidden]") || !visible(control)) continue;
    if (control.closest("svg")) continue;  // SVG fields: named for screen readers, no CSS text
    const hasText = (n) => [...n.childNodes].some((c) => c.nodeType === 3 && c.textContent.trim());
    const texts = [control, ...control.querySelectorAll("*")]
      .filter((n) => !n.closest("svg") && hasText(n));
    if (["INPUT", "SELECT", "TEXTAREA"].includes(control.tagName)) texts.push(control);
    for (const n of texts) {
      if (!visible(n)) continue;
      const style = getComputedStyle(n);
      const bg = background(n);
      if (!bg) continue;
      let ink = parse(style.color);
      let opacity = 1;
      for (let p = n; p && p.nodeType === 1; p = p.parentElement) {
        opacity *= Number(getComputedStyle(p).opacity);
      }
      ink = over([ink[0], ink[1], ink[2], ink[3] * opacity], bg);
      const [a, b] = [lum(ink), lum(bg)].sort((x, y) => y - x);
      const size = parseFloat(style.fontSize);
      const bold = Number(style.fontWeight) >= 700;
      const large = size >= 24 || (bold && size >= 18.66);
      out.push({ name: (n.textContent || n.value || n.tagName).trim().slice(0, 40),
        tag: n.tagName, ratio: (a + 0.05) / (b + 0.05), needed: large ? 3 : 4.5,
        ink: style.color, bg: `rgb(${bg.slice(0, 3).map(Math.round).join(",")})` });
    }
  }
  return out;
}
"""


def low_contrast(page: Any) -> list[dict[str, Any]]:
    """Every control text on ``page`` below WCAG AA (4.5:1, large text 3:1)."""
    found: list[dict[str, Any]] = page.evaluate(CONTRAST_JS)
    assert found, "no control text found: the check would pass on an empty page"
    return [f for f in found if f["ratio"] + 1e-6 < f["needed"]]


def sideways(page: Any) -> int:
    """How many pixels the page scrolls sideways (0: it fits the viewport's width)."""
    width: int = page.evaluate(
        "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    return width


class Audit:
    """axe-core over pages; ``serious()`` lists the serious and critical violations seen,
    ``write(path)`` keeps every finding (all impacts) for the closing note."""

    def __init__(self) -> None:
        from axe_playwright_python.sync_playwright import Axe  # type: ignore[import-untyped]

        self.axe = Axe()
        self.findings: list[dict[str, Any]] = []

    def run(self, page: Any, where: str) -> list[dict[str, Any]]:
        results = self.axe.run(page)
        violations: list[dict[str, Any]] = results.response["violations"]
        found = []
        for v in violations:
            entry = {"where": where, "id": v["id"], "impact": v["impact"],
                     "nodes": [n["target"] for n in v["nodes"]][:5]}  # fmt: skip
            found.append(entry)
        self.findings.extend(found)
        return [f for f in found if f["impact"] in ("serious", "critical")]

    def write(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(self.findings, indent=1))

"""``compare --report FILE.html``: the comparison as one self-contained page.

The page says the verdicts (a stopped run first says it is partial), then the table of
measures with the raw and the Holm-adjusted p-value, then the differences with their 95%
intervals as a plot. One visual language, the text's own definition: a *finding* is a
measure whose Holm-adjusted p-value is below 5% and whose interval is clear of 0; it is
bold in the table and a filled red dot in the plot. Anything else is grey (hollow in
the plot), even an interval that happens to clear 0.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import tabletop.analysis.text as text
from tabletop.analysis.compare import Measured
from tabletop.analysis.report import _download, _e, _page, _write, figure, scrolling
from tabletop.analysis.report_plots import ROW_INCHES, _figure, _label_rows, png
from tabletop.analysis.verdict import amount, interval, names_in_words
from tabletop.core.i18n.text import translate

FINDING = "#c44e52"
NO_FINDING = "#9a9a9a"
WARNINGS = tuple(t.split(" ")[0] for t in (text.WIDE, text.STOPPED))  # lines said as warnings
PLOT_CAPTION = (
    "Each measure's difference (variant − baseline) with its 95% paired interval: rates in "
    "percentage points, the other measures in % of the baseline. Filled red: a finding (the "
    "Holm-adjusted p-value below 5% and the interval clear of 0). Hollow grey: no finding, "
    "even where the interval clears 0: tested together, some intervals clear 0 by chance, "
    "which the adjusted p-value allows for."
)
TABLE_CAPTION = (
    "p: the measure's own paired test; p (Holm): adjusted for the {tests} measures that "
    "moved, tested at once. Bold: a finding; grey: none."
)


def differences(found: Sequence[Measured]) -> Any:
    """The differences with their 95% intervals: rates in points (left), the other
    measures relative to the baseline in percent (right), one row per measure."""
    rates = [m for m in found if m.rate]
    others = [m for m in found if not m.rate and m.result.a]
    rows = max(len(rates), len(others), 1)
    fig = _figure(12, max(2.6, ROW_INCHES * rows + 1.6))
    left, right = fig.subplots(1, 2)
    labels = names_in_words(found)
    for ax, group, unit in (
        (left, rates, "difference in percentage points (variant − baseline)"),
        (right, others, "difference in % of the baseline (variant − baseline)"),
    ):
        for y, m in enumerate(group):
            factor = 100.0 if m.rate else 100 / abs(m.result.a)
            d = m.result.difference * factor
            low, high = m.result.ci[0] * factor, m.result.ci[1] * factor
            colour = FINDING if m.significant else NO_FINDING
            ax.errorbar(
                d, y, xerr=[[d - low], [high - d]], fmt="o", color=colour, capsize=3,
                markerfacecolor=colour if m.significant else "white", markersize=6,
            )  # fmt: skip
        ax.axvline(0, color="black", lw=1)
        _label_rows(ax, [translate(labels[m.name]) for m in group])
        ax.set_xlabel(unit, fontsize=8)
        ax.grid(axis="x", alpha=0.3)
    left.set_title("shares of games", fontsize=9)
    right.set_title("lengths and per-game measures", fontsize=9)
    fig.suptitle(
        "Differences with 95% intervals (filled red: a finding after Holm's correction; "
        "hollow grey: none)",
        fontsize=10,
    )
    return fig


def measures_table(data: dict[str, Any], found: Sequence[Measured]) -> str:
    labels = names_in_words(found)
    head = ["measure", "baseline", "variant", "difference [95% interval]", "p", "p (Holm)"]
    head.append("test")
    left = ("measure", "test")
    rows = ["<table><tr>"]
    rows[0] += "".join(f"<th{' class=l' if h in left else ''}>{_e(h)}</th>" for h in head)
    rows[0] += "</tr>"
    for m in found:
        style = "sig" if m.significant else "ns"
        rows.append(
            f"<tr class={style}><td class=l>{_e(translate(labels[m.name]))}</td>"
            f"<td>{_e(amount(m, m.result.a, sign=False))}</td>"
            f"<td>{_e(amount(m, m.result.b, sign=False))}</td>"
            f"<td>{_e(translate(interval(m)))}{' *' if m.significant else ''}</td>"
            f"<td>{m.result.p:.3g}</td><td>{m.p_adjusted:.3g}</td>"
            f"<td class=l>{_e(m.result.test)}</td></tr>"
        )
    rows.append("</table>")
    caption = TABLE_CAPTION.format(tests=data.get("tested", len(found)))
    return f"<p>{_e(caption)}</p>" + scrolling("\n".join(rows))


def write_compare_report(
    data: dict[str, Any], lines: Sequence[str], found: Sequence[Measured], path: Path
) -> None:
    """Write the comparison page: verdicts, the measures' table, the differences plot."""
    changes = ", ".join(f"{k}={v}" for k, v in data["variant"]["changes"].items())
    parts = _page(f"{data['game']}: {changes} against the baseline")
    agents = "; ".join(f"level {k}: {v}" for k, v in data["baseline"]["agents"].items())
    parts.append(
        f"<p>{data['games']} paired games a level ({data['baseline']['players']} players): "
        f"game i of both arms has the same seed and seats. Played by: {_e(agents)}.</p>"
    )
    said = [
        f"<li class=warn>{_e(translate(line))}</li>"
        if line.startswith(WARNINGS)
        else f"<li>{_e(translate(line))}</li>"
        for line in lines
    ]
    parts.append("<ul>" + "".join(said) + "</ul>")
    parts.append("<h2>Measures</h2>" + measures_table(data, found))
    parts.append(_download(data, f"{data['game']}-compare.json"))
    if found:
        parts.append(f"<h2>Differences</h2><p>{_e(PLOT_CAPTION)}</p>")
        parts.append(figure(png(differences(found)), "Differences", "differences"))
    parts.append("</body></html>")
    _write(parts, path)

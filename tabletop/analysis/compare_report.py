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
import tabletop.analysis.wording as w
from tabletop.analysis.compare import Measured
from tabletop.analysis.report import _download, _e, _page, _write, figure, scrolling
from tabletop.analysis.report_plots import ROW_INCHES, _figure, _label_rows, png
from tabletop.analysis.verdict import amount, interval, names_in_words
from tabletop.analysis.wording import say
from tabletop.core.i18n.text import translate

FINDING = "#c44e52"
NO_FINDING = "#9a9a9a"
WARNINGS = tuple(t.split(" ")[0] for t in (text.WIDE, text.STOPPED))  # lines said as warnings


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
        (left, rates, say(w.AXIS_POINTS_DIFFERENCE)),
        (right, others, say(w.AXIS_RELATIVE_DIFFERENCE)),
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
    left.set_title(say(w.PANEL_RATES), fontsize=9)
    right.set_title(say(w.PANEL_OTHERS), fontsize=9)
    fig.suptitle(say(w.PLOT_DIFFERENCES), fontsize=10)
    return fig


def measures_table(data: dict[str, Any], found: Sequence[Measured]) -> str:
    labels = names_in_words(found)
    head = [w.HEAD_MEASURE, w.HEAD_BASELINE, w.HEAD_VARIANT, w.HEAD_DIFFERENCE, "p"]
    head += [w.HEAD_P_HOLM, w.HEAD_TEST]
    left = (w.HEAD_MEASURE, w.HEAD_TEST)
    rows = ["<table><tr>"]
    rows[0] += "".join(f"<th{' class=l' if h in left else ''}>{_e(say(h))}</th>" for h in head)
    rows[0] += "</tr>"
    for m in found:
        style = "sig" if m.significant else "ns"
        rows.append(
            f"<tr class={style}><td class=l>{_e(translate(labels[m.name]))}</td>"
            f"<td>{_e(translate(amount(m, m.result.a, sign=False)))}</td>"
            f"<td>{_e(translate(amount(m, m.result.b, sign=False)))}</td>"
            f"<td>{_e(translate(interval(m)))}{' *' if m.significant else ''}</td>"
            f"<td>{w.short(float(f'{m.result.p:.3g}'))}</td>"
            f"<td>{w.short(float(f'{m.p_adjusted:.3g}'))}</td>"
            f"<td class=l>{_e(say(w.TESTS.get(m.result.test, m.result.test)))}</td></tr>"
        )
    rows.append("</table>")
    caption = w.table_caption(data.get("tested", len(found)))
    return f"<p>{_e(say(caption))}</p>" + scrolling("\n".join(rows))


def write_compare_report(
    data: dict[str, Any], lines: Sequence[str], found: Sequence[Measured], path: Path
) -> None:
    """Write the comparison page: verdicts, the measures' table, the differences plot."""
    changes = ", ".join(f"{k}={v}" for k, v in data["variant"]["changes"].items())
    parts = _page(say(w.COMPARE_PAGE_TITLE.format(game=data["game"], changes=changes)))
    agents = "; ".join(say(w.level_named(k, v)) for k, v in data["baseline"]["agents"].items())
    intro = w.compare_intro(data["games"], data["baseline"]["players"], agents)
    parts.append(f"<p>{_e(say(intro))}</p>")
    said = [
        f"<li class=warn>{_e(translate(line))}</li>"
        if line.startswith(WARNINGS)
        else f"<li>{_e(translate(line))}</li>"
        for line in lines
    ]
    parts.append("<ul>" + "".join(said) + "</ul>")
    parts.append(f"<h2>{_e(say(w.HEAD_MEASURES))}</h2>" + measures_table(data, found))
    parts.append(_download(data, f"{data['game']}-compare.json"))
    if found:
        title = say(w.HEAD_DIFFERENCES)
        parts.append(f"<h2>{_e(title)}</h2><p>{_e(say(w.PLOT_CAPTION))}</p>")
        parts.append(figure(png(differences(found)), title, "differences"))
    parts.append("</body></html>")
    _write(parts, path)

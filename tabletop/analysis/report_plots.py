"""The plots of ``analyse --report`` (matplotlib ``Figure`` objects, drawn from the
``--json`` object alone), their titles and captions; the page around them is
:mod:`tabletop.analysis.report`.

One visual language with the text: a seat whose interval is clear of a fair share, a
skill score clear of ``1/N``, is drawn in full colour; anything else hollow or grey. A
measure drawn as means has its 95% intervals; a measure that cannot vary under the
options (every game of every row the same value) gets no plot.
"""

from __future__ import annotations

import io
import statistics
import zlib
from collections.abc import Sequence
from typing import Any

import tabletop.analysis.wording as w
from tabletop.analysis.findings import fair_share
from tabletop.analysis.run import label
from tabletop.analysis.wording import say

ROW_INCHES = 0.32  # height of one configuration's row in a plot

# End kinds that are not the rules' own end (tabletop.analysis.measures.CUT_KINDS) have
# warm fixed colours and a draw is grey; every other kind gets a cool colour picked by a
# hash of its name, so the same kind has the same colour in every game's report.
FIXED_COLOURS = {
    "draw": "#9e9e9e",
    "turn-limit": "#d62728",
    "action-limit": "#8c1c13",
    "blocked": "#ff7f0e",
    "stall": "#8c564b",
    "time": "#e377c2",
}
COOL_COLOURS = (  # nine: the own ends of the games shipped here fall on different ones
    "#17becf",
    "#2ca02c",
    "#393b79",
    "#637939",
    "#1f77b4",
    "#31a354",
    "#9467bd",
    "#3182bd",
    "#756bb1",
)
FAIR_COLOUR = "#d62728"
SEAT_COLOURS = ("#4c72b0", "#dd8452", "#55a868", "#c44e52", "#8172b3", "#937860")
LEVEL_COLOURS = ("#4c72b0", "#55a868", "#c44e52", "#8172b3", "#ccb974", "#64b5cd")


def kind_colour(kind: str) -> str:
    """The one colour of an end kind, the same in every report."""
    if kind in FIXED_COLOURS:
        return FIXED_COLOURS[kind]
    return COOL_COLOURS[zlib.crc32(kind.encode("utf-8")) % len(COOL_COLOURS)]


def level_short(level: str, data: dict[str, Any]) -> str:
    """``3 novice``: a level with the first word(s) of its description (before a colon)."""
    description = say(data.get("agents", {}).get(level, ""))
    head = description.split(":")[0].split(",")[0]
    return f"{level} {head}" if head and len(head) <= 28 else level


def level_title(level: str, data: dict[str, Any]) -> str:
    """``level 3: novice (...)``: a level by its name."""
    description = data.get("agents", {}).get(level)
    if description:
        return say(w.level_named(level, description))
    return say(w.HEAD_LEVEL) + f" {level}"


def _figure(width: float, height: float) -> Any:
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height), dpi=100, layout="constrained")


def _configs(data: dict[str, Any]) -> list[str]:
    """The configurations' labels, in order (one per configuration, not per level)."""
    return list(dict.fromkeys(label(r, data["swept"]) for r in data["configurations"]))


def _rows_of(data: dict[str, Any], level: str) -> list[dict[str, Any]]:
    return [r for r in data["configurations"] if r["level"] == level]


def _panels(data: dict[str, Any], title: str) -> tuple[Any, list[Any]]:
    """A figure with one panel per level side by side, configurations down the side."""
    levels = data["levels"]
    count = len(_configs(data))
    fig = _figure(4.2 * len(levels) + 2.2, max(2.4, ROW_INCHES * count * 1.6 + 1.4))
    axes = list(fig.subplots(1, len(levels), squeeze=False, sharey=True, sharex=True)[0])
    fig.suptitle(title, fontsize=11)
    for ax, level in zip(axes, levels, strict=True):
        ax.set_title(_wrap(level_title(level, data), 48), fontsize=8)
    return fig, axes


def _wrap(words: str, width: int) -> str:
    import textwrap

    return "\n".join(textwrap.wrap(words, width)) or words


def _percent() -> Any:
    from matplotlib.ticker import PercentFormatter

    return PercentFormatter(1.0, decimals=0)


def _label_rows(ax: Any, names: Sequence[str]) -> None:
    ax.set_yticks(range(len(names)), names, fontsize=8)
    ax.set_ylim(len(names) - 0.5, -0.5)  # first configuration on top


def seat_win_rates(data: dict[str, Any]) -> Any:
    """Per level: each seat's win rate as its distance from a fair share, in points, with
    its 95% interval, zoomed on the differences (a 2-5 point edge is what matters, and a
    0-100% axis hides it). Full colour: the interval is clear of fair (a seat edge, as the
    text and the table say); hollow: it is not."""
    names = _configs(data)
    fig, axes = _panels(data, say(w.PLOT_SEATS))
    widest = 2.0
    labelled: set[int] = set()
    for ax, level in zip(axes, data["levels"], strict=True):
        rows = _rows_of(data, level)
        most = max(len(r["seat_win_rate"]) for r in rows)
        height = 0.8 / most
        for seat in range(most):
            colour = SEAT_COLOURS[seat % len(SEAT_COLOURS)]
            for y, row in enumerate(rows):
                if seat >= len(row["seat_win_rate"]):
                    continue
                fair = fair_share(row)
                rate = (row["seat_win_rate"][seat] - fair) * 100
                low, high = ((v - fair) * 100 for v in row["seat_win_rate_ci95"][seat])
                edge = low > 0 or high < 0
                widest = max(widest, abs(low), abs(high))
                ax.errorbar(
                    rate, y - 0.4 + height * (seat + 0.5), xerr=[[rate - low], [high - rate]],
                    fmt="o", color=colour, markerfacecolor=colour if edge else "white",
                    capsize=2, markersize=5, elinewidth=1.6 if edge else 0.9,
                    label=say(w.HEAD_SEAT.format(seat=seat + 1)) if seat not in labelled else None,
                )  # fmt: skip
                labelled.add(seat)
        ax.axvline(0, color=FAIR_COLOUR, linestyle="dashed", lw=1.4)
        ax.set_xlabel(say(w.AXIS_SEATS))
        ax.grid(axis="x", alpha=0.3)
    for ax in axes:
        ax.set_xlim(-widest * 1.1, widest * 1.1)
    _label_rows(axes[0], names)
    fig.legend(fontsize=7, loc="outside right upper")
    return fig


def quartiles(distribution: dict[str, int]) -> dict[str, Any]:
    """Box-plot statistics (``ax.bxp``) of a ``{value: count}`` distribution."""
    values = sorted(int(k) for k, count in distribution.items() for _ in range(count))
    q1, median, q3 = statistics.quantiles(values, n=4) if len(values) > 1 else [values[0]] * 3
    return {
        "med": median,
        "q1": q1,
        "q3": q3,
        "whislo": values[0],
        "whishi": values[-1],
        "mean": statistics.fmean(values),
        "fliers": [],
    }


def distributions(data: dict[str, Any], key: str, title: str, unit: str) -> Any:
    """Per level: a box per configuration (whiskers: shortest and longest, line: median,
    triangle: mean) of a measure whose whole distribution is in the JSON."""
    names = _configs(data)
    fig, axes = _panels(data, title)
    for ax, level in zip(axes, data["levels"], strict=True):
        rows = _rows_of(data, level)
        stats = [quartiles(r[key]["distribution"]) for r in rows if r.get(key)]
        if len(stats) == len(rows):
            _horizontal_boxes(ax, stats)
        ax.set_xlabel(unit)
        ax.grid(axis="x", alpha=0.3)
    _label_rows(axes[0], names)
    return fig


def _horizontal_boxes(ax: Any, stats: list[dict[str, Any]]) -> None:
    """``ax.bxp`` lying down (``orientation`` from matplotlib 3.10, ``vert`` before)."""
    where = {"positions": range(len(stats)), "showmeans": True, "widths": 0.6}
    try:
        ax.bxp(stats, orientation="horizontal", **where)
    except TypeError:
        ax.bxp(stats, vert=False, **where)


def endings(data: dict[str, Any]) -> Any:
    """Per level: how the games ended, the share of each end kind (fixed colours)."""
    names = _configs(data)
    kinds = sorted({k for r in data["configurations"] for k in r["end_reasons"]})
    fig, axes = _panels(data, say(w.PLOT_ENDINGS))
    for ax, level in zip(axes, data["levels"], strict=True):
        rows = _rows_of(data, level)
        left = [0.0] * len(rows)
        for kind in kinds:
            share = [r["end_reasons"].get(kind, 0) / r["games"] for r in rows]
            ax.barh(range(len(rows)), share, 0.6, left=left, label=kind, color=kind_colour(kind))
            left = [a + b for a, b in zip(left, share, strict=True)]
        ax.set_xlim(0, 1)
        ax.xaxis.set_major_formatter(_percent())
        ax.set_xlabel(say(w.AXIS_SHARE))
    _label_rows(axes[0], names)
    axes[-1].legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    return fig


def means(data: dict[str, Any], key: str, title: str, unit: str) -> Any:
    """Per level: a configuration's per-game mean with its 95% interval (missing: not
    drawn); the interval is the JSON's ``KEY_ci95``."""
    names = _configs(data)
    fig, axes = _panels(data, say(w.WITH_INTERVALS.format(title=title)))
    for ax, level, colour in zip(axes, data["levels"], LEVEL_COLOURS, strict=False):
        for y, row in enumerate(_rows_of(data, level)):
            mean = row.get(key)
            if mean is None:
                continue
            low, high = row.get(f"{key}_ci95") or (mean, mean)
            ax.errorbar(
                mean, y, xerr=[[mean - low], [high - mean]], fmt="o", color=colour, capsize=3
            )
            shown = w.short(float(f"{mean:.3g}"))
            ax.annotate(shown, (mean, y), xytext=(0, 6), textcoords="offset points",
                        fontsize=7, ha="center")  # fmt: skip
        ax.set_xlabel(unit)
        ax.grid(axis="x", alpha=0.3)
    _label_rows(axes[0], names)
    return fig


def score_margin(data: dict[str, Any]) -> Any:
    """Per level: the mean margin of the winner's points over the next, with its interval."""
    names = _configs(data)
    fig, axes = _panels(data, say(w.PLOT_MARGIN))
    for ax, level, colour in zip(axes, data["levels"], LEVEL_COLOURS, strict=False):
        for y, row in enumerate(_rows_of(data, level)):
            margin = row["points"]["score_margin"]
            low, high = margin["ci95"]
            mean = margin["mean"]
            ax.errorbar(mean, y, xerr=[[mean - low], [high - mean]], fmt="o", color=colour,
                        capsize=3)  # fmt: skip
        ax.set_xlabel(say(w.AXIS_POINTS))
        ax.grid(axis="x", alpha=0.3)
    _label_rows(axes[0], names)
    return fig


def constant(data: dict[str, Any], key: str) -> bool:
    """True when a measure cannot vary under these options: every game of every row had
    the same value (e.g. the score margin under simple scoring is always 1)."""
    rows = data["configurations"]
    if key == "score_margin":
        found = [r["points"]["score_margin"] for r in rows if r.get("points")]
        return (
            bool(found)
            and len({(m["mean"], *m["ci95"]) for m in found}) == 1
            and all(m["ci95"][0] == m["ci95"][1] for m in found)
        )
    if key in ("length_turns", "length_actions", "branching_spread"):
        kinds = {tuple(r[key]["distribution"]) for r in rows if r.get(key)}
        return len(kinds) == 1 and len(next(iter(kinds))) == 1
    values = [(r.get(key), tuple(r.get(f"{key}_ci95") or ())) for r in rows]
    known = [(v, ci) for v, ci in values if v is not None]
    return bool(known) and len(set(known)) == 1 and all(ci and ci[0] == ci[1] for _, ci in known)


def skill_gap(data: dict[str, Any]) -> Any:
    """The higher level's score in one seat against the lower, with its interval."""
    rows = data["skill"]
    names = [f"{label(r, data['swept'])}: {say(w.versus(r['higher'], r['lower']))}" for r in rows]
    fig = _figure(7.5, max(2.4, ROW_INCHES * len(rows) * 1.6 + 1.4))
    ax = fig.subplots()
    for y, row in enumerate(rows):
        low, high = row["higher_score_ci95"]
        score = row["higher_score"]
        colour = "#2ca02c" if row["significant"] else "#b0b0b0"
        ax.barh(y, score, 0.6, xerr=[[score - low], [high - score]], capsize=3, color=colour)
        ax.vlines(row["baseline"], y - 0.48, y + 0.48, colors=FAIR_COLOUR, linestyles="dashed")
    _label_rows(ax, names)
    ax.set_xlim(0, 1)
    ax.xaxis.set_major_formatter(_percent())
    ax.set_xlabel(say(w.AXIS_SKILL))
    ax.set_title(say(w.PLOT_SKILL), fontsize=11)
    return fig


def figures(data: dict[str, Any]) -> dict[str, Any]:
    """Every plot of the report, by file-friendly name (one per measure), leaving out a
    measure that cannot vary under the options (:func:`constant`)."""
    first = data["configurations"][0]
    made = {"seat_win_rates": seat_win_rates(data), "endings": endings(data)}
    for key, title in w.BOXES.items():
        unit = say(w.BOX_UNITS[key]) if key in w.BOX_UNITS else _turns_unit(data)
        if not constant(data, key):
            made[key.removesuffix("_spread")] = distributions(data, key, say(title), unit)
    if first.get("lead_changes") is not None:
        for key, (title, unit) in w.MEANS.items():
            if not constant(data, key):
                made[key] = means(data, key, say(title), say(unit))
    if all(r.get("points") for r in data["configurations"]) and not constant(data, "score_margin"):
        made["score_margin"] = score_margin(data)
    if data["skill"]:
        made["skill"] = skill_gap(data)
    return made


def _turns_unit(data: dict[str, Any]) -> str:
    return say(w.AXIS_TURNS.format(seconds=w.short(data.get("seconds_per_turn", 20))))


def png(fig: Any) -> bytes:
    """A figure as PNG bytes."""
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png")
    return buffer.getvalue()

"""``--report FILE.html``: one self-contained page for a designer (PNG embedded as base64).

The page opens with a summary table (per configuration and level: each seat's win rate
with its interval, draws, how games ended, length in turns and estimated minutes, points,
skill), then the warnings, then one plot per measure, then a link that downloads every
number as JSON (the numbers are not printed on the page). Configurations run down the
side of every plot, so their labels stay readable however many there are; levels are
named by their descriptions; each end kind has one colour on every page of every game.
``compare`` gets the same page shape: the verdict, the table of measures, and the
differences with their intervals as a plot.

matplotlib (extra ``analysis``) draws the plots: the established plotting library, static
PNGs need no JavaScript or network to open, and its object API (``Figure``) keeps no
global state. Every plot is drawn from the ``--json`` object alone.
"""

from __future__ import annotations

import base64
import html
import io
import json
import statistics
import zlib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tabletop.analysis.findings import (
    completion_level_changes,
    fair_share,
    seat_level_changes,
    seat_warnings,
)
from tabletop.analysis.run import label
from tabletop.core.errors import TabletopError
from tabletop.core.i18n.text import Domain

_ = Domain("tabletop")

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


class MatplotlibMissing(TabletopError):
    """``--report`` without matplotlib installed."""

    exit_code = 2


def check_matplotlib() -> None:
    """MatplotlibMissing (how to install it) unless matplotlib can be imported."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise MatplotlibMissing(
            _("--report needs matplotlib, which is not installed: pip install -e '.[analysis]'")
        ) from None


def kind_colour(kind: str) -> str:
    """The one colour of an end kind, the same in every report."""
    if kind in FIXED_COLOURS:
        return FIXED_COLOURS[kind]
    return COOL_COLOURS[zlib.crc32(kind.encode("utf-8")) % len(COOL_COLOURS)]


def level_short(level: str, data: dict[str, Any]) -> str:
    """``3 novice``: a level with the first word(s) of its description (before a colon)."""
    description = data.get("agents", {}).get(level, "")
    head = description.split(":")[0].split(",")[0]
    return f"{level} {head}" if head and len(head) <= 28 else level


def level_title(level: str, data: dict[str, Any]) -> str:
    """``level 3: novice (...)``: a level by its name."""
    description = data.get("agents", {}).get(level)
    return f"level {level}: {description}" if description else f"level {level}"


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
    """Per level: each seat's win rate with its 95% interval, per configuration, and a
    fair seat's share (a black tick)."""
    names = _configs(data)
    fig, axes = _panels(data, "Seat win rates, 95% intervals (red dashes: a fair seat's share)")
    for ax, level in zip(axes, data["levels"], strict=True):
        rows = _rows_of(data, level)
        most = max(len(r["seat_win_rate"]) for r in rows)
        height = 0.8 / most
        for seat in range(most):
            ys, xs, lows, highs = [], [], [], []
            for y, row in enumerate(rows):
                if seat < len(row["seat_win_rate"]):
                    rate = row["seat_win_rate"][seat]
                    low, high = row["seat_win_rate_ci95"][seat]
                    ys.append(y - 0.4 + height * (seat + 0.5))
                    xs.append(rate)
                    lows.append(rate - low)
                    highs.append(high - rate)
            ax.barh(
                ys,
                xs,
                height * 0.9,
                xerr=[lows, highs],
                capsize=2,
                error_kw={"ecolor": "#444444", "elinewidth": 0.8},
                color=SEAT_COLOURS[seat % len(SEAT_COLOURS)],
                label=f"seat {seat + 1}",
            )
        for y, row in enumerate(rows):
            fair = fair_share(row)
            ax.vlines(fair, y - 0.48, y + 0.48, colors=FAIR_COLOUR, linestyles="dashed", lw=1.6)
        ax.set_xlim(0, 1)
        ax.xaxis.set_major_formatter(_percent())
        ax.set_xlabel("share of games won")
        ax.grid(axis="x", alpha=0.3)
    _label_rows(axes[0], names)
    axes[-1].legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.0, 1.0))
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
    fig, axes = _panels(data, "How games ended (warm colours: not the rules' own end)")
    for ax, level in zip(axes, data["levels"], strict=True):
        rows = _rows_of(data, level)
        left = [0.0] * len(rows)
        for kind in kinds:
            share = [r["end_reasons"].get(kind, 0) / r["games"] for r in rows]
            ax.barh(range(len(rows)), share, 0.6, left=left, label=kind, color=kind_colour(kind))
            left = [a + b for a, b in zip(left, share, strict=True)]
        ax.set_xlim(0, 1)
        ax.xaxis.set_major_formatter(_percent())
        ax.set_xlabel("share of games")
    _label_rows(axes[0], names)
    axes[-1].legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    return fig


def means(data: dict[str, Any], key: str, title: str, unit: str) -> Any:
    """Per level: a bar per configuration of a per-game mean (missing: not drawn)."""
    names = _configs(data)
    fig, axes = _panels(data, title)
    for ax, level, colour in zip(axes, data["levels"], LEVEL_COLOURS, strict=False):
        rows = _rows_of(data, level)
        values = [r.get(key) for r in rows]
        ys = [y for y, v in enumerate(values) if v is not None]
        bars = ax.barh(ys, [v for v in values if v is not None], 0.6, color=colour)
        ax.bar_label(bars, fmt="%.3g", fontsize=7, padding=2)
        ax.set_xlabel(unit)
        ax.grid(axis="x", alpha=0.3)
    _label_rows(axes[0], names)
    return fig


def score_margin(data: dict[str, Any]) -> Any:
    """Per level: the mean margin of the winner's points over the next, with its interval."""
    names = _configs(data)
    fig, axes = _panels(data, "Score margin: first minus second in points, 95% intervals")
    for ax, level, colour in zip(axes, data["levels"], LEVEL_COLOURS, strict=False):
        rows = _rows_of(data, level)
        for y, row in enumerate(rows):
            margin = row["points"]["score_margin"]
            low, high = margin["ci95"]
            ax.barh(
                y, margin["mean"], 0.6, xerr=[[margin["mean"] - low], [high - margin["mean"]]],
                capsize=3, color=colour,
            )  # fmt: skip
        ax.set_xlabel("points")
        ax.grid(axis="x", alpha=0.3)
    _label_rows(axes[0], names)
    return fig


def skill_gap(data: dict[str, Any]) -> Any:
    """The higher level's score in one seat against the lower, with its interval."""
    rows = data["skill"]
    names = [f"{label(r, data['swept'])}: {r['higher']} vs {r['lower']}" for r in rows]
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
    ax.set_xlabel("higher level's score (a draw counts 1/N); red dashes: 1/N")
    ax.set_title("Skill: the higher level in one seat, the lower in the others", fontsize=11)
    return fig


def figures(data: dict[str, Any]) -> dict[str, Any]:
    """Every plot of the report, by file-friendly name (one per measure)."""
    first = data["configurations"][0]
    made = {
        "seat_win_rates": seat_win_rates(data),
        "endings": endings(data),
        "length_turns": distributions(
            data, "length_turns", "Length of a game in turns", _turns_unit(data)
        ),
        "length_actions": distributions(
            data, "length_actions", "Length of a game in actions", "actions"
        ),
        "branching": distributions(
            data, "branching_spread", "Legal actions a decision (branching)", "legal actions"
        ),
    }
    if first.get("lead_changes") is not None:
        made["lead_changes"] = means(data, "lead_changes", "Lead changes a game", "changes")
        made["decisiveness"] = means(
            data, "decisiveness", "Decisiveness (0: decided at the end)", "share of the game"
        )
        made["drama"] = means(data, "drama", "Drama: how far the winner lagged", "evaluation")
        made["stability"] = means(data, "stability", "Stability: evaluation variance", "variance")
        made["clarity"] = means(data, "clarity", "Clarity: spread of a choice's results", "var.")
    if all(r.get("points") for r in data["configurations"]):
        made["score_margin"] = score_margin(data)
    if data["skill"]:
        made["skill"] = skill_gap(data)
    return made


def _turns_unit(data: dict[str, Any]) -> str:
    seconds = data.get("seconds_per_turn", 20)
    return f"turns (1 turn ≈ {seconds:g} s of play: an estimate)"


def png(fig: Any) -> bytes:
    """A figure as PNG bytes."""
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png")
    return buffer.getvalue()


CAPTIONS = {
    "seat_win_rates": "A bar whose interval does not reach the red dashes is a seat "
    "advantage (AdvantageP1, Balance); an interval across them means no evidence, not "
    "fairness. A shared win counts 1/k for each of k winners.",
    "endings": "The rules' own ends against cuts (turn limit, block, stall): a cut is a game "
    "the rules did not decide. Each kind keeps its colour in every game's report.",
    "length_turns": "Box: the middle half of games; whiskers: shortest and longest; line: "
    "median; triangle: mean. A turn ends when the player to act changes.",
    "length_actions": "The same in actions (every decision a player takes).",
    "branching": "The number of legal actions at a decision, over all decisions (Ludii's "
    "BranchingFactor): how wide the choices are.",
    "lead_changes": "How often the leader by the game's evaluation changed (LeadChange).",
    "decisiveness": "The share of a game after the winner passed everyone's best evaluation "
    "(DecisivenessMoves): near 0 a close game, near 1 decided early.",
    "drama": "How far below the leader the eventual winner was, on average (Drama): 0 when "
    "the winner always led; higher, more comebacks.",
    "stability": "The variance of each player's evaluation over a game (Stability): low, "
    "steady games; high, swings.",
    "clarity": "The spread of the mover's evaluation over its choices (ClarityVariance): "
    "near 0 every choice looks alike; higher, some choices are clearly better.",
    "score_margin": "The winner's points minus the next player's (ScoreDifference).",
    "skill": "Jaffe's restricted play: the higher level's score in one seat; green bars are "
    "significantly away from 1/N (the game rewards skill), grey are not.",
}
TITLES = {
    "seat_win_rates": "Seat win rates",
    "endings": "How games ended",
    "length_turns": "Length in turns",
    "length_actions": "Length in actions",
    "branching": "Branching distribution",
    "lead_changes": "Lead changes",
    "decisiveness": "Decisiveness",
    "drama": "Drama",
    "stability": "Stability",
    "clarity": "Clarity (uncertainty of the choices)",
    "score_margin": "Score margin",
    "skill": "Skill",
}
STYLE = (
    "body{font-family:sans-serif;max-width:1200px;margin:auto;padding:0 1em;color:#222}"
    "img{max-width:100%}table{border-collapse:collapse;font-size:13px;margin:1em 0}"
    ".scroll{overflow-x:auto;max-width:100%}tr.ns td{color:#888}tr.sig td{font-weight:bold}"
    "th,td{border-bottom:1px solid #ddd;padding:3px 8px;text-align:right;vertical-align:top}"
    "th{background:#f4f4f4}td.l,th.l{text-align:left}td{white-space:nowrap}"
    "td.w{white-space:normal;min-width:9em}.warn{color:#8a4b00}"
    ".ci{color:#777;font-size:11px}.sig{font-weight:bold}a.dl{font-size:15px}"
)


def _pct(value: float) -> str:
    return f"{value * 100:.0f}%"


def _e(value: Any) -> str:
    return html.escape(str(value))


def summary_table(data: dict[str, Any]) -> str:
    """The analysis at a glance: one row per configuration and level."""
    players = max(r["players"] for r in data["configurations"])
    skill: dict[str, list[str]] = {}
    for row in data["skill"]:
        low, high = row["higher_score_ci95"]
        mark = "" if row["significant"] else " (n.s.)"
        skill.setdefault(label(row, data["swept"]), []).append(
            f"{row['higher']} vs {row['lower']}: {_pct(row['higher_score'])} "
            f"<span class=ci>[{_pct(low)}-{_pct(high)}] fair {_pct(row['baseline'])}</span>{mark}"
        )
    scored = any(r.get("points") for r in data["configurations"])
    head = ["configuration", "level"] + [f"seat {s}" for s in range(1, players + 1)]
    head += ["fair", "draws", "how games ended", "turns (median)", "minutes (est.)"]
    head += ["points a seat", "margin"] if scored else []
    head += ["skill"] if data["skill"] else []
    out = ["<table><tr>" + "".join(f"<th class=l>{_e(h)}</th>" for h in head[:2])]
    out[0] += "".join(f"<th>{_e(h)}</th>" for h in head[2:]) + "</tr>"
    shown: set[str] = set()
    for row in data["configurations"]:
        name = label(row, data["swept"])
        cells = [
            f"<td class=l>{_e(name)}</td>",
            f"<td class=l>{_e(level_short(row['level'], data))}</td>",
        ]
        edges = {
            s
            for s, (lo, hi) in enumerate(row["seat_win_rate_ci95"], 1)
            if lo > fair_share(row) or hi < fair_share(row)
        }
        for seat in range(1, players + 1):
            if seat > row["players"]:
                cells.append("<td></td>")
                continue
            low, high = row["seat_win_rate_ci95"][seat - 1]
            style = " class=sig" if seat in edges else ""
            cells.append(
                f"<td{style}>{_pct(row['seat_win_rate'][seat - 1])} "
                f"<span class=ci>[{_pct(low)}-{_pct(high)}]</span></td>"
            )
        ends = ", ".join(
            f"{_e(k)} {_pct(v / row['games'])}"
            for k, v in sorted(row["end_reasons"].items(), key=lambda kv: -kv[1])
        )
        turns = row["length_turns"]
        cells += [
            f"<td>{_pct(fair_share(row))}</td>",
            f"<td>{_pct(row['draw_rate'])}</td>",
            f"<td class='l w'>{ends}</td>",
            f"<td>{turns['mean']:.0f} ({turns['median']:g})</td>",
            f"<td>{row['length_minutes']['mean']:.0f}</td>",
        ]
        if scored:
            points = row.get("points")
            if points:
                margin = points["score_margin"]
                seats = " / ".join(f"{p:.1f}" for p in points["seat_points"])
                cells += [f"<td>{seats}</td>", f"<td>{margin['mean']:.1f}</td>"]
            else:
                cells += ["<td></td>", "<td></td>"]
        if data["skill"]:
            text = "<br>".join(skill.get(name, [])) if name not in shown else ""
            shown.add(name)
            cells.append(f"<td class='l w'>{text}</td>")
        out.append("<tr>" + "".join(cells) + "</tr>")
    out.append("</table>")
    return "\n".join(out)


def stopped(data: dict[str, Any]) -> str:
    """A stopped run's line: what it finished, of what."""
    from tabletop.analysis.text import STOPPED

    return STOPPED.format(finished=data["finished"], planned=data["planned"])


def scrolling(table: str) -> str:
    """A table that scrolls inside itself when the screen is narrower (a phone)."""
    return f"<div class=scroll>{table}</div>"


def _download(data: dict[str, Any], name: str) -> str:
    blob = base64.b64encode(json.dumps(data, indent=1, ensure_ascii=False).encode()).decode()
    return (
        f"<p><a class=dl download='{_e(name)}' href='data:application/json;base64,{blob}'>"
        f"Download every number (JSON, {_e(name)})</a>; the per-game rows come with "
        "<code>--export FILE.csv</code>.</p>"
    )


def _images(made: dict[str, Any]) -> list[str]:
    parts = []
    for name, fig in made.items():
        encoded = base64.b64encode(png(fig)).decode("ascii")
        parts.append(f"<h2>{_e(TITLES.get(name, name))}</h2><p>{_e(CAPTIONS.get(name, ''))}</p>")
        parts.append(f"<img alt='{_e(name)}' src='data:image/png;base64,{encoded}'>")
    return parts


def _write(parts: list[str], path: Path) -> None:
    try:
        path.write_text("\n".join(parts), encoding="utf-8")
    except OSError as exc:
        raise TabletopError(
            _(
                "cannot write the report {path}: {reason}",
                path=str(path),
                reason=exc.strerror or str(exc),
            )
        ) from None


def _page(title: str) -> list[str]:
    return [
        "<!doctype html><html><head><meta charset='utf-8'>",
        f"<title>{_e(title)}</title><style>{STYLE}</style></head><body>",
        f"<h1>{_e(title)}</h1>",
    ]


def write_report(data: dict[str, Any], path: Path) -> None:
    """Write the analysis page: summary, warnings, a plot per measure, the download."""
    parts = _page(f"{data['game']}: balance report")
    levels = "; ".join(level_title(level, data) for level in data["levels"])
    parts.append(
        f"<p>{data['games']} games per configuration and level, seed {data['seed']}; "
        f"swept: {_e(', '.join(data['swept']) or 'nothing')}. Played by: {_e(levels)}. "
        "Every number speaks for these levels only. Minutes are an estimate at "
        f"{data.get('seconds_per_turn', 20):g} s a turn. The measures are explained in "
        "docs/analysis.md.</p>"
    )
    if data.get("partial"):
        parts.append(f"<p class=warn>{_e(stopped(data))}</p>")
    parts.append("<h2>Summary</h2>" + scrolling(summary_table(data)))
    notes = seat_level_changes(data) + completion_level_changes(data) + seat_warnings(data)
    if notes:
        parts.append("<ul>" + "".join(f"<li class=warn>{_e(n)}</li>" for n in notes) + "</ul>")
    parts.append(_download(data, f"{data['game']}-analysis.json"))
    parts += _images(figures(data))
    parts.append("</body></html>")
    _write(parts, path)

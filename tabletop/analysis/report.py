"""``--report FILE.html``: one self-contained page of plots (PNG embedded as base64).

matplotlib (extra ``analysis``) draws them: the established plotting library, static
PNGs need no JavaScript or network to open, and its object API (``Figure``) keeps no
global state. Every plot is drawn from the ``--json`` object alone.
"""

from __future__ import annotations

import base64
import html
import io
from pathlib import Path
from typing import Any

from tabletop.analysis.run import label
from tabletop.core.errors import TabletopError


class MatplotlibMissing(TabletopError):
    """``--report`` without matplotlib installed."""

    exit_code = 2


def check_matplotlib() -> None:
    """MatplotlibMissing (how to install it) unless matplotlib can be imported."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise MatplotlibMissing(
            "--report needs matplotlib, which is not installed: pip install -e '.[analysis]'"
        ) from None


def _by_level(rows: list[dict[str, Any]], levels: list[str]) -> list[list[dict[str, Any]]]:
    return [[r for r in rows if r["level"] == level] for level in levels]


def _figure(width: float, height: float) -> Any:
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height), dpi=100, layout="constrained")


def seat_win_rates(data: dict[str, Any]) -> Any:
    """Per level: each seat's win rate with its 95% interval, per configuration."""
    levels = data["levels"]
    rows = data["configurations"]
    names = [label(r, data["swept"]) for r in _by_level(rows, levels)[0]]
    fig = _figure(max(6.0, 1.1 * len(names) + 2), 3.2 * len(levels))
    axes = fig.subplots(len(levels), 1, squeeze=False)[:, 0]
    for ax, level, group in zip(axes, levels, _by_level(rows, levels), strict=True):
        most = max(len(r["seat_win_rate"]) for r in group)
        width = 0.8 / most
        for seat in range(most):
            xs, ys, lows, highs = [], [], [], []
            for x, row in enumerate(group):
                if seat < len(row["seat_win_rate"]):
                    rate = row["seat_win_rate"][seat]
                    low, high = row["seat_win_rate_ci95"][seat]
                    xs.append(x - 0.4 + width * (seat + 0.5))
                    ys.append(rate)
                    lows.append(rate - low)
                    highs.append(high - rate)
            ax.bar(xs, ys, width * 0.9, yerr=[lows, highs], capsize=3, label=f"seat {seat + 1}")
        for x, row in enumerate(group):
            fair = (1 - row["draw_rate"]) / row["players"]
            ax.hlines(fair, x - 0.45, x + 0.45, colors="black", linestyles="dashed", lw=1)
        ax.set_xticks(range(len(names)), names, rotation=20, ha="right", fontsize=8)
        ax.set_ylabel("games won")
        ax.set_ylim(0, 1)
        ax.set_title(f"level {level}: seat win rates, 95% CI (dashed: a fair seat's share)")
        ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    return fig


def lengths(data: dict[str, Any], measure: str = "length_actions") -> Any:
    """Per level: the distribution of game length, configurations side by side."""
    levels = data["levels"]
    groups = _by_level(data["configurations"], levels)
    names = [label(r, data["swept"]) for r in groups[0]]
    fig = _figure(max(6.0, 1.1 * len(names) + 2), 3.0 * len(levels))
    axes = fig.subplots(len(levels), 1, squeeze=False)[:, 0]
    for ax, level, group in zip(axes, levels, groups, strict=True):
        samples = [
            [int(k) for k, count in r[measure]["distribution"].items() for _ in range(count)]
            for r in group
        ]
        ax.violinplot(samples, positions=range(len(samples)), showmedians=True)
        ax.set_xticks(range(len(names)), names, rotation=20, ha="right", fontsize=8)
        unit = "actions" if measure == "length_actions" else "turns"
        ax.set_ylabel(f"game length ({unit})")
        ax.set_title(f"level {level}: length of a game in {unit} (bar: median)")
    return fig


def endings(data: dict[str, Any]) -> Any:
    """Per level: how the games ended (share of each end kind), draws hatched."""
    levels = data["levels"]
    groups = _by_level(data["configurations"], levels)
    names = [label(r, data["swept"]) for r in groups[0]]
    kinds = sorted({k for r in data["configurations"] for k in r["end_reasons"]})
    fig = _figure(max(6.0, 1.1 * len(names) + 2), 3.0 * len(levels))
    axes = fig.subplots(len(levels), 1, squeeze=False)[:, 0]
    for ax, level, group in zip(axes, levels, groups, strict=True):
        bottom = [0.0] * len(group)
        for kind in kinds:
            share = [r["end_reasons"].get(kind, 0) / r["games"] for r in group]
            ax.bar(range(len(group)), share, 0.6, bottom=bottom, label=kind)
            bottom = [b + s for b, s in zip(bottom, share, strict=True)]
        ax.plot(range(len(group)), [r["draw_rate"] for r in group], "kD", label="draw rate")
        ax.set_xticks(range(len(names)), names, rotation=20, ha="right", fontsize=8)
        ax.set_ylim(0, 1.05)
        ax.set_ylabel("share of games")
        ax.set_title(f"level {level}: how games ended (◆ draws)")
        ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    return fig


def skill_gap(data: dict[str, Any]) -> Any:
    """The higher level's win rate in one seat against the lower, with its interval."""
    rows = data["skill"]
    names = [f"{label(r, data['swept'])}\n{r['higher']} vs {r['lower']}" for r in rows]
    fig = _figure(max(6.0, 1.0 * len(rows) + 2), 3.4)
    ax = fig.subplots()
    rates = [r["higher_score"] for r in rows]
    errors = [
        [r["higher_score"] - r["higher_score_ci95"][0] for r in rows],
        [r["higher_score_ci95"][1] - r["higher_score"] for r in rows],
    ]
    ax.bar(range(len(rows)), rates, 0.6, yerr=errors, capsize=3, color="tab:green")
    for x, row in enumerate(rows):
        ax.hlines(row["baseline"], x - 0.4, x + 0.4, colors="black", linestyles="dashed", lw=1)
    ax.set_xticks(range(len(rows)), names, fontsize=7)
    ax.set_ylim(0, 1)
    ax.set_ylabel("higher level's score (draw: 1/N)")
    ax.set_title("skill: the higher level in one seat, the lower in the others")
    ax.set_xlabel("dashed: 1/N, what one seat wins when skill does not matter", fontsize=8)
    return fig


def figures(data: dict[str, Any]) -> dict[str, Any]:
    """Every plot of the report, by file-friendly name."""
    made = {
        "seat_win_rates": seat_win_rates(data),
        "length_actions": lengths(data, "length_actions"),
        "length_turns": lengths(data, "length_turns"),
        "endings": endings(data),
    }
    if data["skill"]:
        made["skill"] = skill_gap(data)
    return made


def png(fig: Any) -> bytes:
    """A figure as PNG bytes."""
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png")
    return buffer.getvalue()


CAPTIONS = {
    "seat_win_rates": "Seat win rates. A bar far from the dashed line, with an interval "
    "that does not cross it, is a seat advantage (AdvantageP1 / Balance).",
    "length_actions": "Game length in actions: the width is how often a length occurs.",
    "length_turns": "Game length in turns (a turn ends when the player to act changes).",
    "endings": "How games ended: the rules' own ends vs cuts (turn limit, block, stall).",
    "skill": "Skill (Jaffe's restricted play): the higher level's score in one seat (a draw "
    "counting 1/N of a win); far above 1/N, the game rewards skill.",
}


def write_report(data: dict[str, Any], path: Path) -> None:
    """Write the page: a title, the plots with captions, and the numbers."""
    import json

    parts = [
        "<!doctype html><html><head><meta charset='utf-8'>",
        f"<title>{html.escape(data['game'])} balance report</title>",
        "<style>body{font-family:sans-serif;max-width:1100px;margin:auto}"
        "img{max-width:100%}pre{font-size:11px;background:#f4f4f4;overflow:auto}</style>",
        "</head><body>",
        f"<h1>{html.escape(data['game'])}: balance report</h1>",
        f"<p>{data['games']} games per configuration and level, seed {data['seed']}, "
        f"levels {html.escape(', '.join(data['levels']))}; swept: "
        f"{html.escape(', '.join(data['swept']) or 'nothing')}. "
        "Measures are explained in docs/analysis.md.</p>",
    ]
    for name, fig in figures(data).items():
        encoded = base64.b64encode(png(fig)).decode("ascii")
        parts.append(f"<h2>{html.escape(name.replace('_', ' '))}</h2>")
        parts.append(f"<p>{html.escape(CAPTIONS[name])}</p>")
        parts.append(f"<img alt='{name}' src='data:image/png;base64,{encoded}'>")
    numbers = json.dumps(data, indent=1, ensure_ascii=False)
    parts.append(f"<h2>numbers</h2><pre>{html.escape(numbers)}</pre></body></html>")
    try:
        path.write_text("\n".join(parts), encoding="utf-8")
    except OSError as exc:
        raise TabletopError(f"cannot write the report {path}: {exc.strerror or exc}") from None

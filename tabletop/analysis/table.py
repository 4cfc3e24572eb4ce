"""``tabletop analyse`` in the terminal: one rich table of self-play, one of skill."""

from __future__ import annotations

from typing import Any

from tabletop.analysis.run import label


def _pct(value: float) -> str:
    return f"{value * 100:.0f}%"


def _seats(row: dict[str, Any]) -> str:
    """Seat win rates in percent, seat 1 first, and the widest half 95% interval."""
    rates = " ".join(f"{rate * 100:.0f}" for rate in row["seat_win_rate"])
    half = max((high - low) / 2 for low, high in row["seat_win_rate_ci95"])
    return f"{rates} ±{half * 100:.0f}"


def _maybe(value: float | None, digits: int = 2) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


LEGEND = (
    "seats won %: each seat's win rate, seat 1 first, ± the widest half 95% interval; "
    "bal: balance (1 = all seats equal); done: ended by the rules (no cut, block or stall); "
    "acts: actions mean±sd; turns: mean; bf: legal actions per decision"
)
EVALUATED = "; lead: lead changes a game; dec: decisiveness (Ludii)"


def print_analysis(data: dict[str, Any]) -> None:
    """The analysis as rich tables (``--json`` has every number)."""
    from rich import box
    from rich.console import Console
    from rich.table import Table

    keys = data["swept"]
    console = Console()
    console.print(f"{data['game']}: {data['games']} games a row, seed {data['seed']}")
    evaluated = any(row["lead_changes"] is not None for row in data["configurations"])
    columns = ["lvl", "seats won %", "bal", "draw", "done", "acts", "turns", "bf"] + (
        ["lead", "dec"] if evaluated else []
    )
    rows = data["configurations"]
    for start in range(0, len(rows), len(data["levels"])):
        group = rows[start : start + len(data["levels"])]
        table = Table(
            title=label(group[0], keys), box=box.SIMPLE_HEAD, title_justify="left", pad_edge=False
        )
        for column in columns:
            table.add_column(column, justify="right", no_wrap=True)
        for row in group:
            actions, turns = row["length_actions"], row["length_turns"]
            evaluation = [_maybe(row["lead_changes"], 1), _maybe(row["decisiveness"])]
            table.add_row(
                row["level"],
                _seats(row),
                f"{row['balance']:.2f}",
                _pct(row["draw_rate"]),
                _pct(row["completion_rate"]),
                f"{actions['mean']:.0f}±{actions['sd']:.0f}",
                f"{turns['mean']:.0f}",
                f"{row['branching']:.1f}",
                *(evaluation if evaluated else []),
            )
        console.print(table)
    console.print(LEGEND + (EVALUATED if evaluated else ""))
    if data["skill"]:
        skill = Table(
            title="skill: higher level in one seat, lower in the others", box=box.SIMPLE_HEAD
        )
        for column in (
            "configuration",
            "levels",
            "won",
            "score, 95% CI",
            "fair",
            "gap",
            "draws",
        ):
            skill.add_column(column, justify="left" if column == "configuration" else "right")
        for row in data["skill"]:
            low, high = row["higher_score_ci95"]
            skill.add_row(
                label(row, keys),
                f"{row['higher']} vs {row['lower']}",
                _pct(row["higher_win_rate"]),
                f"{_pct(row['higher_score'])} {_pct(low)}-{_pct(high)}",
                _pct(row["baseline"]),
                f"{row['gap'] * 100:+.0f} pts" + ("" if row["significant"] else " (n.s.)"),
                _pct(row["draw_rate"]),
            )
        console.print(skill)
    console.print(
        f"{data['seconds']} s, {data['games_per_second']} games/s on {data['jobs']} "
        f"job(s), backend {data['backend']}"
    )

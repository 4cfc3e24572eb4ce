"""``tabletop analyse``: check every word, play with a progress bar, print rich tables (the
analysis itself is :mod:`tabletop.analysis`, imported only when the command runs)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any

import typer

from tabletop.cli.options import AddressOpt, BackendOpt, GameArg
from tabletop.core.errors import UsageError


def analyse(
    game: GameArg,
    players: Annotated[
        str | None, typer.Option("--players", "-p", help="Player counts to sweep, e.g. 2,3,4.")
    ] = None,
    option: Annotated[
        list[str] | None,
        typer.Option("--option", "-o", help="Option values to sweep, KEY=A,B (repeatable)."),
    ] = None,
    agents: Annotated[
        str, typer.Option("--agents", help="Self-play levels, e.g. 1,2 (pairs: skill).")
    ] = "1,2",
    games: Annotated[int, typer.Option("--games", help="Games per configuration and level.")] = 100,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the whole analysis.")] = 0,
    jobs: Annotated[int, typer.Option("--jobs", help="Processes or Ray tasks at once.")] = 1,
    backend: BackendOpt = "local",
    address: AddressOpt = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    report: Annotated[
        Path | None, typer.Option("--report", help="Write an HTML page of plots.")
    ] = None,
) -> None:
    """Balance of a game by self-play: seat advantage, draws, length, skill; a sweep."""
    analyse_command(
        game, players, option or [], agents, games, seed, jobs, backend, address, as_json, report
    )


def analyse_command(
    game: str,
    players: str | None,
    options: Sequence[str],
    agents: str,
    games: int,
    seed: int,
    jobs: int,
    backend: str,
    address: str | None,
    as_json: bool,
    report: Path | None,
) -> None:
    """Check everything first (nothing is played on bad input), then play and print."""
    from tabletop.analysis.backends import check_backend
    from tabletop.analysis.run import analyse, total_games
    from tabletop.analysis.sweep import make_plan

    plan = make_plan(game, players, options, agents, games, seed)
    check_backend(backend, jobs, address)  # Ray installed, the cluster reachable
    if report is not None:
        from tabletop.analysis.report import check_matplotlib

        check_matplotlib()
        if not report.parent.is_dir():
            raise UsageError(f"--report {report}: no such folder {report.parent}")
    if as_json:
        data = analyse(plan, jobs, backend, address)
    else:
        from rich.progress import Progress

        with Progress(transient=True) as bar:
            task = bar.add_task(f"{plan.game}: playing", total=total_games(plan))
            data = analyse(plan, jobs, backend, address, lambda _: bar.advance(task))
    if report is not None:
        from tabletop.analysis.report import write_report

        write_report(data, report)
    if as_json:
        print(json.dumps(data, ensure_ascii=False))
    else:
        print_analysis(data)
        if report is not None:
            print(f"report written to {report}")


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

    from tabletop.analysis.run import label

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

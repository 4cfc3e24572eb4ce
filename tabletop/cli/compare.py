"""``tabletop compare``: a rule change A/B-tested by paired self-play (the statistics are
:mod:`tabletop.analysis.compare`, imported only when the command runs)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any

import typer

from tabletop.cli.analyse import check_outputs, output_console, progress
from tabletop.cli.options import (
    AddressOpt,
    AgentsOpt,
    BackendOpt,
    ExportOpt,
    GameArg,
    JobsOpt,
    OneJsonOpt,
    PlayersOpt,
    ReportOpt,
    RunSeedOpt,
    SecondsPerTurnOpt,
)
from tabletop.core import selfplay

TABLE_TITLE = "{level}"
COLUMNS = ("measure", "baseline", "variant", "difference [95% CI]", "p", "test")


def compare(
    game: GameArg,
    change: Annotated[
        list[str] | None,
        typer.Option("--change", help="The rule change KEY=VALUE (repeatable; at least one)."),
    ] = None,
    players: PlayersOpt = None,
    option: Annotated[
        list[str] | None,
        typer.Option("--option", "-o", help="Baseline option KEY=VALUE (repeatable)."),
    ] = None,
    agents: AgentsOpt = selfplay.COMPARE_AGENTS,
    games: Annotated[
        int, typer.Option("--games", help="Paired games per level.")
    ] = selfplay.COMPARE_GAMES,
    seed: RunSeedOpt = selfplay.SEED,
    jobs: JobsOpt = selfplay.JOBS,
    backend: BackendOpt = selfplay.BACKEND,
    address: AddressOpt = None,
    as_json: OneJsonOpt = False,
    report: ReportOpt = None,
    export: ExportOpt = None,
    seconds_per_turn: SecondsPerTurnOpt = selfplay.SECONDS_PER_TURN,
) -> None:
    """A/B test of a rule change: the baseline against it on the same seeds and seats."""
    compare_command(
        game,
        players,
        option or [],
        change or [],
        agents,
        games,
        seed,
        jobs,
        backend,
        address,
        as_json,
        report,
        export,
        seconds_per_turn,
    )


def compare_command(
    game: str,
    players: int | None,
    options: Sequence[str],
    changes: Sequence[str],
    agents: str,
    games: int,
    seed: int,
    jobs: int,
    backend: str,
    address: str | None,
    as_json: bool,
    report: Path | None,
    export: Path | None,
    seconds_per_turn: float,
) -> None:
    """Check everything first (nothing is played on bad input), then play and print."""
    from tabletop.analysis import text
    from tabletop.analysis.backends import check_backend
    from tabletop.analysis.compare import make_comparison, paired_measures, result_json
    from tabletop.analysis.run import play, total_games
    from tabletop.analysis.verdict import verdicts

    comparison = make_comparison(game, players, options, changes, agents, games, seed)
    check_backend(backend, jobs, address)
    check_outputs(report, export, seconds_per_turn)
    plan = comparison.plan
    with progress(f"{plan.game} compare", total_games(plan)) as advance:
        played = play(plan, jobs, backend, address, advance)
    found = paired_measures(played)
    data = result_json(comparison, found)
    lines = verdicts(comparison, found)
    notes: list[str] = []
    if report is not None:
        from tabletop.analysis.report import write_compare_report
        from tabletop.analysis.verdict import names_in_words

        write_compare_report(data, lines, names_in_words(found), report)
        notes.append(text.REPORT_WRITTEN.format(path=report))
    if export is not None:
        from tabletop.analysis.export import game_rows, write_rows

        rows = game_rows(played, ("baseline", "variant"), seconds_per_turn)
        write_rows(rows, export)
        notes.append(text.EXPORT_WRITTEN.format(rows=len(rows), path=export))
    if as_json:
        print(json.dumps(data, ensure_ascii=False))
        return
    print_comparison(comparison, found, lines, seed)
    for note in notes:
        print(note)


def print_comparison(
    comparison: Any, found: Sequence[Any], lines: Sequence[str], seed: int
) -> None:
    """One table per level (and pair of levels), then the verdicts and warnings."""
    from rich import box
    from rich.table import Table

    from tabletop.analysis import text
    from tabletop.analysis.run import agent_names
    from tabletop.analysis.verdict import amount, interval, level_name, words

    plan = comparison.plan
    names = agent_names(plan.game, plan.levels)
    console = output_console()
    changes = ", ".join(f"{k}={v}" for k, v in comparison.changes)
    baseline = f"{comparison.baseline.players} players, " + (
        ", ".join(f"{k}={v}" for k, v in comparison.baseline.values) or "defaults"
    )
    console.print(
        text.COMPARE_TITLE.format(
            game=plan.game, changes=changes, baseline=baseline, games=plan.games, seed=seed
        )
    )
    levels = list(dict.fromkeys(m.level for m in found))
    for level in levels:
        table = Table(
            title=TABLE_TITLE.format(level=level_name(level, names)),
            box=box.SIMPLE_HEAD,
            title_justify="left",
            pad_edge=False,
        )
        for column in COLUMNS:
            table.add_column(column, justify="left" if column in ("measure", "test") else "right")
        for m in (m for m in found if m.level == level):
            mark = " *" if m.significant else ""
            table.add_row(
                words(m),
                amount(m, m.result.a, sign=False),
                amount(m, m.result.b, sign=False),
                interval(m) + mark,
                f"{m.result.p:.3g}",
                m.result.test,
            )
        console.print(table)
    console.print(LEGEND)
    for line in lines:
        console.print(line)


LEGEND = (
    "difference: variant − baseline (pts: percentage points), 95% paired t interval; "
    "*: significant (p < 0.05 and the interval excludes 0); p: exact McNemar for "
    "won/drawn/ended-so measures, Wilcoxon signed-rank for the others (docs/analysis.md)"
)

"""``tabletop compare``: a rule change A/B-tested by paired self-play (the statistics are
:mod:`tabletop.analysis.compare`, imported only when the command runs)."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any

import typer

from tabletop.cli import parsers
from tabletop.cli.analyse import (
    check_outputs,
    marked,
    output_console,
    play_stoppable,
    stopped_line,
)
from tabletop.cli.language import speak
from tabletop.cli.options import (
    AddressOpt,
    AgentsOpt,
    BackendOpt,
    ExportOpt,
    GameArg,
    GamesOpt,
    JobsOpt,
    LangOpt,
    OneJsonOpt,
    PlayersOpt,
    ReportOpt,
    ResumeOpt,
    RunSeedOpt,
    SecondsPerTurnOpt,
)
from tabletop.core import selfplay
from tabletop.core.i18n.text import translate


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
    games: GamesOpt = selfplay.COMPARE_GAMES,
    seed: RunSeedOpt = selfplay.SEED,
    jobs: JobsOpt = selfplay.JOBS,
    backend: BackendOpt = selfplay.BACKEND,
    address: AddressOpt = None,
    as_json: OneJsonOpt = False,
    report: ReportOpt = None,
    export: ExportOpt = None,
    seconds_per_turn: SecondsPerTurnOpt = selfplay.SECONDS_PER_TURN,
    replicate: Annotated[
        int,
        typer.Option(
            "--replicate",
            help=f"Rerun on K fresh seeds (seed+1..seed+K), 0..{REPLICATE_MAX}: which "
            "findings held.",
            parser=parsers.whole(0, REPLICATE_MAX),
        ),
    ] = 0,
    resume: ResumeOpt = None,
    lang: LangOpt = None,
) -> None:
    """A/B test of a rule change: the baseline against it on the same seeds and seats."""
    speak(lang)
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
        replicate,
        resume,
    )


REPLICATE_MAX = 20


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
    replicate: int = 0,
    resume: Path | None = None,
) -> None:
    """Check everything first (nothing is played on bad input), then play and print. A
    stopped run prints and writes what it finished, marked partial, and keeps its games
    for ``--resume``."""
    from dataclasses import replace

    from tabletop.analysis import text
    from tabletop.analysis.backends import check_backend
    from tabletop.analysis.compare import make_comparison, paired_measures, result_json
    from tabletop.analysis.run import partial
    from tabletop.analysis.verdict import replication, verdicts

    comparison = make_comparison(game, players, options, changes, agents, games, seed)
    check_backend(backend, jobs, address)
    check_outputs(report, export, seconds_per_turn)
    plan = comparison.plan
    plans = [plan] + [replace(plan, seed=seed + r) for r in range(1, replicate + 1)]
    runs, stop, kept = play_stoppable("compare", f"{plan.game} compare", plans, jobs, backend,
                                      address, resume)  # fmt: skip
    found = paired_measures(runs[0])
    data = result_json(comparison, found)
    data.update(partial(*runs))
    lines = verdicts(comparison, found) if found else []
    if replicate:
        again = [paired_measures(played) for played in runs[1:]]
        said, data["replication"] = replication(found, again, [p.seed for p in plans[1:]])
        lines += said
    if stop is not None:
        lines.insert(0, stopped_line(data, kept))
    notes: list[str] = []
    if report is not None:
        from tabletop.analysis.compare_report import write_compare_report

        write_compare_report(data, lines, found, report)
        notes.append(text.REPORT_WRITTEN.format(path=report))
    if export is not None:
        from tabletop.analysis.export import game_rows, write_measures, write_rows

        rows = game_rows(runs[0], ("baseline", "variant"), seconds_per_turn)
        write_rows(marked(rows, stop is not None), export)
        notes.append(text.EXPORT_WRITTEN.format(rows=len(rows), path=export))
        notes.append(text.EXPORT_WRITTEN_MEASURES.format(path=write_measures(found, export)))
    if as_json:
        print(json.dumps(data, ensure_ascii=False))
        if stop is not None:
            print(translate(lines[0]), file=sys.stderr)
    else:
        print_comparison(comparison, found, lines, seed)
        for note in notes:
            print(translate(note))
    if stop is not None:
        raise stop


def print_comparison(
    comparison: Any, found: Sequence[Any], lines: Sequence[str], seed: int
) -> None:
    """One table per level (and pair of levels), then the verdicts and warnings."""
    from rich import box
    from rich.markup import escape
    from rich.table import Table

    from tabletop.analysis import text
    from tabletop.analysis import wording as w
    from tabletop.analysis.run import agent_names
    from tabletop.analysis.verdict import amount, interval, level_name, words

    plan = comparison.plan
    names = agent_names(plan.game, plan.levels)
    console = output_console()
    changes = ", ".join(f"{k}={v}" for k, v in comparison.changes)
    values = ", ".join(f"{k}={v}" for k, v in comparison.baseline.values)
    baseline = f"{translate(w.players_word(comparison.baseline.players))}, " + (
        values or translate(w.DEFAULTS)
    )
    title = text.COMPARE_TITLE.format(
        game=plan.game, changes=changes, baseline=baseline, games=plan.games, seed=seed
    )
    console.print(escape(translate(title)))
    columns = (w.HEAD_MEASURE, w.HEAD_BASELINE, w.HEAD_VARIANT, w.HEAD_DIFFERENCE_CI, "p",
               w.HEAD_P_HOLM, w.HEAD_TEST)  # fmt: skip
    levels = list(dict.fromkeys(m.level for m in found))
    for level in levels:
        table = Table(
            title=escape(translate(level_name(level, names))),
            box=box.SIMPLE_HEAD,
            title_justify="left",
            pad_edge=False,
        )
        for column in columns:
            left = column in (w.HEAD_MEASURE, w.HEAD_TEST)
            table.add_column(escape(translate(column)), justify="left" if left else "right")
        for m in (m for m in found if m.level == level):
            mark = " *" if m.significant else ""
            style = "bold" if m.significant else "dim"
            table.add_row(
                escape(translate(words(m))),
                translate(amount(m, m.result.a, sign=False)),
                translate(amount(m, m.result.b, sign=False)),
                f"[{style}]{escape(translate(interval(m)) + mark)}[/{style}]",
                w.short(float(f"{m.result.p:.3g}")),
                f"[{style}]{w.short(float(f'{m.p_adjusted:.3g}'))}[/{style}]",
                escape(translate(w.TESTS.get(m.result.test, m.result.test))),
            )
        console.print(table)
    console.print(escape(translate(w.COMPARE_LEGEND)))
    for line in lines:
        console.print(escape(translate(line)))

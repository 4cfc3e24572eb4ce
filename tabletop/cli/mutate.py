"""``tabletop test --mutate``: the mutation test with a rich progress bar, then its report
(the surviving mutants' diffs, the tables per module and per rule ID, the score)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.syntax import Syntax
from rich.table import Table
from rich.text import Text

from tabletop.cli.language import speak
from tabletop.core.errors import UsageError
from tabletop.core.i18n.text import Domain
from tabletop.core.registry import registry
from tabletop.game import Game
from tabletop.kit.mutation.command import suite_spec
from tabletop.kit.mutation.mutants import Mutant, shown_path
from tabletop.kit.mutation.report import Tally, by_module, by_rule, summary, survivors, tally
from tabletop.kit.mutation.runner import SuiteSpec, Verdict
from tabletop.kit.mutation.session import Results, mutate

_ = Domain("tabletop")

RULES_TITLE = (
    "Per rule ID: a killed mutant under the rules of the cases that failed, "
    "a survivor under the rules its code cites"
)


def mutate_command(
    files: Sequence[Path],
    game: str | None,
    keyword: str | None,
    modules: Sequence[str],
    max_mutants: int | None,
    seconds: float | None,
    as_json: bool = False,
    fail_under: float | None = None,
) -> int:
    """Run the mutation test and print the report; 1 when the score is below ``fail_under``.
    Its errors speak the environment's language (``--json``: English, for scripts)."""
    speak(None, {} if as_json else None)
    if seconds is not None and seconds <= 0:
        raise UsageError(
            _("--seconds must be more than 0, not {seconds}", seconds=format(seconds, "g"))
        )
    games = registry()
    spec, known = suite_spec(games, game, files, keyword=keyword)
    chosen = games.get(spec.game)
    console = Console(highlight=False, stderr=as_json)
    if as_json:
        results = mutate(spec, known, modules, max_mutants, seconds, game=chosen)
    else:
        results = _with_progress(spec, known, modules, max_mutants, seconds, console, chosen)
    if as_json:
        print(json.dumps(summary(results), ensure_ascii=False))
    else:
        print_report(results, console)
    score = tally(results.verdicts).score
    if fail_under is not None and (score is None or 100 * score < fail_under):
        return 1
    return 0


def _with_progress(
    spec: SuiteSpec,
    known: Sequence[str],
    modules: Sequence[str],
    max_mutants: int | None,
    seconds: float | None,
    console: Console,
    game: Game[Any, Any],
) -> Results:
    columns = (
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("{task.fields[counts]}"),
    )
    with Progress(*columns, console=console, transient=True) as progress:
        task = progress.add_task(f"baseline run of {spec.game}'s suite", total=None, counts="")
        counts = {"killed": 0, "survived": 0}

        def planned(total: int) -> None:
            progress.update(task, total=total, description=f"mutating {spec.game}")

        def advance(mutant: Mutant, verdict: Verdict) -> None:
            counts["killed" if verdict.status in {"killed", "timeout"} else "survived"] += 1
            text = f"{counts['killed']} killed, {counts['survived']} survived  {mutant.short}"
            progress.update(task, advance=1, counts=text)

        return mutate(spec, known, modules, max_mutants, seconds, None, advance, planned, game)


def _percent(score: float | None) -> Text:
    if score is None:
        return Text("-")
    style = "green" if score >= 0.9 else "yellow" if score >= 0.7 else "red"
    return Text(f"{100 * score:.1f}%", style=style)


def _table(title: str, first: str, groups: dict[str, Tally]) -> Table:
    table = Table(title=title, title_justify="left")
    table.add_column(first, no_wrap=True)
    for column in ("mutants", "killed", "timeout", "survived", "not reached", "score"):
        table.add_column(column, justify="right")
    for name, counts in groups.items():
        table.add_row(
            name,
            str(counts.total),
            str(counts.killed),
            str(counts.timeout),
            str(counts.survived),
            str(counts.not_reached),
            _percent(counts.score),
        )
    return table


def print_report(results: Results, console: Console, diffs: bool = True) -> None:
    """The surviving mutants' diffs, then the tables per module and per rule, then the total."""
    if diffs:
        for mutant, verdict in survivors(results):
            where = f"{shown_path(mutant.path)}:{mutant.line}"
            rules = ", ".join(mutant.rules) or "no rule cited"
            label = "not reached by any case" if verdict.status == "not reached" else "survived"
            head = f"{label}: #{mutant.number} {where} in {mutant.function} ({rules}): "
            console.print(Text(head + mutant.edit.description, style="bold"), soft_wrap=True)
            diff = mutant.diff(results.sources[mutant.module])
            console.print(Syntax(diff.rstrip("\n"), "diff", theme="ansi_dark"), soft_wrap=True)
    console.print(_table(f"Mutation score of {results.game} per module", "module",
                         by_module(results)))  # fmt: skip
    console.print(_table(RULES_TITLE, "rule", by_rule(results)))
    total = tally(results.verdicts)
    score = total.score
    shown = "-" if score is None else f"{100 * score:.1f}%"
    words = (
        f"mutation score {shown}: {total.killed + total.timeout} of {total.total} mutants "
        f"killed ({total.timeout} by timeout), {total.survived} survived, "
        f"{total.not_reached} not reached; {results.baseline.cases} cases and "
        f"{results.baseline.golden} golden games, {results.seconds:.0f}s"
    )
    if len(results.verdicts) + results.not_run < results.total:
        words += f"; {len(results.verdicts) + results.not_run} of {results.total} mutants sampled"
    if results.not_run:
        words += f"; {results.not_run} not run (--seconds)"
    style = "green bold" if score is not None and score >= 0.9 else "yellow bold"
    console.print(Text(words, style=style), soft_wrap=True)

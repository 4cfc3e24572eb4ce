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

from tabletop.cli.language import own_language, speak
from tabletop.core.errors import UsageError
from tabletop.core.i18n.formats import Count
from tabletop.core.i18n.text import Domain, Msg, translate
from tabletop.core.registry import registry
from tabletop.game import Game
from tabletop.kit.mutation.command import suite_spec
from tabletop.kit.mutation.mutants import Mutant, shown_path
from tabletop.kit.mutation.report import Tally, by_module, by_rule, summary, survivors, tally
from tabletop.kit.mutation.runner import SuiteSpec, Verdict
from tabletop.kit.mutation.session import Results, mutate

_ = Domain("tabletop")
_n = _.plural

RULES_TITLE = _(
    "Per rule ID: a killed mutant under the rules of the cases that failed, "
    "a survivor under the rules its code cites"
)
COLUMNS = (_("mutants"), _("killed"), _("timeout"), _("survived"), _("not reached"), _("score"))


@own_language
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
        baseline = translate(_("baseline run of {game}'s suite", game=spec.game))
        task = progress.add_task(baseline, total=None, counts="")
        counts = {"killed": 0, "survived": 0}

        def planned(total: int) -> None:
            said = translate(_("mutating {game}", game=spec.game))
            progress.update(task, total=total, description=said)

        def advance(mutant: Mutant, verdict: Verdict) -> None:
            counts["killed" if verdict.status in {"killed", "timeout"} else "survived"] += 1
            said = _(
                "{killed} killed, {survived} survived",
                killed=counts["killed"],
                survived=counts["survived"],
            )
            progress.update(task, advance=1, counts=f"{translate(said)}  {mutant.short}")

        return mutate(spec, known, modules, max_mutants, seconds, None, advance, planned, game)


def _shown(score: float) -> str:
    """A score as a percent with one decimal, in the reader's digits (``87.5%``)."""
    return translate(_("{percent}%", percent=Count(100 * score, 1, grouped=False)))


def _percent(score: float | None) -> Text:
    if score is None:
        return Text("-")
    style = "green" if score >= 0.9 else "yellow" if score >= 0.7 else "red"
    return Text(_shown(score), style=style)


def _table(title: str, first: str, groups: dict[str, Tally]) -> Table:
    table = Table(title=translate(title), title_justify="left")
    table.add_column(translate(first), no_wrap=True)
    for column in COLUMNS:
        table.add_column(translate(column), justify="right")
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
            rules = ", ".join(mutant.rules) or _("no rule cited")
            said = dict(number=mutant.number, where=where, function=mutant.function, rules=rules)
            if verdict.status == "not reached":
                head = _(
                    "not reached by any case: #{number} {where} in {function} ({rules}): ", **said
                )
            else:
                head = _("survived: #{number} {where} in {function} ({rules}): ", **said)
            change = translate(mutant.edit.description)  # the operator's name stays a key
            console.print(Text(translate(head) + change, style="bold"), soft_wrap=True)
            diff = mutant.diff(results.sources[mutant.module], translate)
            console.print(Syntax(diff.rstrip("\n"), "diff", theme="ansi_dark"), soft_wrap=True)
    title = _("Mutation score of {game} per module", game=results.game)
    console.print(_table(title, _("module"), by_module(results)))
    console.print(_table(RULES_TITLE, _("rule"), by_rule(results)))
    total = tally(results.verdicts)
    score = total.score
    parts: list[str] = [
        _(
            "mutation score {score}: {killed} of {mutants} killed ({timeout} by timeout), "
            "{survived} survived, {not_reached} not reached; {cases} and {golden}, {seconds}s",
            score="-" if score is None else _shown(score),
            killed=total.killed + total.timeout,
            mutants=_n("{n} mutant", "{n} mutants", total.total),
            timeout=total.timeout,
            survived=total.survived,
            not_reached=total.not_reached,
            cases=_n("{n} case", "{n} cases", results.baseline.cases),
            golden=_n("{n} golden game", "{n} golden games", results.baseline.golden),
            seconds=f"{results.seconds:.0f}",
        )
    ]
    if len(results.verdicts) + results.not_run < results.total:
        sampled = len(results.verdicts) + results.not_run
        parts.append(
            _n(
                "; {sampled} of {n} mutant sampled",
                "; {sampled} of {n} mutants sampled",
                results.total,
                sampled=sampled,
            )
        )
    if results.not_run:
        parts.append(_("; {count} not run (--seconds)", count=results.not_run))
    style = "green bold" if score is not None and score >= 0.9 else "yellow bold"
    console.print(Text(translate(Msg.joined("", parts)), style=style), soft_wrap=True)

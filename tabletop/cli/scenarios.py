"""``tabletop test``: run rule-scenario files and print a summary per file and per rule.

Without paths it runs the files every installed game ships (its ``scenarios/`` folder);
``--game`` keeps one game's cases, ``-k`` selects cases by words of their file name,
game, case name and rule IDs, ``--coverage`` lists the spec's rule IDs no case covers.
The exit status is 1 when a case fails, a file or case is malformed, nothing was
selected, or (with ``--coverage``) a rule of the spec has no scenario.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from rich.console import Console
from rich.table import Table
from rich.text import Text

from tabletop.cli.language import own_language, speak
from tabletop.core.errors import UsageError
from tabletop.core.i18n.text import Domain, message_of, translate
from tabletop.core.registry import Registry, registry
from tabletop.kit.scenarios import (
    CaseResult,
    Suite,
    game_suites,
    is_scenario_file,
    keyword_filter,
    load_file,
    run_case,
    uncovered,
)

_ = Domain("tabletop")


@own_language
def test_command(paths: list[Path], game: str | None, k: str | None, coverage: bool) -> int:
    """The body of ``tabletop test``; returns the exit status. It speaks the environment's
    language (``TABLETOP_LANG``, the locale); the scenario files themselves stay English."""
    speak(None)
    return run_tests(paths, game, k, coverage, registry(), Console(highlight=False))


# Not a test for pytest to collect, although its name starts with "test".
test_command.__test__ = False  # type: ignore[attr-defined]


def scenario_files(paths: Sequence[Path]) -> list[Path]:
    """The files named, and the scenario files in folders (searched recursively: YAML files
    that begin with the format line, as the pytest plugin collects them); UsageError for a
    missing path."""
    files: list[Path] = []
    for path in paths:
        if path.is_dir():
            found = path.rglob("*.y*ml")
            files.extend(
                sorted(p for p in found if p.suffix in {".yaml", ".yml"} and is_scenario_file(p))
            )
        elif path.is_file():
            files.append(path)
        else:
            raise UsageError(_("no such scenario file or folder: {path}", path=str(path)))
    return files


def run_tests(
    paths: Sequence[Path],
    game: str | None,
    k: str | None,
    coverage: bool,
    games: Registry,
    console: Console,
) -> int:
    """Load, select, run and report; the exit status."""
    selected: Callable[[str], bool] = lambda words: True  # noqa: E731
    if k:
        try:
            selected = keyword_filter(k)
        except ValueError as exc:
            raise UsageError(message_of(exc)) from None
    gid = games.get(game).info.id if game else None
    files = scenario_files(paths) if paths else game_suites(games, gid)
    suites = [load_file(path) for path in files]
    results: list[tuple[Suite, list[CaseResult]]] = []
    for suite in suites:
        cases = [
            case
            for case in suite.cases
            if (gid is None or case.game == gid) and selected(case.keywords())
        ]
        results.append((suite, [run_case(case, games) for case in cases]))
    _print_files(console, results)
    _print_rules(console, results)
    bad = _print_failures(console, results)
    total = sum(len(r) for _, r in results)
    status = 1 if bad or total == 0 else 0
    if coverage:
        considered = [_only(suite, gid) for suite in suites if suite.error is None]
        status = max(status, _print_coverage(console, considered))
    _print_total(console, results, suites)
    return status


def _only(suite: Suite, gid: str | None) -> Suite:
    if gid is None:
        return suite
    cases = tuple(c for c in suite.cases if c.game == gid)
    game = suite.game if suite.game == gid else None
    return Suite(suite.path, suite.title, game, suite.spec_rules if game else (), cases)


def _counts(results: Sequence[CaseResult]) -> tuple[int, int, int]:
    passed = sum(r.status == "passed" for r in results)
    failed = sum(r.status == "failed" for r in results)
    return passed, failed, len(results) - passed - failed


def _print_files(console: Console, results: list[tuple[Suite, list[CaseResult]]]) -> None:
    table = Table(title=translate(_("Scenario files")), title_justify="left")
    columns = (_("file"), _("cases"), _("passed"), _("failed"), _("errors"))
    for index, column in enumerate(columns):
        table.add_column(translate(column), justify="left" if index == 0 else "right")
    for suite, cases in results:
        passed, failed, errors = _counts(cases)
        errors += suite.error is not None
        style = "red" if failed or errors else "green"
        label = Text(_shown(suite.path), style=style, overflow="fold")
        table.add_row(label, str(len(cases)), str(passed), str(failed), str(errors))
    console.print(table)


def _shown(path: Path) -> str:
    """A path relative to the current folder when it is inside it."""
    try:
        return str(path.resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def _print_rules(console: Console, results: list[tuple[Suite, list[CaseResult]]]) -> None:
    by_rule: dict[tuple[str, str], list[CaseResult]] = {}
    for _suite, cases in results:
        for result in cases:
            for rule in result.case.rules:
                by_rule.setdefault((result.case.game or "?", rule), []).append(result)
    if not by_rule:
        return
    table = Table(title=translate(_("Rules")), title_justify="left")
    for column in (_("game"), _("rule"), _("cases"), _("result")):
        table.add_column(translate(column), justify="right" if column == "cases" else "left")
    for (game, rule), cases in sorted(by_rule.items(), key=lambda item: _rule_key(*item[0])):
        failing = [r.case.name for r in cases if not r.ok]
        verdict = Text(translate(_("ok")), style="green")
        if failing:
            said = _("failing: {cases}", cases="; ".join(failing))
            verdict = Text(translate(said), style="red")
        table.add_row(game, rule, str(len(cases)), verdict)
    console.print(table)


def _rule_key(game: str, rule: str) -> tuple[str, list[tuple[int, str]]]:
    parts = [(int(p), "") if p.isdigit() else (0, p) for p in rule.replace(".", " ").split()]
    return game, parts


def _print_failures(console: Console, results: list[tuple[Suite, list[CaseResult]]]) -> int:
    bad = 0
    for suite, cases in results:
        if suite.error is not None:
            bad += 1
            console.print(Text(translate(suite.error), style="red bold"), soft_wrap=True)
        for result in cases:
            if result.ok:
                continue
            bad += 1
            style = "red bold" if result.status == "error" else "bold"
            lines = result.report()
            console.print(Text(lines[0], style=style), soft_wrap=True)
            for line in lines[1:]:
                stripped = line.lstrip()
                style = {"-": "red", "+": "green"}.get(stripped[:1], "")
                console.print(Text(line, style=style), soft_wrap=True)
    return bad


def _print_coverage(console: Console, suites: list[Suite]) -> int:
    status = 0
    for game, (missing, unknown) in uncovered(suites).items():
        spec = sum(len(s.spec_rules) for s in suites if s.game == game)
        if not spec:
            said = _(
                "{game}: its scenario files declare no spec_rules; coverage unknown", game=game
            )
            console.print(Text(translate(said)), style="yellow")
        elif missing:
            status = 1
            said = _.plural(
                "{game}: no scenario for {n} rule: {rules}",
                "{game}: no scenario for {n} rules: {rules}",
                len(missing),
                game=game,
                rules=", ".join(missing),
            )
            console.print(Text(translate(said)), style="red", soft_wrap=True)
        else:
            said = _("{game}: every rule ID of the spec has a scenario", game=game)
            console.print(Text(translate(said)), style="green")
        if unknown:
            said = _(
                "{game}: cases cite rule IDs not in spec_rules: {rules}",
                game=game,
                rules=", ".join(unknown),
            )
            console.print(Text(translate(said)), style="yellow", soft_wrap=True)
    return status


def _print_total(
    console: Console, results: list[tuple[Suite, list[CaseResult]]], suites: list[Suite]
) -> None:
    every = [r for _, cases in results for r in cases]
    passed, failed, errors = _counts(every)
    errors += sum(s.error is not None for s in suites)
    if not every and not errors:
        console.print(Text(translate(_("no scenario cases selected")), style="yellow"))
        return
    style = "red bold" if failed or errors else "green bold"
    said = _.plural(
        "{n} case: {passed} passed, {failed} failed, {errors} errors",
        "{n} cases: {passed} passed, {failed} failed, {errors} errors",
        len(every),
        passed=passed,
        failed=failed,
        errors=errors,
    )
    console.print(Text(translate(said), style=style))

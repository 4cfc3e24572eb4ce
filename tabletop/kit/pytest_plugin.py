"""pytest plugin (entry point ``pytest11``): rule-scenario files become test items, and
plugin tests get the registry and the kit as fixtures.

pytest collects a ``*.yaml``/``*.yml`` file it meets as a scenario file only when the
file says ``format: tabletop-scenarios/1`` (first lines), so other projects' YAML is
never touched; a file whose ``format:`` line almost says so (a typo) gets a warning.
Each case is one item named by the case; a failure prints the same diff-like report as
``tabletop test``. A malformed file or case is one failing item with the one-line error
(the rest of the run goes on). Items are marked ``tabletop_scenario`` and carry the
case's rule IDs as keywords (``pytest -k Q4.2``).

For a plugin's own tests (``docs/plugins.md``, "Testing"):

- fixture ``tabletop_registry``: the installed games;
- fixture ``tabletop_kit``: :class:`Kit`, whose checks fail a test with the same report
  as ``tabletop test`` / ``tabletop check`` (no bare asserts, no dumped objects), and
  whose ``registry(plugin)`` adds a game that is not installed yet;
- :func:`scenario_params` and :func:`golden_params` parametrize a test over a game's
  scenario cases and golden files; :func:`shipped_cases` over every installed game's.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from tabletop.core.registry import Registry
    from tabletop.game import Game
    from tabletop.kit.report import CheckReport
    from tabletop.kit.scenarios import CaseResult, LoadedCase

# a format line that is nearly right: "fromat: tabletop-scenarios/1", "tabletop-scenario/1"
NEAR_FORMAT = re.compile(r"^\s*\w+\s*:\s*['\"]?tabletop[-_ ]?scenarios?\b", re.I | re.M)


class ScenarioFormatWarning(pytest.PytestWarning):
    """A YAML file that looks like a scenario file but lacks the exact format line."""


def pytest_configure(config: pytest.Config) -> None:
    """Register the marker."""
    config.addinivalue_line("markers", "tabletop_scenario: a tabletop rule-scenario case")


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    """Collect scenario files (and nothing else)."""
    if file_path.suffix not in {".yaml", ".yml"}:
        return None
    from tabletop.kit.scenarios import is_scenario_file

    if not is_scenario_file(file_path):
        _warn_near_miss(file_path)
        return None
    file: ScenarioFile = ScenarioFile.from_parent(parent, path=file_path)
    return file


def _warn_near_miss(path: Path) -> None:
    try:
        head = path.read_text(encoding="utf-8", errors="replace")[:4096]
    except OSError:
        return
    if NEAR_FORMAT.search(head):
        from tabletop.kit.scenarios import FORMAT

        line = next(n for n, text in enumerate(head.splitlines(), 1) if NEAR_FORMAT.match(text))
        warnings.warn(
            ScenarioFormatWarning(
                f"{path}:{line}: not collected as a scenario file: the first lines must say "
                f"'format: {FORMAT}' exactly"
            ),
            stacklevel=1,
        )


class ScenarioFailure(Exception):
    """A case that failed or is malformed; carries the result to report."""

    def __init__(self, result: CaseResult) -> None:
        super().__init__("\n".join(result.report()))
        self.result = result


class ScenarioFile(pytest.File):
    """A scenario file: one item per case."""

    def collect(self) -> Iterator[pytest.Item]:
        from tabletop.kit.scenarios import load_file

        suite = load_file(self.path)
        if suite.error is not None:
            yield ScenarioError.from_parent(self, name="(file)", message=suite.error)
            return
        for case in suite.cases:
            yield ScenarioItem.from_parent(self, name=case.name, case=case)


class ScenarioItem(pytest.Item):
    """One case of a scenario file."""

    def __init__(self, *, case: LoadedCase, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.case = case
        self.add_marker("tabletop_scenario")
        self.extra_keyword_matches.update(case.rules)
        if case.game:
            self.extra_keyword_matches.add(case.game)

    def runtest(self) -> None:
        check_case(self.case)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> Any:
        if isinstance(excinfo.value, ScenarioFailure):
            return str(excinfo.value)
        return super().repr_failure(excinfo)

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, self.case.line - 1, f"scenario: {self.case.name}"


class ScenarioError(pytest.Item):
    """A scenario file that could not be read: fails with the one-line error."""

    def __init__(self, *, message: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.message = message

    def runtest(self) -> None:
        raise pytest.fail.Exception(self.message, pytrace=False)

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, 0, f"scenario file: {self.path.name}"


def check_case(case: LoadedCase | str, games: Registry | None = None) -> None:
    """Run one case (games from ``games``, default the installed ones); raise
    ScenarioFailure (a report, no traceback) unless it passes.

    A game that crashes (an exception other than the typed errors) is re-raised as it
    is, so pytest shows where in the game it happened. A string is the error of a file
    that could not be read (from :func:`shipped_cases`) and fails with it.
    """
    from tabletop.kit.scenarios import run_case

    if isinstance(case, str):
        raise pytest.fail.Exception(case, pytrace=False)
    result = run_case(case, games)
    if result.crash is not None:
        raise result.crash
    if not result.ok:
        raise ScenarioFailure(result)


def shipped_cases() -> list[Any]:
    """``pytest.param``s for every case every installed game ships (id ``game/file/case``).

    A file that cannot be read gives one param with the error, so it fails visibly::

        @pytest.mark.parametrize("case", shipped_cases())
        def test_shipped_scenario(case):
            check_case(case)
    """
    from tabletop.core.registry import registry
    from tabletop.kit.scenarios import game_suites, load_file

    params: list[Any] = []
    for path in game_suites(registry()):
        suite = load_file(path)
        prefix = f"{suite.game or '?'}/{path.stem}"
        if suite.error is not None:
            params.append(pytest.param(suite.error, id=f"{prefix}/(file)"))
        for case in suite.cases:
            params.append(pytest.param(case, id=f"{prefix}/{case.name}"))
    return params


def _params(suites: Sequence[Any], prefix: str) -> list[Any]:
    params: list[Any] = []
    for suite in suites:
        head = f"{prefix}{suite.path.stem}"
        if suite.error is not None:
            params.append(pytest.param(suite.error, id=f"{head}/(file)"))
        for case in suite.cases:
            params.append(pytest.param(case, id=f"{head}/{case.name}"))
    return params


def scenario_params(game: Game[Any, Any]) -> list[Any]:
    """``pytest.param``s for every case of the game's scenarios (id ``file/case``), for a
    game that need not be installed; a file that cannot be read fails visibly::

        @pytest.mark.parametrize("case", scenario_params(GAME))
        def test_scenario(case, tabletop_kit):
            tabletop_kit.check_case(case, tabletop_kit.registry(plugin))
    """
    from tabletop.core.presentation import presentation_of
    from tabletop.kit.scenarios import load_file

    return _params([load_file(path) for path in presentation_of(game).scenarios()], "")


def golden_params(folder: Path, game_id: str) -> list[Any]:
    """``pytest.param``s for the golden files ``<game_id>-*.json`` in ``folder``."""
    paths = sorted(Path(folder).glob(f"{game_id}-*.json"))
    return [pytest.param(path, id=path.name) for path in paths]


class Kit:
    """tabletop's checks for a plugin's tests; each fails the test with a readable report."""

    def registry(self, plugin: Any = None) -> Registry:
        """The installed games, plus ``plugin``'s (a module or object with the
        ``tabletop_register_games`` hook) when they are not installed yet."""
        from tabletop.core.registry import Registry, registry

        installed = registry()
        if plugin is None:
            return installed
        found: list[Any] = []
        plugin.tabletop_register_games(register=found.append)
        if all(game.info.id in installed.ids() for game in found):
            return installed
        return Registry(extra=[plugin])

    def check_case(self, case: LoadedCase | str, games: Registry | None = None) -> None:
        """The case passes (else the ``tabletop test`` report, without a traceback)."""
        try:
            check_case(case, games)
        except ScenarioFailure as exc:
            raise pytest.fail.Exception(str(exc), pytrace=False) from None

    def check_golden(self, path: Path, game: Game[Any, Any] | None = None) -> None:
        """The golden game replays unchanged (else every difference, one a line)."""
        from tabletop.kit.golden import replay_golden

        differences = replay_golden(Path(path), game)
        if differences:
            head = f"{path}: the game no longer plays as recorded (a rule changed?):"
            raise pytest.fail.Exception("\n".join([head, *differences]), pytrace=False)

    def check_coverage(self, game: Game[Any, Any]) -> None:
        """The game's scenario files read, and every rule ID of their ``spec_rules`` has a
        case (else the errors and the uncovered IDs, as ``tabletop test --coverage``)."""
        from tabletop.core.presentation import presentation_of
        from tabletop.kit.scenarios import load_file, uncovered

        suites = [load_file(path) for path in presentation_of(game).scenarios()]
        problems = [suite.error for suite in suites if suite.error]
        if not suites:
            problems.append(f"{game.info.id} ships no scenario files (scenarios/*.yaml)")
        missing, unknown = uncovered(suites).get(game.info.id, ([], []))
        if missing:
            problems.append(f"{game.info.id}: no scenario for rule(s): {', '.join(missing)}")
        if unknown:
            problems.append(f"{game.info.id}: cases cite rule IDs not in spec_rules: "
                            f"{', '.join(unknown)}")  # fmt: skip
        if problems:
            raise pytest.fail.Exception("\n".join(problems), pytrace=False)

    def conformance(self, game: str | Game[Any, Any], **settings: Any) -> CheckReport:
        """:func:`tabletop.testing.check_game`; fails with its report when a check fails."""
        from tabletop.kit.conformance import check_game

        report = check_game(game, **settings)
        if not report.ok:
            raise pytest.fail.Exception(report.text(), pytrace=False)
        return report


@pytest.fixture(scope="session")
def tabletop_registry() -> Registry:
    """The installed games (``tabletop_kit.registry(plugin)`` adds one not installed yet)."""
    from tabletop.core.registry import registry

    return registry()


@pytest.fixture(scope="session")
def tabletop_kit() -> Kit:
    """tabletop's checks (scenario cases, golden games, rule coverage, conformance)."""
    return Kit()

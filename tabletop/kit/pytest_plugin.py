"""pytest plugin (entry point ``pytest11``): rule-scenario files become test items.

pytest collects a ``*.yaml``/``*.yml`` file it meets as a scenario file only when the
file says ``format: tabletop-scenarios/1`` (first lines), so other projects' YAML is
never touched. Each case is one item named by the case; a failure prints the same
diff-like report as ``tabletop test``. A malformed file or case is one failing item
with the one-line error (the rest of the run goes on). Items are marked
``tabletop_scenario`` and carry the case's rule IDs as keywords (``pytest -k Q4.2``).

The scenarios the installed games ship are outside the usual test folders; a project
runs them with :func:`shipped_cases` (see ``tests/test_scenarios.py``).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from tabletop.kit.scenarios import CaseResult, LoadedCase


def pytest_configure(config: pytest.Config) -> None:
    """Register the marker."""
    config.addinivalue_line("markers", "tabletop_scenario: a tabletop rule-scenario case")


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    """Collect scenario files (and nothing else)."""
    if file_path.suffix not in {".yaml", ".yml"}:
        return None
    from tabletop.kit.scenarios import is_scenario_file

    if not is_scenario_file(file_path):
        return None
    file: ScenarioFile = ScenarioFile.from_parent(parent, path=file_path)
    return file


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


def check_case(case: LoadedCase | str) -> None:
    """Run one case; raise ScenarioFailure (a report, no traceback) unless it passes.

    A game that crashes (an exception other than the typed errors) is re-raised as it
    is, so pytest shows where in the game it happened. A string is the error of a file
    that could not be read (from :func:`shipped_cases`) and fails with it.
    """
    from tabletop.kit.scenarios import run_case

    if isinstance(case, str):
        raise pytest.fail.Exception(case, pytrace=False)
    result = run_case(case)
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

"""The rule scenarios this plugin ships (``tabletop_connect4/scenarios/connect4.yaml``)."""

from __future__ import annotations

import pytest
from tabletop.kit.scenarios import LoadedCase, load_file, run_case, uncovered
from tabletop.testing import Registry, presentation_of

from tabletop_connect4.game import ConnectFourGame

SUITES = [load_file(path) for path in presentation_of(ConnectFourGame()).scenarios()]
CASES = [case for suite in SUITES for case in suite.cases]


def test_the_plugin_ships_its_scenario_file() -> None:
    assert [suite.path.name for suite in SUITES] == ["connect4.yaml"]
    assert all(suite.error is None for suite in SUITES), [s.error for s in SUITES]
    assert len(CASES) >= 15


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_scenario(case: LoadedCase, games: Registry) -> None:
    result = run_case(case, games)
    assert result.ok, "\n".join(result.report())


def test_every_rule_of_the_readme_has_a_scenario() -> None:
    missing, unknown = uncovered(SUITES)["connect4"]
    assert (missing, unknown) == ([], [])
    readme = presentation_of(ConnectFourGame()).rules_text()
    assert all(f"**{rule}**" in readme for rule in SUITES[0].spec_rules)

"""The rule scenarios this plugin ships (``tabletop_pig/scenarios/pig.yaml``)."""

from __future__ import annotations

import pytest
from tabletop_pig.game import PigGame

from tabletop.kit.scenarios import LoadedCase, load_file, run_case, uncovered
from tabletop.testing import Registry, presentation_of

SUITES = [load_file(path) for path in presentation_of(PigGame()).scenarios()]
CASES = [case for suite in SUITES for case in suite.cases]


def test_the_plugin_ships_its_scenario_file() -> None:
    assert [suite.path.name for suite in SUITES] == ["pig.yaml"]
    assert all(suite.error is None for suite in SUITES), [s.error for s in SUITES]


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_scenario(case: LoadedCase, games: Registry) -> None:
    result = run_case(case, games)
    assert result.ok, "\n".join(result.report())


def test_every_rule_of_the_readme_has_a_scenario() -> None:
    missing, unknown = uncovered(SUITES)["pig"]
    assert (missing, unknown) == ([], [])
    readme = presentation_of(PigGame()).rules_text()
    assert all(f"**{rule}**" in readme for rule in SUITES[0].spec_rules)

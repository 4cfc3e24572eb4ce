"""The plugin author's path (issue 17): configurations the kit plays, the starter's tests
before installing, pytest's warnings and fixtures, impossible start positions, error
hints, and the position format of ``tabletop rules``."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Literal

import pytest
from pydantic import BaseModel, ConfigDict, Field
from rich.console import Console
from typer.testing import CliRunner

from tabletop.cli.app import app
from tabletop.cli.scaffold import new_command
from tabletop.cli.scenarios import run_tests
from tabletop.core.errors import ActionError, OptionError
from tabletop.core.match import Match
from tabletop.core.registry import registry
from tabletop.game import GameInfo, position_example
from tabletop.kit.scenarios import load_file, run_case
from tabletop.testing import check_game, plan_configurations
from tests.test_scenarios import TicTacToe, TState, toy_registry

pytest_plugins = ["pytester"]


# -- tabletop check: which configurations ---------------------------------------------------
class SizeOptions(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    size: Literal[3, 4] = Field(3, description="the board's side")
    k: Literal[3, 4] = Field(3, description="marks in a row that win")
    misere: bool = Field(False, description="three in a row loses")


class Sized(TicTacToe):
    """Tic-tac-toe whose options refuse k=4 on a 3×3 board (played as 3×3 anyway)."""

    info = GameInfo(
        id="sized",
        name="Sized",
        version="1",
        min_players=2,
        max_players=2,
        options=SizeOptions,
        max_actions=lambda players, options: 9,
    )

    def new(self, players: int, options: BaseModel, seed: int) -> TState:
        assert isinstance(options, SizeOptions)
        if options.k > options.size:
            raise OptionError(f"k={options.k} cannot fit on a {options.size}×{options.size} board")
        return TState((0,) * 9, options.misere)


def test_few_combinations_are_all_played_and_the_refused_ones_named() -> None:
    plan = plan_configurations(Sized())
    assert plan.how == "all 8 combinations"
    labels = [c.label() for c in plan.configs]
    assert "2 players, size=4 k=4" in labels and len(labels) == 6
    assert plan.refused == [
        "2 players, k=4: k=4 cannot fit on a 3×3 board",
        "2 players, k=4 misere=true: k=4 cannot fit on a 3×3 board",
    ]
    report = check_game(Sized(), games=2)
    assert report.refused == plan.refused and report.how == plan.how
    assert "refused by the game: 2 players, k=4: k=4 cannot fit" in report.text()


def test_many_combinations_are_a_pairwise_sample_saying_so() -> None:
    plan = plan_configurations(Sized(), max_configs=4)
    assert plan.how.startswith("a pairwise sample: ") and "of 8 combinations" in plan.how
    dumped = [c.options.model_dump() for c in plan.configs]
    for one, two in (("size", "k"), ("size", "misere"), ("k", "misere")):
        seen = {(d[one], d[two]) for d in dumped}
        assert seen == {(d[one], d[two]) for d in _every()}, (one, two)  # every possible pair
    assert plan.refused == ["size=3 with k=4: k=4 cannot fit on a 3×3 board"]


def _every() -> list[dict[str, object]]:
    return [c.options.model_dump() for c in plan_configurations(Sized()).configs]


def test_one_chosen_configuration_is_checked() -> None:
    report = check_game(Sized(), games=3, options={"size": 4, "k": 4})
    assert report.configs == ["2 players, size=4 k=4"] and report.how == "the chosen options"
    refused = check_game(Sized(), games=1, options={"k": 4})
    assert refused.configs == [] and refused.refused == [
        "2 players, k=4: k=4 cannot fit on a 3×3 board"
    ]


def test_check_command_takes_options() -> None:
    result = CliRunner().invoke(app, ["check", "quarto", "--games", "2", "-o", "claim=manual"])
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    assert "configurations (the chosen options): 2 players, claim=manual" in text
    bad = CliRunner().invoke(app, ["check", "quarto", "--games", "1", "-o", "claim=sometimes"])
    assert bad.exit_code != 0 and "claim" in bad.output and "Traceback" not in bad.output


# -- scenarios: impossible start positions, rules of broken cases ----------------------------
IMPOSSIBLE = """
format: tabletop-scenarios/1
game: tictactoe
cases:
  - name: O cannot have more marks than X
    rules: [T2.1]
    position: {board: {a1: O}}
    impossible: X moves first
  - name: refused for another reason than expected
    position: {board: {a1: O}}
    impossible: T9
  - name: a possible position is not refused
    position: {board: {a1: X}}
    impossible: T2.1
  - name: impossible needs a position
    impossible: T2.1
  - name: a step that errors
    rules: [T3]
    steps:
      - expect: {legal_contains: [mark z9]}
  - name: a case that cannot be read
    rules: [T1]
    steps:
      - do: mark a1
        expct: {to_act: 2}
"""


def test_a_scenario_can_expect_an_impossible_position(tmp_path: Path) -> None:
    path = tmp_path / "impossible.yaml"
    path.write_text(IMPOSSIBLE.lstrip())
    games = toy_registry()
    results = [run_case(case, games) for case in load_file(path).cases]
    assert [r.status for r in results] == ["passed", "failed", "failed", "error", "error", "error"]
    other = "\n".join(results[1].report())
    assert "the position was refused, but not for the expected reason" in other
    assert "- expected: a refusal citing 'T9'" in other and "X moves first" in other
    accepted = "\n".join(results[2].report())
    assert "accepted, but it must be refused as impossible" in accepted
    assert f"{path}:13:" in accepted  # the line of 'impossible:'
    assert "'impossible' needs a 'position'" in (results[3].error or "")


def test_the_rules_table_shows_the_rules_of_erroring_cases(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "impossible.yaml"
    path.write_text(IMPOSSIBLE.lstrip())
    console = Console(record=True, width=200)
    assert run_tests([path], None, None, False, toy_registry(), console) == 1
    text = console.export_text()
    assert "T3   │     1 │ failing: a step that errors" in text
    assert "T1   │     1 │ failing: a case that cannot be read" in text
    assert "T2.1 │     1 │ ok" in text


# -- the allowed hint of a refusal -----------------------------------------------------------
def test_a_refused_claim_is_not_offered_as_allowed() -> None:
    quarto = registry().get("quarto")
    options = quarto.info.options.model_validate({"claim": "manual"})
    match = Match(quarto, 2, options, seed=0)
    match.play_all(["give 0", "place a1"])
    assert "quarto" in match.listing_text()  # listed: a claim may always be tried (Q5.5)
    with pytest.raises(ActionError) as info:
        match.play("quarto")
    reason = info.value.reason
    assert "(Q5.5)" in reason and "allowed: give" in reason
    assert "quarto" not in reason.split("allowed:")[1]


# -- tabletop rules: the position format ------------------------------------------------------
@pytest.mark.parametrize("game", ["quarto", "quartino", "ctverak"])
def test_rules_show_the_position_json(game: str) -> None:
    result = CliRunner().invoke(app, ["rules", game], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    assert "Position JSON" in result.output and '"to_act": 1' in result.output


def test_the_default_position_format_is_the_start_position() -> None:
    text = position_example(TicTacToe())
    assert text.startswith("The start position (2 players, default options, seed 0)")
    assert '"board": {}' in text and "```json" in text


# -- pytest: typos of the format line, the fixtures ------------------------------------------
def test_pytest_warns_about_a_nearly_right_format_line(pytester: pytest.Pytester) -> None:
    (pytester.path / "rules.yaml").write_text(
        "format: tabletop-scenario/1\ngame: quarto\ncases: []\n"
    )
    (pytester.path / "ci.yaml").write_text("jobs: {build: {runs-on: linux}}\n")
    pytester.makepyfile("def test_ok():\n    assert True\n")
    result = pytester.runpytest("-p", "tabletop")
    result.assert_outcomes(passed=1, warnings=1)
    result.stdout.fnmatch_lines(
        ["*rules.yaml:1: not collected as a scenario file*'format: tabletop-scenarios/1'*"]
    )


def test_the_kit_fixture_fails_with_readable_reports(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        textwrap.dedent(
            """
            import json
            from pathlib import Path

            import pytest
            from tabletop.kit.pytest_plugin import scenario_params
            from tabletop.core.registry import registry

            QUARTO = registry().get("quarto")
            CASES = scenario_params(QUARTO)[:2]

            def test_registry(tabletop_registry, tabletop_kit):
                assert "quarto" in tabletop_registry.ids()
                assert tabletop_kit.registry() is tabletop_registry

            @pytest.mark.parametrize("case", CASES)
            def test_case(case, tabletop_kit):
                tabletop_kit.check_case(case)

            def test_bad_case(tabletop_kit, tmp_path):
                from tabletop.kit.scenarios import load_file
                path = tmp_path / "x.yaml"
                path.write_text(
                    "format: tabletop-scenarios/1\\ngame: quarto\\ncases:\\n"
                    "  - name: wrong\\n    steps:\\n      - expect: {to_act: 2}\\n"
                )
                tabletop_kit.check_case(load_file(path).cases[0])

            def test_golden(tabletop_kit, tmp_path):
                from tabletop.testing import record_golden
                [path] = record_golden(QUARTO, tmp_path, count=1)
                data = json.loads(path.read_text())
                data["steps"][0]["to_act"] = 3
                path.write_text(json.dumps(data))
                tabletop_kit.check_golden(path)

            def test_coverage(tabletop_kit):
                tabletop_kit.check_coverage(QUARTO)
            """
        )
    )
    result = pytester.runpytest("-p", "tabletop")
    result.assert_outcomes(passed=4, failed=2)
    out = result.stdout.str()
    assert "case 'wrong', expectations not met" in out and "- expected: 2" in out
    assert "the game no longer plays as recorded" in out and "to_act: expected 3, now 2" in out
    assert "CaseResult(" not in out and "assert [" not in out


# -- the starter: plain pytest before pip install -e . ---------------------------------------
def test_the_starter_passes_plain_pytest_before_it_is_installed(tmp_path: Path) -> None:
    made = new_command("starter_game", tmp_path / "dist")
    pytest_script = Path(sys.executable).parent / "pytest"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run(
        [str(pytest_script), "-p", "no:cacheprovider"],
        cwd=made,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    # a broken rule case reads like `tabletop test`, without a dumped CaseResult
    scenarios = made / "tabletop_starter_game" / "scenarios" / "starter_game.yaml"
    text = scenarios.read_text()
    scenarios.write_text(text.replace("winners: [1]", "winners: [2]", 1))
    broken = subprocess.run(
        [str(pytest_script), "-p", "no:cacheprovider", "-k", "scenario"],
        cwd=made,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert broken.returncode == 1
    assert "expectations not met" in broken.stdout and "- expected: [2]" in broken.stdout
    assert "CaseResult(" not in broken.stdout

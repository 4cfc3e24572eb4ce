"""Rule scenarios: the loader's errors, the runner's verdicts and diffs, ``tabletop test``,
the pytest plugin, and every scenario the installed games ship.

A tiny tic-tac-toe (rules T1-T4 below) registered beside the installed games keeps the
format's tests independent of any real game.
"""

from __future__ import annotations

import io
import re
import textwrap
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, NamedTuple

import pytest
from pydantic import BaseModel, ConfigDict, Field
from rich.console import Console

import tabletop.core.registry
from tabletop.cli.scenarios import run_tests, scenario_files, test_command
from tabletop.core.configured import Configured
from tabletop.core.errors import NotationError, PositionError, UsageError
from tabletop.core.jsonvalues import describe
from tabletop.core.match import Match
from tabletop.core.numbers import quote
from tabletop.core.registry import Registry, registry
from tabletop.game import JSON, Game, GameInfo, Outcome
from tabletop.hookspecs import hookimpl
from tabletop.kit.pytest_plugin import check_case, shipped_cases
from tabletop.kit.scenarios import (
    CaseResult,
    LoadedCase,
    Suite,
    cites,
    game_suites,
    keyword_filter,
    load_file,
    run_case,
    subset_diff,
    uncovered,
)
from tabletop.kit.scenarios.deal import deal_rest, list_items

pytest_plugins = ["pytester"]

# -- a toy game: tic-tac-toe ---------------------------------------------------------------
# T1 a 3×3 board a1..c3; T2.1 X (player 1) and O take turns marking an empty square;
# T3 three in a row wins, a full board is a draw; T4 option misere: three in a row loses.
SQUARES = ("a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3")
LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
MARKS = {1: "X", 2: "O"}


class TicTacToeOptions(BaseModel):
    """T4."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    misere: bool = Field(False, description="T4: three in a row loses")


class TState(NamedTuple):
    cells: tuple[int, ...]
    misere: bool


def three(cells: tuple[int, ...] | list[int]) -> int:
    """The mark with three in a row, else 0."""
    for a, b, c in LINES:
        if cells[a] and cells[a] == cells[b] == cells[c]:
            return cells[a]
    return 0


class TicTacToe(Game[TState, int]):
    """Tic-tac-toe, a correct little game."""

    info = GameInfo(
        id="tictactoe",
        name="Tic-tac-toe",
        version="1",
        min_players=2,
        max_players=2,
        options=TicTacToeOptions,
        max_actions=lambda players, options: 9,
    )

    def new(self, players: int, options: BaseModel, seed: int) -> TState:
        assert isinstance(options, TicTacToeOptions)
        return TState((0,) * 9, options.misere)

    def outcome(self, state: TState) -> Outcome | None:
        mark = three(state.cells)
        if mark:
            winner = 3 - mark if state.misere else mark
            return Outcome((winner,), f"three in a row for {MARKS[mark]} (T3)")
        if all(state.cells):
            return Outcome((), "the board is full: a draw (T3)")
        return None

    def to_act(self, state: TState) -> int | None:
        if self.outcome(state) is not None:
            return None
        return 1 if state.cells.count(1) == state.cells.count(2) else 2

    def legal(self, state: TState) -> tuple[int, ...]:
        if self.outcome(state) is not None:
            return ()
        return tuple(i for i in range(9) if not state.cells[i])

    def apply(self, state: TState, action: int) -> TState:
        cells = list(state.cells)
        cells[action] = self.to_act(state) or 0
        return TState(tuple(cells), state.misere)

    def refusal(self, state: TState, action: int) -> str:
        if self.outcome(state) is not None:
            return "the game is over (T3)"
        return f"T2.1: {SQUARES[action]} is taken by {MARKS[state.cells[action]]}"

    def parse(self, state: TState, text: str) -> int:
        words = text.lower().split()
        if len(words) == 2 and words[0] == "mark":
            words = words[1:]
        if len(words) != 1:
            raise NotationError(f"unknown action {quote(text)}; actions are mark <square> (T2.1)")
        if words[0] not in SQUARES:
            raise NotationError(f"unknown square {quote(words[0])}; squares are a1…c3 (T1)")
        return SQUARES.index(words[0])

    def format(self, state: TState, action: int) -> str:
        return f"mark {SQUARES[action]}"

    def view(self, state: TState, player: int | None) -> JSON:
        return self.to_json(state)

    def to_json(self, state: TState) -> JSON:
        board = {SQUARES[i]: MARKS[c] for i, c in enumerate(state.cells) if c}
        return {"board": board, "to_act": self.to_act(state)}

    def from_json(self, data: JSON, players: int, options: BaseModel, seed: int) -> TState:
        assert isinstance(options, TicTacToeOptions)
        board = data.get("board", {}) if isinstance(data, dict) else None
        if not isinstance(board, dict):
            raise PositionError("'board' must map squares to X or O")
        cells = [0] * 9
        for square, mark in board.items():
            if square not in SQUARES or mark not in ("X", "O"):
                shown = f"{describe(square)}: {describe(mark)}"
                raise PositionError(f"board: {shown} is not a mark on a square")
            cells[SQUARES.index(square)] = 1 if mark == "X" else 2
        if cells.count(1) - cells.count(2) not in (0, 1):
            raise PositionError("X moves first: X has as many marks as O or one more (T2.1)")
        state = TState(tuple(cells), options.misere)
        due = self.to_act(state)
        if "to_act" in data and (type(data["to_act"]) is not type(due) or data["to_act"] != due):
            raise PositionError(f"to_act must be {self.to_act(state)} in this position")
        return state

    def rules_text(self) -> str:
        return "T1 board a1..c3. T2.1 mark an empty square. T3 three in a row. T4 misere."


class ToyPlugin:
    """Registers the games it is given (a plugin object for ``Registry(extra=...)``)."""

    def __init__(self, *games: Game[Any, Any]) -> None:
        self.games = games

    @hookimpl
    def tabletop_register_games(self, register: Callable[[Any], None]) -> None:
        for game in self.games:
            register(game)


def toy_registry(*games: Game[Any, Any]) -> Registry:
    """The installed games plus tic-tac-toe (and ``games``)."""
    return Registry(extra=[ToyPlugin(TicTacToe(), *games)])


@pytest.fixture
def games(monkeypatch: pytest.MonkeyPatch) -> Iterator[Registry]:
    """A registry with the toy game, also as the process-wide default."""
    toys = toy_registry()
    monkeypatch.setattr(tabletop.core.registry, "_default", toys)
    yield toys


def write(folder: Path, text: str, name: str = "toy.yaml") -> Path:
    path = folder / name
    path.write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
    return path


def run_all(path: Path, games: Registry) -> list[CaseResult]:
    suite = load_file(path)
    assert suite.error is None, suite.error
    return [run_case(case, games) for case in suite.cases]


GOOD = """
    format: tabletop-scenarios/1
    title: tic-tac-toe rules
    game: tictactoe
    spec_rules: [T1, T2.1, T3, T4]
    cases:
      - name: X wins on the diagonal
        rules: [T3]
        actions: [mark a1, mark a2, mark b2, mark a3]
        steps:
          - expect: {to_act: 1, status: ongoing, legal_contains: [mark c3, C3],
                     legal_excludes: [a1]}
          - do: mark c3
            expect:
              status: over
              winners: [1]
              reason: three in a row
              to_act: null
              legal: []
              state: {board.c3: X, board.b1: null, to_act: null}
          - do: mark b1
            refused: game is over
      - name: a taken square is refused and nothing changes
        rules: [T1, T2.1]
        position: {board: {b2: X}}
        steps:
          - do: mark b2
            refused: T2.1
          - do: MARK C3
            expect:
              state: {board: {b2: X, c3: O}}
              view: {player: 1, board.c3: O}
          - do: [b1, a1]
            expect:
              view: [{player: 2, to_act: 1}, {player: null, board: {a1: O}}]
              listing_contains: [c1]
      - name: misère three in a row loses
        rules: [T4]
        options: {misere: true}
        actions: [b2, a1, b1, c1]
        steps:
          - do: b3
            expect: {status: over, winners: [2]}
      - name: the last square, then a draw
        rules: [T3]
        position: {board: {a1: X, b1: O, c1: X, a2: X, b2: O, c2: O, a3: O, b3: X}}
        steps:
          - expect: {legal: [c3], listing: [mark c3], to_act: 1}
          - do: c3
            expect: {status: over, winners: []}
      - name: running out of time loses
        rules: [T2.1]
        steps:
          - do: b2
          - time_out: 2
            expect: {status: over, winners: [1], to_act: null, legal: []}
    """


# -- loading and running ------------------------------------------------------------------
def test_the_documented_example_passes(tmp_path: Path, games: Registry) -> None:
    """Every scenario file of docs/scenarios.md is valid and its cases pass (the first on
    the toy tic-tac-toe, the second on the shipped games)."""
    page = (Path(__file__).parents[1] / "docs" / "scenarios.md").read_text(encoding="utf-8")
    examples = [
        block.split("```", 1)[0]
        for block in page.split("```yaml\n")[1:]
        if block.startswith("format: tabletop-scenarios/1")
    ]
    counts = []
    for number, example in enumerate(examples):
        path = tmp_path / f"example-{number}.yaml"
        path.write_text(example, encoding="utf-8")
        results = run_all(path, games)
        assert all(r.ok for r in results), [r.report() for r in results]
        counts.append(len(results))
    assert counts[:2] == [3, 3]


def test_a_good_file_passes_every_case(tmp_path: Path, games: Registry) -> None:
    results = run_all(write(tmp_path, GOOD), games)
    assert [r.case.name for r in results][:2] == [
        "X wins on the diagonal",
        "a taken square is refused and nothing changes",
    ]
    assert [r.status for r in results] == ["passed"] * 5, [r.report() for r in results]
    suite = load_file(tmp_path / "toy.yaml")
    assert suite.title == "tic-tac-toe rules"
    assert suite.spec_rules == ("T1", "T2.1", "T3", "T4")
    assert suite.cases[0].line == 6 and suite.cases[0].rules == ["T3"]


def one_case(tmp_path: Path, games: Registry, body: str) -> CaseResult:
    head = "format: tabletop-scenarios/1\ngame: tictactoe\ncases:\n"
    path = tmp_path / "one.yaml"
    path.write_text(head + textwrap.indent(textwrap.dedent(body).strip(), "  ") + "\n")
    [result] = run_all(path, games)
    return result


def test_a_wrong_expectation_reports_path_expected_and_actual(
    tmp_path: Path, games: Registry
) -> None:
    result = one_case(
        tmp_path,
        games,
        """
        - name: wrong mark
          actions: [b2]
          steps:
            - do: c3
              expect:
                to_act: 2
                state: {board: {b2: O, c3: O}}
                winners: [1]
        """,
    )
    assert result.status == "failed"
    report = result.report()
    assert report[0] == f"{tmp_path / 'one.yaml'}:8: case 'wrong mark', expectations not met"
    assert report[1] == "  step 1: c3"
    text = "\n".join(report)
    assert "    to_act\n      - expected: 2\n      + actual:   1" in text
    assert '    state.board.b2\n      - expected: "O"\n      + actual:   "X"' in text
    assert "state.board.c3" not in text
    assert "    winners\n      - expected: [1]\n      + actual:   null" in text


@pytest.mark.parametrize(
    ("step", "headline", "fragments"),
    [
        ("do: b2\n  refused: T2.1", "must be refused", ["+ actual:   played as 'mark b2'"]),
        ("do: a1\n  refused: T3", "not for the expected reason", ["T2.1: a1 is taken by X"]),
        ("do: a1", "'a1' was refused", ["T2.1: a1 is taken by X"]),
        ("do: z9", "'z9' was refused", ["unknown square 'z9'"]),
        (
            "expect: {legal_contains: [a1]}",
            "expectations not met",
            ["'a1' is legal", "it is not (T2.1: a1 is taken by X)"],
        ),
        ("expect: {legal_excludes: [b2]}", "expectations not met", ["it is legal"]),
        (
            "expect: {legal: [b2, c2]}",
            "expectations not met",
            ['+ actual:   ["mark a2", "mark a3", "mark b1"', "nothing more"],
        ),
        ("expect: {scores: {1: 1}}", "expectations not met", ["+ actual:   null"]),
        ("expect: {reason: draw}", "expectations not met", ["not over"]),
        ("expect: {view: {player: 2, board: {a1: O}}}", "not met", ["view[2].board.a1"]),
    ],
)
def test_each_kind_of_failure(
    tmp_path: Path, games: Registry, step: str, headline: str, fragments: list[str]
) -> None:
    body = "- name: fails\n  actions: [a1]\n  steps:\n    - " + step.replace("\n", "\n    ")
    result = one_case(tmp_path, games, body)
    assert result.status == "failed", result.report()
    text = "\n".join(result.report())
    assert headline in text
    for fragment in fragments:
        assert fragment in text


class MutatingRefusal(TicTacToe):
    """Broken on purpose: explaining a refusal wipes the board (cells are a list)."""

    info = GameInfo(
        id="wiper",
        name="Wiper",
        version="1",
        min_players=2,
        max_players=2,
        options=TicTacToeOptions,
    )

    def new(self, players: int, options: BaseModel, seed: int) -> TState:
        return TState([0] * 9, False)  # type: ignore[arg-type]

    def apply(self, state: TState, action: int) -> TState:
        cells = list(state.cells)
        cells[action] = self.to_act(state) or 0
        return TState(cells, state.misere)  # type: ignore[arg-type]

    def refusal(self, state: TState, action: int) -> str:
        state.cells[action] = 0  # type: ignore[index]
        return "T2.1: taken"


def test_a_refusal_that_changes_the_state_fails(tmp_path: Path) -> None:
    toys = toy_registry(MutatingRefusal())
    path = write(
        tmp_path,
        """
        format: tabletop-scenarios/1
        game: wiper
        cases:
          - name: refused, but the board is wiped
            actions: [a1]
            steps:
              - do: a1
                refused: T2.1
        """,
    )
    [result] = run_all(path, toys)
    assert result.status == "failed"
    text = "\n".join(result.report())
    assert "the refused action changed the state" in text
    assert 'state.board.a1\n      - expected: "X"\n      + actual:   (missing)' in text


class Crashing(TicTacToe):
    """Broken on purpose: apply crashes on b2."""

    info = GameInfo("crasher", "Crasher", "1", 2, 2, TicTacToeOptions)

    def apply(self, state: TState, action: int) -> TState:
        if action == 4:
            raise KeyError("b2")
        return super().apply(state, action)


def test_a_crashing_game_fails_with_the_exception(tmp_path: Path) -> None:
    toys = toy_registry(Crashing())
    path = write(
        tmp_path,
        """
        format: tabletop-scenarios/1
        game: crasher
        cases:
          - name: crash
            steps:
              - do: b2
        """,
    )
    [result] = run_all(path, toys)
    assert result.status == "failed"
    assert isinstance(result.crash, KeyError)
    assert "the game crashed: KeyError: 'b2'" in result.report()[0]


# -- malformed files: one line with file, line and case --------------------------------------
BAD_FILES = [
    ("format: tabletop-scenarios/1\ncases: [\n", ":3: bad YAML"),
    ("- just\n- a list\n", ":1: not a scenario file"),
    ("game: tictactoe\ncases: [{name: x, steps: [{do: a1}]}]\n", "'format: tabletop-scenarios/1'"),
    ("format: tabletop-scenarios/1\ncaes: []\n", ":2: unknown key 'caes'; allowed at the top"),
    ("format: tabletop-scenarios/1\ndefine: {a: &a 1}\ncases: *a\n", ":3: 'cases' must be"),
    ("format: tabletop-scenarios/1\ncases: []\n", ":2: 'cases' must be a non-empty list"),
    ("format: tabletop-scenarios/1\ngame: a\ngame: b\ncases: []\n", ":3: duplicate key 'game'"),
    ("format: tabletop-scenarios/1\nspec_rules: Q1\ncases: [1]\n", ":2: 'spec_rules' must be"),
]


@pytest.mark.parametrize(("text", "message"), BAD_FILES)
def test_a_malformed_file_is_one_line_with_its_line(
    tmp_path: Path, text: str, message: str
) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(text)
    suite = load_file(path)
    assert suite.error is not None and suite.cases == ()
    assert suite.error.startswith(str(path))
    assert message in suite.error
    assert "\n" not in suite.error


HEAD = "format: tabletop-scenarios/1\ngame: tictactoe\ncases:\n"
BAD_CASES = [
    (
        "  - name: typo\n    steps:\n      - do: a1\n        expect: {stauts: over}\n",
        ":7: case 'typo': unknown key 'stauts' in step 1 expect; allowed: status, winners",
    ),
    ("  - name: typo\n    step: []\n", ":5: case 'typo': unknown key 'step' in the case"),
    ("  - name: empty\n    steps: []\n", ":4: case 'empty': the case: no steps: give 'steps'"),
    ("  - steps: [{do: a1}]\n", ":4: case 'case 1': missing key 'name'"),
    (
        "  - name: what\n    steps:\n      - {do: [a1, b1], refused: T2.1}\n",
        ":6: case 'what': step 1: 'refused' needs 'do' with a single action",
    ),
    (
        "  - name: winners\n    steps:\n      - expect:\n          winners: 1\n",
        ":7: case 'winners': step 1 expect winners: Input should be a valid list (got 1)",
    ),
    (
        "  - name: view\n    steps:\n      - expect: {view: {board: {}}}\n",
        ":6: case 'view': step 1 expect: a view expectation needs 'player: N'",
    ),
    (
        "  - name: where\n    position:\n      board: {a1: X, b1: X}\n    steps: [{do: c1}]\n",
        ":5: case 'where': impossible position: X moves first",
    ),
    (
        "  - name: setup\n    actions:\n      - a1\n      - zz\n    steps: [{do: c1}]\n",
        ":7: case 'setup': setup action 2 'zz' refused: unknown square 'zz'",
    ),
    ("  - name: g\n    game: chess\n    steps: [{do: e4}]\n", ":5: case 'g': unknown game 'chess'"),
    (
        "  - name: o\n    options: {misery: true}\n    steps: [{do: a1}]\n",
        ":5: case 'o': unknown option 'misery' for tictactoe; options: misere",
    ),
    ("  - name: p\n    players: 3\n    steps: [{do: a1}]\n", ":5: case 'p': tictactoe takes 2-2"),
    (
        "  - name: k\n    steps:\n      - expect: {legal_contains: [a1, e7]}\n",
        ":6: case 'k': legal_contains: 'e7' is not an action here: unknown square 'e7'",
    ),
    (
        "  - name: t\n    steps:\n      - time_out: 3\n",
        ":6: case 't': no such player",
    ),
    (
        "  - name: twice\n    steps: [{do: a1}]\n  - name: twice\n    steps: [{do: a1}]\n",
        ":6: case 'twice': case name 'twice' is used twice (first at line 4)",
    ),
]


@pytest.mark.parametrize(("body", "message"), BAD_CASES)
def test_a_malformed_case_is_one_line_with_its_line(
    tmp_path: Path, games: Registry, body: str, message: str
) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(HEAD + body)
    suite = load_file(path)
    assert suite.error is None
    result = run_case(suite.cases[-1], games)
    assert result.status == "error", result.report()
    [line] = result.report()
    assert line.startswith(str(path) + ":")
    assert message in line, line


def test_a_case_without_a_game_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "nogame.yaml"
    path.write_text("format: tabletop-scenarios/1\ncases:\n  - name: n\n    steps: [{do: a1}]\n")
    [case] = load_file(path).cases
    assert case.error is not None and ":3: case 'n': no game" in case.error


# -- pieces --------------------------------------------------------------------------------
def test_subset_diff() -> None:
    actual = {"board": {"b2": "X", "a1.x": 1}, "list": [1, {"a": True}], "n": 1}
    assert subset_diff({"board": {"b2": "X"}}, actual, "state") == []
    assert subset_diff({"board.b2": "X", "board.c3": None}, actual, "s") == []
    assert subset_diff({"board": {"a1.x": 1}, "list.1.a": True}, actual, "s") == []
    [miss] = subset_diff({"board.c3": "O"}, actual, "s")
    assert (miss.where, miss.expected, miss.actual) == ("s.board.c3", '"O"', "(missing)")
    [miss] = subset_diff({"n": True}, actual, "s")  # true is not 1
    assert (miss.where, miss.expected, miss.actual) == ("s.n", "true", "1")
    [miss] = subset_diff({"list": [1]}, actual, "s")  # lists: same length
    assert miss.where == "s.list"
    [miss] = subset_diff({"list": [1, {"a": False}]}, actual, "s")
    assert miss.where == "s.list[1].a"
    assert subset_diff({"e": {}}, {"e": {}}, "s") == []
    [miss] = subset_diff({"board": {}}, actual, "s")  # {} is "empty", not "anything"
    assert miss.where == "s.board"
    [miss] = subset_diff({"n": {"x": 1}}, actual, "s")
    assert (miss.expected, miss.actual) == ('{"x": 1}', "1")


def test_cites_a_rule_id_as_a_whole_word() -> None:
    assert cites("Q3.3: place on an empty square", "Q3.3")
    assert cites("an empty square (Q3.3)", "Q3.3")
    assert not cites("see Q3.33", "Q3.3")
    assert not cites("see Q3.3.1", "Q3.3")
    assert not cites("see AQ3.3", "Q3.3")
    assert cites("Square Is Occupied", "square is occupied")


def test_keyword_filter() -> None:
    match = keyword_filter("quarto and (q4.2 or manual) and not dead")
    assert match("quarto q4.2 four tall")
    assert match("quarto manual claim")
    assert not match("quarto manual dead line")
    assert not match("quartino q4.2")
    for bad in ["", "a and", "(a", "a b", "or a"]:
        with pytest.raises(ValueError):
            keyword_filter(bad)


def test_coverage_lists_uncovered_and_unknown_rules(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        """
        format: tabletop-scenarios/1
        game: tictactoe
        spec_rules: [T1, T2.1, T3, T4]
        cases:
          - {name: a, rules: [T1, T3], steps: [{do: a1}]}
          - {name: b, rules: [T9], steps: [{do: a1}]}
        """,
    )
    assert uncovered([load_file(path)]) == {"tictactoe": (["T2.1", "T4"], ["T9"])}
    assert uncovered([Suite(path)]) == {}


# -- tabletop test ---------------------------------------------------------------------------
def cli(paths: list[Path], games: Registry, **kwargs: Any) -> tuple[int, str]:
    out = io.StringIO()
    console = Console(file=out, width=200, color_system=None)
    args: dict[str, Any] = {"game": None, "k": None, "coverage": False} | kwargs
    status = run_tests(paths, args["game"], args["k"], args["coverage"], games, console)
    return status, out.getvalue()


FAILING = """
    format: tabletop-scenarios/1
    game: tictactoe
    cases:
      - name: passes
        rules: [T2.1]
        steps: [{do: a1, expect: {to_act: 2}}]
      - name: fails
        rules: [T2.1, T3]
        steps: [{do: a1, expect: {to_act: 1}}]
    """


def test_cli_summary_and_exit_status(tmp_path: Path, games: Registry) -> None:
    good = write(tmp_path, GOOD)
    status, out = cli([good], games)
    assert status == 0
    assert "5 cases: 5 passed, 0 failed, 0 errors" in out
    assert re.search(r"tictactoe +│ T2\.1 +│ +2 │ ok", out)
    write(tmp_path, FAILING, "failing.yaml")
    status, out = cli([tmp_path], games)  # a folder: every YAML file in it
    assert status == 1
    assert "7 cases: 6 passed, 1 failed, 0 errors" in out
    assert re.search(r"tictactoe +│ T3 +│ +3 │ failing: fails", out)
    assert f"{tmp_path / 'failing.yaml'}:9: case 'fails', expectations not met" in out
    assert "      - expected: 1\n      + actual:   2" in out


def test_cli_selects_with_k_and_game(tmp_path: Path, games: Registry) -> None:
    write(tmp_path, GOOD)
    write(tmp_path, FAILING, "failing.yaml")
    status, out = cli([tmp_path], games, k="not fails and (T4 or diagonal)")
    assert status == 0 and "2 cases: 2 passed" in out
    status, out = cli([tmp_path], games, game="quarto")
    assert status == 1 and "no scenario cases selected" in out
    with pytest.raises(UsageError, match="unexpected"):
        cli([tmp_path], games, k="a b")
    with pytest.raises(UsageError, match="no such scenario file"):
        cli([tmp_path / "missing.yaml"], games)


def test_cli_coverage(tmp_path: Path, games: Registry) -> None:
    path = write(tmp_path, GOOD)
    status, out = cli([path], games, coverage=True)
    assert status == 0 and "tictactoe: every rule ID of the spec has a scenario" in out
    path.write_text(path.read_text().replace("spec_rules: [T1,", "spec_rules: [T0, T1,"))
    status, out = cli([path], games, coverage=True)
    assert status == 1 and "tictactoe: no scenario for 1 rule: T0" in out


def test_cli_reports_broken_files_and_cases(tmp_path: Path, games: Registry) -> None:
    (tmp_path / "a.yaml").write_text("format: tabletop-scenarios/1\ncases: [\n")
    (tmp_path / "b.yaml").write_text(HEAD + "  - name: x\n    steps: [{do: zz}]\n    foo: 1\n")
    status, out = cli([tmp_path], games)
    assert status == 1
    assert f"{tmp_path / 'a.yaml'}:3: bad YAML" in out
    assert f"{tmp_path / 'b.yaml'}:6: case 'x': unknown key 'foo' in the case" in out
    assert "1 case: 0 passed, 0 failed, 2 errors" in out
    assert "Traceback" not in out


def test_test_command_runs_the_shipped_suites(
    games: Registry, capsys: pytest.CaptureFixture[str]
) -> None:
    shipped = game_suites(registry())
    status = test_command([], None, None, coverage=False)
    out = capsys.readouterr().out
    if not shipped:
        assert status == 1 and "no scenario cases selected" in out
    else:
        assert status == 0, out
        assert " 0 failed, 0 errors" in out


# -- the pytest plugin -----------------------------------------------------------------------
def test_pytest_collects_scenario_files(pytester: pytest.Pytester, games: Registry) -> None:
    write(pytester.path, GOOD, "good.yaml")
    write(pytester.path, FAILING, "failing.yml")
    (pytester.path / "other.yaml").write_text("cases: [1, 2]\nformat: something-else\n")
    (pytester.path / "broken.yaml").write_text("format: tabletop-scenarios/1\ncases: [\n")
    result = pytester.runpytest("-p", "tabletop", "-v")
    result.assert_outcomes(passed=6, failed=2)
    result.stdout.fnmatch_lines(
        [
            "*broken.yaml::(file) FAILED*",
            "*failing.yml::fails FAILED*",
            "*good.yaml::X wins on the diagonal PASSED*",
        ]
    )
    text = result.stdout.str()
    assert "failing.yml:9: case 'fails', expectations not met" in text
    assert "      - expected: 1" in text and "      + actual:   2" in text
    assert "broken.yaml:3: bad YAML" in text
    assert "other.yaml" not in text
    assert "scenarios.py" not in text  # no traceback into the runner
    keyed = pytester.runpytest("-p", "tabletop", "-k", "T4", "-m", "tabletop_scenario")
    keyed.assert_outcomes(passed=1)


def test_pytest_ignores_yaml_of_other_projects(pytester: pytest.Pytester) -> None:
    (pytester.path / "ci.yaml").write_text("jobs: {build: {runs-on: linux}}\n")
    pytester.makepyfile("def test_ok():\n    assert True\n")
    result = pytester.runpytest("-p", "tabletop")
    result.assert_outcomes(passed=1)


def test_check_case_raises_the_report(tmp_path: Path, games: Registry) -> None:
    suite = load_file(write(tmp_path, FAILING))
    check_case(suite.cases[0])
    with pytest.raises(Exception, match="expectations not met") as info:
        check_case(suite.cases[1])
    assert "- expected: 1" in str(info.value)
    with pytest.raises(pytest.fail.Exception, match="bad YAML"):
        check_case("x.yaml:3: bad YAML")


# -- the scenarios every installed game ships ------------------------------------------------
@pytest.mark.parametrize("case", shipped_cases())
def test_shipped_scenario(case: LoadedCase | str) -> None:
    """Every case of every installed game's ``scenarios()`` files (id: game/file/case)."""
    check_case(case)


def shipped_suites() -> list[Suite]:
    return [load_file(p) for p in game_suites(registry())]


@pytest.mark.parametrize("game", sorted({s.game or "" for s in shipped_suites() if s.spec_rules}))
def test_shipped_scenarios_cover_every_rule_of_the_spec(game: str) -> None:
    """``tabletop test --coverage``: no rule ID of a game's spec without a scenario."""
    missing, unknown = uncovered([s for s in shipped_suites() if s.game == game])[game]
    assert missing == [], f"{game}: no scenario for {', '.join(missing)}"
    assert unknown == [], f"{game}: cases cite rule IDs not in spec_rules: {unknown}"


def test_a_folder_gives_only_its_scenario_files(tmp_path: Path) -> None:
    """`tabletop test FOLDER` takes the YAML files that begin with the format line, as the
    pytest plugin does; other YAML (a CI file, say) beside them is not a broken suite."""
    (tmp_path / "deep").mkdir()
    suite = tmp_path / "deep" / "rules.yaml"
    suite.write_text("format: tabletop-scenarios/1\ngame: tictactoe\ncases: []\n")
    (tmp_path / "ci.yaml").write_text("jobs: {}\n")
    (tmp_path / "notes.yml").write_text("# format: tabletop-scenarios/1 only in a comment\n")
    assert scenario_files([tmp_path]) == [suite]
    other = tmp_path / "ci.yaml"
    assert scenario_files([other]) == [other]  # a file named on purpose is read as given


# -- issue 29: prompt, end, setup_refused, rest_in ------------------------------------------
def real_case(tmp_path: Path, game: str, body: str) -> CaseResult:
    head = f"format: tabletop-scenarios/1\ngame: {game}\ncases:\n"
    path = tmp_path / "real.yaml"
    path.write_text(head + textwrap.indent(textwrap.dedent(body).strip(), "  ") + "\n")
    [result] = run_all(path, registry())
    return result


QUARTO_WIN = """
    - name: a line wins
      position:
        board: {a2: LTRF, b2: DTQF, c2: LTQH, a1: LSRH, c3: DSQH}
        in_hand: DTRH
        to_act: 1
        last_placed: c3
      steps:
        - expect: {prompt: "place the piece dark, tall, round, hollow"}
        - do: place d2
          expect: {end: %s, prompt: %s}
"""


def test_prompt_and_end_are_checked(tmp_path: Path) -> None:
    good = real_case(tmp_path, "quarto", QUARTO_WIN % ("line", "game over"))
    assert good.ok, good.report()
    wrong = real_case(tmp_path, "quarto", QUARTO_WIN % ("draw", "give"))
    assert wrong.status == "failed"
    text = "\n".join(wrong.report())
    assert 'end\n      - expected: "draw"\n      + actual:   "line"' in text
    assert "prompt\n      - expected: contains 'give'" in text
    early = real_case(tmp_path, "quarto", "- name: not over\n  steps:\n    - expect: {end: line}")
    assert early.status == "failed" and "+ actual:   null" in "\n".join(early.report())


def test_setup_refused(tmp_path: Path) -> None:
    body = "- name: half deck for four\n  options: {deck: half}\n  players: 4\n  setup_refused: %s"
    assert real_case(tmp_path, "ctverak", body % "K1.1").ok
    assert real_case(tmp_path, "ctverak", body % "the half deck").ok
    other = real_case(tmp_path, "ctverak", body % "K2.1")
    assert other.status == "failed"
    assert "refused, but not for the expected reason" in "\n".join(other.report())
    fine = real_case(tmp_path, "ctverak", body.replace("4", "3") % "K1.1")
    assert fine.status == "failed" and "accepted, but it must be refused" in fine.report()[0]
    count = real_case(tmp_path, "quarto", "- name: three\n  players: 3\n  setup_refused: not 3")
    assert count.ok, count.report()  # the player count is part of the set-up
    option = real_case(
        tmp_path, "quarto", "- name: bad\n  options: {claim: never}\n  setup_refused: claim"
    )
    assert option.ok, option.report()
    mixed = real_case(
        tmp_path, "quarto", "- name: bad\n  setup_refused: x\n  steps:\n    - do: give DTRH"
    )
    assert mixed.status == "error" and "'setup_refused' takes 'options'" in str(mixed.error)


def test_rest_in_deals_the_cards_not_placed(tmp_path: Path) -> None:
    """Hands and bases given, the stock dealt from the seed: the position is possible
    (every card of the two decks once), and its stock holds what the hands gave up."""
    game = registry().get("ctverak")
    options = game.info.options()
    start = game.to_json(Match(game, 2, options, 0).state)  # dealt: its chance steps drawn
    given = {**start, "hands": {"1": ["AH", "AH", "AS"], "2": ["2C"]}}
    del given["stock"]
    dealt = deal_rest(Configured(game, 2, options), 0, given, "stock")
    assert sorted(list_items(dealt)) == sorted(list_items(start))
    held = Counter(card for hand in start["hands"].values() for card in hand)
    gave_up = held - Counter(card for hand in given["hands"].values() for card in hand)
    assert gave_up and not gave_up - Counter(dealt["stock"])  # in the stock (it has no order)
    case = """
        - name: a chosen hand, the rest dealt
          players: 2
          position:
            hands: {"1": [AH, AH, AS, 7C], "2": [6D, TS, KD, KC]}
            melds: {"1": [], "2": []}
            piles: [[], [], [], []]
            bases: [JS, 4D, QC, 9D]
            to_act: 1
            phase: meld
          rest_in: stock
          steps:
            - expect:
                view: {player: 1, stock: 96, hand_sizes: {"1": 4, "2": 4}}
                legal_contains: [discard AS 1]
    """
    assert real_case(tmp_path, "ctverak", case).ok
    without = real_case(tmp_path, "ctverak", case.replace("rest_in: stock", ""))
    assert without.status == "error" and "impossible position" in str(without.error)
    no_position = real_case(
        tmp_path, "ctverak", "- name: x\n  rest_in: stock\n  steps:\n    - expect: {to_act: 1}"
    )
    assert no_position.status == "error" and "'rest_in' needs a 'position'" in str(
        no_position.error
    )

"""Mutation testing of rule suites (``tabletop test --mutate``): the operators, a planted
weakness found and then fixed, timeouts, the report, and the command line."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from rich.console import Console

from tabletop.cli.mutate import print_report
from tabletop.core.errors import TabletopError, UsageError
from tabletop.kit.mutation.configs import CONFIG, config_changes, configured
from tabletop.kit.mutation.mutants import module_mutants
from tabletop.kit.mutation.operators import apply_edit, find_edits
from tabletop.kit.mutation.report import NO_RULE, by_rule, filed_under, summary, survivors
from tabletop.kit.mutation.runner import SuiteSpec
from tabletop.kit.mutation.session import Results, mutate

# A tic-tac-toe plugin package, written to a temporary folder (the worker imports it).
RULES = '''
"""Tic-tac-toe rules (T1-T3)."""

from __future__ import annotations

from typing import NamedTuple

from pydantic import BaseModel, ConfigDict

from tabletop.core.errors import NotationError, PositionError
from tabletop.game import JSON, Game, GameInfo, Outcome

SQUARES = ("a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3")
ROWS = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8))
DIAGONALS = ((0, 4, 8), (2, 4, 6))


class Options(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class State(NamedTuple):
    cells: tuple[int, ...]


def three(cells: tuple[int, ...]) -> int:
    """T3: the mark with three in a row (rows, columns, both diagonals), else 0."""
    for a, b, c in ROWS + DIAGONALS:
        if cells[a] and cells[a] == cells[b] == cells[c]:
            return cells[a]
    return 0


class TicTacToe(Game[State, int]):
    info = GameInfo(
        id="tttmut", name="Tic-tac-toe", version="1", min_players=2, max_players=2,
        options=Options, max_actions=lambda players, options: 9,
    )

    def new(self, players: int, options: BaseModel, seed: int) -> State:
        return State((0,) * 9)

    def outcome(self, state: State) -> Outcome | None:
        mark = three(state.cells)
        if mark:
            return Outcome((mark,), "three in a row (T3)", "line")
        if all(state.cells):
            return Outcome((), "the board is full: a draw (T3)", "draw")
        return None

    def to_act(self, state: State) -> int | None:
        """T2.1: X (1) first, then in turn."""
        if self.outcome(state) is not None:
            return None
        return 1 if state.cells.count(1) == state.cells.count(2) else 2

    def legal(self, state: State) -> tuple[int, ...]:
        if self.outcome(state) is not None:
            return ()
        return tuple(i for i in range(9) if not state.cells[i])

    def apply(self, state: State, action: int) -> State:
        cells = list(state.cells)
        cells[action] = self.to_act(state) or 0
        return State(tuple(cells))

    def refusal(self, state: State, action: int) -> str:
        return "T2.1: that square is taken"

    def parse(self, state: State, text: str) -> int:
        word = text.lower().removeprefix("mark").strip()
        if word not in SQUARES:
            raise NotationError(f"unknown square {word!r} (T1)")
        return SQUARES.index(word)

    def format(self, state: State, action: int) -> str:
        return f"mark {SQUARES[action]}"

    def view(self, state: State, player: int | None) -> JSON:
        return self.to_json(state)

    def to_json(self, state: State) -> JSON:
        return {"board": {SQUARES[i]: "XO"[c - 1] for i, c in enumerate(state.cells) if c}}

    def from_json(self, data: JSON, players: int, options: BaseModel, seed: int) -> State:
        raise PositionError("no positions")

    def rules_text(self) -> str:
        return "T1 board. T2.1 in turn, empty squares. T3 three in a row."
'''

PLUGIN = """
from tabletop.hookspecs import hookimpl


@hookimpl
def tabletop_register_games(register):
    from tttmut.rules import TicTacToe

    register(TicTacToe())
"""

SUITE = """
format: tabletop-scenarios/1
game: tttmut
spec_rules: [T1, T2.1, T3]
cases:
  - name: X wins on a row
    rules: [T3]
    actions: [a1, a2, b1, b2]
    steps:
      - do: c1
        expect: {status: over, winners: [1]}
  - name: X wins on a column
    rules: [T3]
    actions: [a1, b1, a2, b2]
    steps:
      - do: a3
        expect: {status: over, winners: [1]}
  - name: O wins on the diagonal
    rules: [T3, T2.1]
    actions: [b1, a1, c1, b2, a2]
    steps:
      - expect: {to_act: 2, status: ongoing}
      - do: c3
        expect: {status: over, winners: [2]}
  - name: a taken square is refused
    rules: [T2.1]
    actions: [b2]
    steps:
      - do: b2
        refused: T2.1
"""

ANTI_DIAGONAL = """
  - name: X wins on the anti-diagonal
    rules: [T3]
    actions: [c1, a1, b2, b1]
    steps:
      - do: a3
        expect: {status: over, winners: [1]}
"""


@pytest.fixture
def toy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The toy package on sys.path (the spawned worker inherits it); its suite file."""
    package = tmp_path / "pkgs" / "tttmut"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "rules.py").write_text(RULES.lstrip())
    (package / "plugin.py").write_text(PLUGIN.lstrip())
    monkeypatch.syspath_prepend(str(tmp_path / "pkgs"))
    suite = tmp_path / "ttt.yaml"
    suite.write_text(SUITE.lstrip())
    return suite


def spec_of(suite: Path, golden: tuple[Path, ...] = ()) -> SuiteSpec:
    return SuiteSpec("tttmut", "tttmut", (suite,), golden, plugins=("tttmut.plugin",))


def anti_diagonal(results: Results) -> list[str]:
    """The surviving mutants on the line that defines the diagonals."""
    return [
        m.edit.description
        for m, _ in survivors(results)
        if "DIAGONALS = " in results.sources[m.module].splitlines()[m.line - 1]
    ]


# -- the planted weakness ----------------------------------------------------------------
def test_a_suite_that_misses_the_anti_diagonal_leaves_its_mutants_alive(toy: Path) -> None:
    before = mutate(spec_of(toy), ["T1", "T2.1", "T3"], ["rules"])
    alive = anti_diagonal(before)
    # (2, 4, 6) → (3, 4, 6) etc.: no case plays the anti-diagonal, nothing notices
    assert "2 → 3" in alive and "6 → 5" in alive
    # the main diagonal is pinned down: none of its mutants survive
    first_diagonal = [
        m
        for m, _ in survivors(before)
        if m.edit.description in {"0 → 1", "8 → 9", "8 → 7"}
        and "DIAGONALS" in before.sources[m.module].splitlines()[m.line - 1]
    ]
    assert first_diagonal == []
    # the mutant's rule is the one its function cites (three: T3)
    [t3] = [t for rule, t in by_rule(before).items() if rule == "T3"]
    assert t3.survived > 0

    toy.write_text(toy.read_text() + ANTI_DIAGONAL)
    after = mutate(spec_of(toy), ["T1", "T2.1", "T3"], ["rules"])
    assert anti_diagonal(after) == []
    assert len(survivors(after)) < len(survivors(before))
    killed = {m.number: v for m, v in after.verdicts if v.status == "killed"}
    assert any("anti-diagonal" in v.killer for v in killed.values())


def test_the_report_shows_each_survivor_as_a_diff_with_file_and_line(toy: Path) -> None:
    results = mutate(spec_of(toy), ["T1", "T2.1", "T3"], ["rules"], max_mutants=400)
    console = Console(record=True, width=100)
    print_report(results, console)
    text = console.export_text()
    assert "Mutation score of tttmut per module" in text and "tttmut.rules" in text
    assert "rules.py:" in text and "-DIAGONALS = ((0, 4, 8), (2, 4, 6))" in text
    assert "+DIAGONALS = ((0, 4, 8), (3, 4, 6))" in text
    data = summary(results)
    assert data["total"]["survived"] == len(data["survivors"]) - data["total"]["not_reached"]
    assert all(s["file"].endswith("rules.py") and s["line"] > 0 for s in data["survivors"])
    json.dumps(data)


def test_limits_mutants_and_time(toy: Path) -> None:
    few = mutate(spec_of(toy), (), ["rules"], max_mutants=5)
    assert len(few.verdicts) == 5 and few.total > 5
    stopped = mutate(spec_of(toy), (), ["rules"], seconds=0.001)
    assert stopped.not_run > 0 and len(stopped.verdicts) < stopped.total
    with pytest.raises(UsageError, match="max-mutants"):
        mutate(spec_of(toy), (), ["rules"], max_mutants=0)
    with pytest.raises(UsageError, match="no module 'nope' in tttmut; its modules: plugin, rules"):
        mutate(spec_of(toy), (), ["nope"])


def test_a_hanging_mutant_is_killed_by_the_timeout(toy: Path) -> None:
    rules = toy.parent / "pkgs" / "tttmut" / "rules.py"
    text = rules.read_text().replace(
        "        if cells[a] and cells[a] == cells[b] == cells[c]:",
        "        while a < 0:\n            pass\n"
        "        if cells[a] and cells[a] == cells[b] == cells[c]:",
    )
    rules.write_text(text)
    results = mutate(spec_of(toy), (), ["rules"], timeout=3.0)
    [hang] = [v for m, v in results.verdicts if m.edit.description == "condition negated"
              and "while" in results.sources[m.module].splitlines()[m.line - 1]]  # fmt: skip
    assert hang.status == "timeout"
    # the worker was replaced: later mutants still get verdicts
    assert sum(v.status == "killed" for _, v in results.verdicts) > 10


def test_a_failing_suite_is_refused_before_mutating(toy: Path) -> None:
    toy.write_text(toy.read_text().replace("winners: [1]}", "winners: [2]}", 1))
    with pytest.raises(TabletopError, match=r"fails without any mutation.*X wins on a row"):
        mutate(spec_of(toy), (), ["rules"])


# -- the operators -------------------------------------------------------------------------
def mutations(source: str) -> dict[str, str]:
    """Each kind of change → the mutated sources it made (joined)."""
    text = textwrap.dedent(source)
    found: dict[str, str] = {}
    for edit in find_edits(text):
        found[edit.description] = found.get(edit.description, "") + apply_edit(text, edit)
    return found


def test_operators_make_small_readable_changes() -> None:
    found = mutations("""
        def f(a, b, n):
            '''doc 5'''
            if a < b and n:
                return a % n + 1
            return max(a, b) if not a else -b
    """)
    assert "if a <= b and n:" in found["< → <="]
    assert "return a // n + 1" in found["% → //"]
    assert "return a % n + 2" in found["1 → 2"] and "return a % n + 0" in found["1 → 0"]
    assert "if a < b or n:" in found["and → or"]
    assert "if (n):" in found["condition dropped: a < b"]
    assert "if not (a < b and n):" in found["condition negated"]
    assert "if True:" in found["condition always true (else removed)"]
    assert "return None" in found["returns None"]
    assert "return min(a, b)" in found["max → min"]
    assert "if a < b and n:" in found["condition negated"]  # ... the other one: not a
    assert "if not (not a)" in found["condition negated"] and "doc 6" not in str(found)


def test_a_negative_literal_is_one_number() -> None:
    found = mutations("last = -1\n")
    assert found == {"-1 → 0": "last = 0\n", "unary operator removed": "last = 1\n"}


def test_strings_messages_annotations_and_pragmas_are_not_mutated() -> None:
    found = mutations("""
        X: tuple[int, int] = (1, 2)  # pragma: no mutate
        def f(a: int = 1) -> int:
            assert a > 0, "a > 0"
            if a == 3:
                raise ValueError(f"bad {a + 1}")
            return a
    """)
    assert set(found) == {
        "1 → 2", "1 → 0", "== → !=", "3 → 4", "3 → 2", "condition negated",
        "condition always true (else removed)", "condition always false (body removed)",
        "returns None",
    }  # fmt: skip
    assert "def f(a: int = 2) -> int:" in found["1 → 2"]


def test_mutants_cite_the_rules_of_their_function() -> None:
    text = textwrap.dedent('''
        """Module about K1."""
        def one(a):
            """K3.3: follow suit."""
            return a + 1

        def two(a):
            # no rule here, and 'a2' in prose is not a rule
            return a - 1

        def three(a):
            raise ValueError("K9 is not in the spec")
    ''')
    mutants = module_mutants("m", Path("m.py"), text, ["K1", "K3.3"])
    rules = {m.function: m.rules for m in mutants}
    assert rules == {"one": ("K3.3",), "two": ("K1",)}


# -- the command ---------------------------------------------------------------------------
def test_command_line_needs_a_game() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "tabletop", "test", "--mutate"], capture_output=True, text=True
    )
    assert done.returncode == 2  # a usage error
    assert "--mutate needs --game ID" in done.stderr + done.stdout
    alone = subprocess.run(
        [sys.executable, "-m", "tabletop", "test", "--max-mutants", "3"],
        capture_output=True,
        text=True,
    )
    assert alone.returncode == 2 and "go with --mutate" in alone.stderr


def test_command_line_reports_a_score_for_quarto(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "tabletop", "test", "--mutate", "--game", "quarto",
         "--module", "notation", "--max-mutants", "12", "--json"],
        capture_output=True, text=True, cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert list(data["modules"]) == ["tabletop_quarto.notation"]
    assert data["total"]["mutants"] == 12 and data["generated"] > 12
    assert data["total"]["score"] is not None


# -- attribution by the cases that failed; configuration mutants (issue 29 item 3) ---------
def test_a_kill_is_filed_under_the_rules_of_the_cases_that_failed(toy: Path) -> None:
    results = mutate(spec_of(toy), ["T1", "T2.1", "T3"], ["rules"])
    killed = [(m, v) for m, v in results.verdicts if v.status == "killed" and v.rules]
    # a mutant of three() (which cites T3 only) is killed by cases of T3 and of T2.1 too
    wider = [(m, v) for m, v in killed if m.function == "three" and "T2.1" in v.rules]
    assert wider and all(m.rules == ("T3",) for m, _ in wider)
    assert all(filed_under(m, v) == v.rules for m, v in killed)
    # a survivor stays under the rules its function cites
    assert all(filed_under(m, v) == (m.rules or (NO_RULE,)) for m, v in survivors(results))
    t21 = by_rule(results)["T2.1"]
    cited = sum("T2.1" in m.rules for m, _ in results.verdicts)
    assert t21.total > cited  # it counts the kills its case made in functions citing T3


REFUSED_COUNTS = """
  - name: one player is refused
    rules: [T1]
    players: 1
    setup_refused: for 2 players, not 1
  - name: three players are refused
    rules: [T1]
    players: 3
    setup_refused: for 2 players, not 3
"""


def test_configuration_mutants_need_cases_that_set_the_game_up(toy: Path) -> None:
    import importlib

    game = importlib.import_module("tttmut.rules").TicTacToe()
    changes = [c.describe() for c in config_changes(game)]
    assert changes == ["min_players 2 -> 1", "max_players 2 -> 3"]
    before = mutate(spec_of(toy), (), ["configuration"], game=game)
    assert before.modules == [CONFIG]
    assert [v.status for _, v in before.verdicts] == ["survived", "survived"]
    [first, _] = [m for m, _ in before.verdicts]
    assert first.diff("").startswith("configuration of ") and first.function == "GameInfo"
    toy.write_text(toy.read_text() + REFUSED_COUNTS)
    after = mutate(spec_of(toy), (), ["configuration"], game=game)
    assert [v.status for _, v in after.verdicts] == ["killed", "killed"]
    assert all(v.rules == ("T1",) for _, v in after.verdicts)
    both = mutate(spec_of(toy), (), (), max_mutants=6, game=game)
    assert CONFIG in both.modules and sum(m.module == CONFIG for m, _ in both.verdicts) == 2


def test_option_mutants_change_a_default_or_a_bound() -> None:
    from tabletop.core.registry import registry

    game = registry().get("ctverak")
    described = [c.describe() for c in config_changes(game)]
    assert 'option deck: default "full" -> "half"' in described
    assert "option min_natural: ge 1 -> 0" in described
    assert "option stall_limit: le 50 -> 51" in described
    [bound] = [c for c in config_changes(game) if c.what == "min_natural.ge"]
    [default] = [c for c in config_changes(game) if c.what == "deck"]
    original = game.info
    try:
        model = configured(game, bound).info.options
        assert model(min_natural=0).model_dump()["min_natural"] == 0  # the bound is lower now
        game.info = original
        assert configured(game, default).info.options().model_dump()["deck"] == "half"
    finally:
        game.info = original
    with pytest.raises(ValueError):
        original.options(min_natural=0)

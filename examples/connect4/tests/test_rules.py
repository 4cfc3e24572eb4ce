"""Connect Four's rules: exact positions from the README (C1-C6) and invariants over seeded
random games, the bitboards checked against a plain scan of the board."""

from __future__ import annotations

import io
import random
from typing import Any

import pytest
from rich.console import Console
from tabletop.game import ActionError, NotationError, OptionError, PositionError
from tabletop.testing import Match, coaching_of, players_of, presentation_of
from tabletop.testing import build_options as build

from tabletop_connect4.game import ConnectFourGame
from tabletop_connect4.rules import ConnectFourOptions, State, has_line, threats

OPTIONS = ConnectFourOptions()
EMPTY_ROW = "......."


def board(*rows: str) -> dict[str, Any]:
    """A position JSON from the bottom rows given (top first), padded with empty rows."""
    return {"board": [EMPTY_ROW] * (6 - len(rows)) + list(rows)}


def state_of(game: ConnectFourGame, *rows: str, options: ConnectFourOptions = OPTIONS) -> State:
    data = board(*rows) if options == OPTIONS else {"board": list(rows)}
    return game.from_json(data, 2, options, 0)


def played(game: ConnectFourGame, *texts: str, options: ConnectFourOptions = OPTIONS) -> Match:
    match = Match(game, 2, options, 0)
    match.play_all(texts)
    return match


# -- C2 dropping -------------------------------------------------------------------------------
def test_c2_2_discs_stack_from_the_bottom_of_a_column(game: ConnectFourGame) -> None:
    match = played(game, "drop 3", "drop 3", "drop 3")
    assert game.to_json(match.state)["board"][-3:] == ["..X....", "..O....", "..X...."]
    assert match.to_act() == 2


def test_c2_3_a_full_column_is_refused_with_the_rule(game: ConnectFourGame) -> None:
    match = played(game, *["drop 7"] * 6)
    assert 6 not in game.legal(match.state)
    full = r"column 7 is full; drop into a column with room \(C2\.3\)"
    with pytest.raises(ActionError, match=full) as info:
        match.play("drop 7")
    assert "allowed: drop 1, drop 2" in str(info.value)
    assert len(match.actions) == 6


def test_apply_leaves_its_input_alone(game: ConnectFourGame) -> None:
    before = game.new(2, OPTIONS, 0)
    after = game.apply(before, 3)
    assert before == game.new(2, OPTIONS, 0)
    assert (before.x, after.x, after.moves) == (0, 1 << (3 * 7), 1)


# -- C3, C4 the end -----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("rows", "column", "line"),
    [
        (("OOO....", "XXX...."), 3, [[1, 1], [2, 1], [3, 1], [4, 1]]),
        (("X......", "XO.....", "XO.....", "XOO...."), 0, None),  # O to act: X made it
        (("..XO...", ".XOX...", "XOOO.X."), 3, [[1, 1], [2, 2], [3, 3], [4, 4]]),
    ],
    ids=["across", "up-is-refused-as-already-won", "diagonal"],
)
def test_c3_1_lines_in_every_direction(
    game: ConnectFourGame, rows: tuple[str, ...], column: int, line: list[list[int]] | None
) -> None:
    if line is None:
        with pytest.raises(PositionError, match="the other player dropped after it"):
            state_of(game, *rows)
        return
    state = state_of(game, *rows)
    assert game.outcome(state) is None
    after = game.apply(state, column)
    outcome = game.outcome(after)
    assert outcome is not None and outcome.winners == (1,)
    assert "(C3.1)" in outcome.reason
    assert game.view(after, None)["line"] == line
    assert game.legal(after) == () and game.to_act(after) is None


def test_c3_1_vertical_line_for_o(game: ConnectFourGame) -> None:
    match = played(game, "1", "2", "1", "2", "1", "2", "3", "2")
    outcome = match.outcome()
    assert outcome is not None and outcome.winners == (2,)
    assert outcome.reason.endswith("from column 2 row 1 to column 2 row 4 (C3.1)")


def test_c4_1_a_full_board_without_a_line_is_a_draw(game: ConnectFourGame) -> None:
    rows = ["OXO.XOX", "XOXXXOO", "OXOOOXX", "XOOXXXO", "OXXXOOO", "OXOOXXX"]
    state = game.from_json({"board": rows}, 2, OPTIONS, 0)
    assert game.legal(state) == (3,) and game.to_act(state) == 2
    after = game.apply(state, 3)
    outcome = game.outcome(after)
    assert outcome is not None and outcome.winners == ()
    assert "draw (C4.1)" in outcome.reason
    assert game.refusal(after, 3).startswith("the game is over")


# -- position JSON: only what can arise ----------------------------------------------------------
@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([], "a position is an object"),
        ({"board": [EMPTY_ROW] * 5}, "list of 6 rows"),
        ({"board": [EMPTY_ROW] * 5 + ["X"]}, "row 1 must be a string of 7"),
        ({"board": [EMPTY_ROW] * 5 + ["x......"]}, "row 1 column 1: 'x' is not X, O or ."),
        (board("X......", "......."), "column 1: the disc in row 2 floats"),
        (board("XX....."), "X has 2 discs and O 0"),
        (board("O......"), "X has 0 discs and O 1"),
        (board("XXXX...", "OOOO..."), "both have a line"),
        ({**board("X......"), "to_act": 1}, "to_act must be 2"),
        ({**board(), "pieces": 3}, "unknown key 'pieces'"),
        ({**board(), "connect": 5}, "connect must be 4"),
        # two separate lines of X: no single last disc made both
        (board("X.....X", "XO....X", "XOO...X", "XOO.OOX"), "not all made by one last disc"),
    ],
)
def test_impossible_positions_are_refused(game: ConnectFourGame, data: Any, message: str) -> None:
    with pytest.raises(PositionError, match=message.replace(".", r"\.").replace("(", r"\(")):
        game.from_json(data, 2, OPTIONS, 0)


def test_a_line_made_by_one_disc_through_two_directions_is_accepted(game: ConnectFourGame) -> None:
    # X's last disc (column 1, row 1) completed a row and a diagonal at once.
    state = state_of(game, "...X...", "..XOO..", ".XOOOX.", "XXXXOO.")
    outcome = game.outcome(state)
    assert outcome is not None and outcome.winners == (1,)


# -- C5 notation, C6 options ----------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "column"), [("drop 4", 3), ("4", 3), ("DROP 1", 0), ("  drop   7 ", 6)]
)
def test_c5_1_notation(game: ConnectFourGame, text: str, column: int) -> None:
    state = game.new(2, OPTIONS, 0)
    assert game.parse(state, text) == column
    assert game.format(state, column) == f"drop {column + 1}"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "unknown action ''; actions are drop <column>"),
        ("drop", "drop needs a column"),
        ("drop 0", "there is no column 0: columns are 1-7 (C1.1)"),
        ("8", "there is no column 8"),
        ("drop x", "'x' is not a column number"),
        ("drop 4 5", "unknown action 'drop 4 5'"),
        ("drop ٣", "is not a column number"),  # an Arabic-Indic digit is not a column
    ],
)
def test_c5_1_bad_notation_says_what_is_allowed(
    game: ConnectFourGame, text: str, message: str
) -> None:
    with pytest.raises(NotationError, match=message.replace("(", r"\(").replace(")", r"\)")):
        game.parse(game.new(2, OPTIONS, 0), text)


def test_c6_1_options_change_the_board_and_the_line(game: ConnectFourGame) -> None:
    options = build(ConnectFourOptions, {"columns": "9", "rows": "7", "connect": "5"}, "connect4")
    assert isinstance(options, ConnectFourOptions)
    match = played(game, "1", "1", "2", "2", "3", "3", "4", "4", options=options)
    assert match.outcome() is None  # four across is not enough
    assert game.legal(match.state) == tuple(range(9))
    match.play("drop 5")
    outcome = match.outcome()
    assert outcome is not None and outcome.winners == (1,) and outcome.reason.startswith("5 in")
    assert game.info.max_actions(2, options) == 63


def test_c6_1_a_line_that_does_not_fit_is_refused() -> None:
    with pytest.raises(OptionError, match=r"option 'connect'.*does not fit on this board"):
        build(ConnectFourOptions, {"columns": "4", "rows": "5", "connect": "6"}, "connect4")
    with pytest.raises(OptionError, match="option 'columns'"):
        build(ConnectFourOptions, {"columns": "11"}, "connect4")


# -- invariants over seeded random games ----------------------------------------------------
def naive_line(rows: list[str], mark: str, connect: int) -> bool:
    """A line of ``connect`` marks, by scanning the picture of the board."""
    height, width = len(rows), len(rows[0])
    for r in range(height):
        for c in range(width):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = [(r + dr * i, c + dc * i) for i in range(connect)]
                if all(0 <= y < height and 0 <= x < width for y, x in cells) and all(
                    rows[y][x] == mark for y, x in cells
                ):
                    return True
    return False


@pytest.mark.parametrize(
    "options",
    [
        OPTIONS,
        ConnectFourOptions(columns=4, rows=4, connect=3),
        ConnectFourOptions(columns=10),
        ConnectFourOptions(columns=9, rows=7, connect=5),
    ],
    ids=["7x6", "4x4-connect3", "10x6", "9x7-connect5"],
)
def test_bitboards_agree_with_a_scan_of_the_board(game: ConnectFourGame, options: Any) -> None:
    rng = random.Random(2024)
    positions = 0
    for seed in range(60):
        state = game.new(2, options, seed)
        while True:
            rows = game.to_json(state)["board"]
            columns = len(rows[0])
            not_full = tuple(c for c in range(columns) if rows[0][c] == ".")
            x_line = naive_line(rows, "X", options.connect)
            o_line = naive_line(rows, "O", options.connect)
            assert has_line(state.x, state.geo) == x_line
            assert has_line(state.o, state.geo) == o_line
            over = x_line or o_line or not not_full
            assert game.legal(state) == (() if over else not_full)
            positions += 1
            if over:
                break
            column = rng.choice(game.legal(state))
            state = game.apply(state, column)
    assert positions > 60 * 8


def test_evaluate_is_a_zero_sum_judgement(game: ConnectFourGame) -> None:
    rng = random.Random(7)
    for seed in range(40):
        state = game.new(2, OPTIONS, seed)
        while game.legal(state):
            one, two = players_of(game).evaluate(state, 1), players_of(game).evaluate(state, 2)
            assert one is not None and two is not None
            assert 0.0 <= one <= 1.0 and abs(one + two - 1.0) < 1e-9
            state = game.apply(state, rng.choice(game.legal(state)))


def test_evaluate_sees_a_win_in_one_and_a_double_threat(game: ConnectFourGame) -> None:
    win_next = state_of(game, "OOO....", "XXX....")  # X to act, drop 4 wins
    assert players_of(game).evaluate(win_next, 1) == pytest.approx(0.98)
    double = state_of(game, "..OO...", ".XXX...")  # O to act cannot block both 1 and 5
    assert threats(double.x, double.o, double.geo).bit_count() == 2
    assert players_of(game).evaluate(double, 2) == pytest.approx(0.04)
    assert players_of(game).evaluate(double, 1) == pytest.approx(0.96)
    quiet = game.new(2, OPTIONS, 0)
    assert players_of(game).evaluate(quiet, 1) == pytest.approx(0.5)
    centre, edge = game.apply(quiet, 3), game.apply(quiet, 0)
    assert players_of(game).evaluate(centre, 1) > players_of(game).evaluate(edge, 1) > 0.5  # type: ignore[operator]


def test_hint_wins_blocks_and_warns(game: ConnectFourGame) -> None:
    def hint(state: State) -> str:
        player = game.to_act(state)
        assert player is not None
        said = coaching_of(game).hint(game.view(state, player), player, OPTIONS)
        assert said is not None
        return said

    assert hint(state_of(game, "OOO....", "XXX....")) == "drop 4 connects 4 and wins now (C3.1)"
    assert hint(state_of(game, "OO.....", "XXX....")) == (
        "X threatens to connect 4 in column 4: drop there"
    )
    assert hint(state_of(game, "..OO...", ".XXX...")) == (
        "X threatens to connect in columns 1 and 5: you can block only one"
    )
    assert hint(state_of(game, "OOO....", "XXO.XX.")) == (
        "no threat now; avoid column 4: O would win on top of your disc"
    )
    assert hint(game.new(2, OPTIONS, 0)).startswith("no threat now")


def test_render_draws_the_board_from_the_view(game: ConnectFourGame) -> None:
    def text(view: dict[str, Any], player: int | None) -> str:
        out = io.StringIO()
        Console(file=out, width=60, color_system=None).print(
            presentation_of(game).render(view, player)
        )
        return out.getvalue()

    match = played(game, "1", "1", "2", "2", "3", "3", "4")
    lines = text(game.view(match.state, 1), 1).splitlines()
    assert lines[0].split() == ["1", "2", "3", "4", "5", "6", "7"]
    assert lines[-1].split() == ["●", "●", "●", "●", "·", "·", "·"]
    assert lines[-2].split() == ["●", "●", "●", "·", "·", "·", "·"]
    start = text(game.view(game.new(2, OPTIONS, 0), None), None)
    assert "player 1 (red ●) to drop; 4 in a row wins" in start


def test_rules_text_is_the_readme(game: ConnectFourGame) -> None:
    text = presentation_of(game).rules_text()
    assert text.startswith("# Connect Four") and "drop 4" in text

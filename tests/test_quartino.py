"""Quartino rules beyond the scenario file: enumerations over rotations, start checks,
refusal wordings and setups, as exact positions. The conformance cases N8.1–N8.8 and
each rule's plain statement live in ``plugins/quartino/scenarios/quartino.yaml``.
Positions are written compactly (``"c:P r5:Y r3:GGBGP"``: field, then colours bottom to
top) and read through ``from_json``; case tables are plain lists of tuples."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tabletop_quartino.cards import COLOURS, FIELDS, deck
from tabletop_quartino.game import QuartinoGame
from tabletop_quartino.legacy import dealt_as_before
from tabletop_quartino.rules import END_TURN, Action, QuartinoOptions, State, claim_fields

GAME = QuartinoGame()


def board_of(text: str) -> dict[str, list[str]]:
    """``"c:P r1:BG"`` -> ``{"c": ["P"], "r1": ["B", "G"]}``."""
    board: dict[str, list[str]] = {}
    for item in text.split():
        field, _, colours = item.partition(":")
        board[field] = list(colours)
    return board


def position(
    board: str,
    stands: dict[int, list[str]],
    *,
    done: dict[int, list[str]] | None = None,
    to_act: int | None = 1,
    owed: int | None = 0,
    players: int = 2,
) -> dict[str, Any]:
    """A position JSON (N9); the supply is what the board leaves of the 7 per colour."""
    b = board_of(board)
    held = {code for cards in [*stands.values(), *(done or {}).values()] for code in cards}
    spare = iter(code for code in deck().codes if code not in held)
    stands = {  # N2.1: every player was dealt cards; one the test does not care about
        p: stands.get(p) or ([] if (done or {}).get(p) else [next(spare)])
        for p in range(1, players + 1)
    }
    on_board = {c: sum(stack.count(c) for stack in b.values()) for c in COLOURS}
    data: dict[str, Any] = {
        "board": b,
        "supply": {c: 7 - on_board[c] for c in COLOURS},
        "stands": {str(p): stands.get(p, []) for p in range(1, players + 1)},
        "done": {str(p): (done or {}).get(p, []) for p in range(1, players + 1)},
        "to_act": to_act,
    }
    if owed is not None:
        data["owed"] = owed
    return data


def load(data: dict[str, Any], players: int = 2, **options: Any) -> State:
    return GAME.from_json(data, players, QuartinoOptions(**options), seed=0)


def act(state: State, text: str) -> State:
    """Apply an action given in notation, checking it is legal first."""
    action = GAME.parse(state, text)
    assert action in GAME.legal(state), (text, GAME.refusal(state, action))
    return GAME.apply(state, action)


def tops(state: State) -> str:
    """The board again in the compact form (for comparing whole boards)."""
    return " ".join(
        f"{FIELDS[f]}:{''.join(COLOURS[c] for c in stack)}"
        for f, stack in enumerate(state.board)
        if stack
    )


# ---------------------------------------------------------------- N8.2 wrap-around, N3.2

WRAP_CASES = [
    # board, card, k that matches (the only one)
    ("c:G r7:Y r0:B r1:P", "G|YBP", 7),  # N8.2
    ("c:G r6:Y r7:B r0:P", "G|YBP", 6),
    ("c:Y r0:B r1:G r2:P", "Y|BGP", 0),
    ("c:B r5:P r6:G r7:Y", "B|PGY", 5),
]


@pytest.mark.parametrize(("board", "card", "k"), WRAP_CASES)
def test_n8_2_wrap_around_rotations(board: str, card: str, k: int) -> None:
    s = load(position(board, {1: [card, "P|GBY"], 2: []}))
    code = GAME.parse(s, f"claim {card} 0").a
    assert [j for j in range(8) if claim_fields(s.board, code, j, False)] == [k]
    after = act(s, f"claim {card} {k}")
    assert after.board == ((),) * 9
    assert after.supply == (7, 7, 7, 7)


# ---------------------------------------------------------------- N8.3 mirror, N3.2


def test_n8_3_mirror_image_does_not_match_by_default() -> None:
    data = position("c:P r0:G r1:B r2:Y", {1: ["P|YBG", "Y|BGP"], 2: ["B|YGP"]})
    plain = load(data)
    assert not any(claim_fields(plain.board, 18, k, False) for k in range(8))
    after = act(plain, "claim P|YBG 2")  # legal but false: the turn passes (N4.4)
    assert after.to_act == 2 and after.turns == 1
    assert GAME.to_json(after)["stands"]["1"] == ["Y|BGP", "P|YBG"]
    assert tops(after) == "c:P r0:G r1:B r2:Y"


# ---------------------------------------------------------------- N4.1 start check, N8.5, N8.6

START_CASES = [
    # board at the start of the turn, board after the check, owed, columns, four colours
    ("r3:GGBGP r5:G", "r5:G", 3, ["r3"], ["G"]),  # N8.5: both, greens counted before removal
    ("r0:YYBB r1:GGPP", "", 2, ["r0", "r1"], []),  # N8.6: two columns, still only +1
    ("r0:GY r1:GY r2:GY r3:G", "r0:GY r1:GY r2:GY r3:G", 2, [], ["G"]),  # buried greens count
    ("r0:YBG r1:PYB", "r0:YBG r1:PYB", 1, [], []),  # nothing: 1 placement
    ("c:YYYYYYY", "", 3, ["c"], ["Y"]),  # 7 yellows in one column
    ("r0:YYYB r1:YYYB r2:BPG", "r2:BPG", 3, ["r0", "r1"], ["Y"]),  # both, two columns
    ("r0:YYYB r1:BBGP", "", 2, ["r0", "r1"], []),  # only 3 Y and 3 B: no four colours
]


@pytest.mark.parametrize(("board", "left", "owed", "columns", "colours"), START_CASES)
def test_n4_1_start_check_from_position_without_owed(
    board: str, left: str, owed: int, columns: list[str], colours: list[str]
) -> None:
    s = load(position(board, {1: ["P|YBG"], 2: ["Y|BGP"]}, owed=None))
    assert tops(s) == left
    assert s.owed == owed and s.to_act == 1
    assert sum(s.supply) + sum(len(st) for st in s.board) == 28
    check = GAME.view(s, None)["check"]
    assert (check["column"], check["four_colours"], check["owed"]) == (columns, colours, owed)
    assert check["player"] == 1


def test_n8_5_start_check_runs_when_the_turn_passes() -> None:
    s = load(position("r3:GGBGP r5:G", {1: ["P|YBG"], 2: ["Y|BGP"]}, to_act=2, owed=0))
    after = GAME.apply(s, END_TURN)
    assert after.to_act == 1 and after.owed == 3 and after.turns == 1
    assert tops(after) == "r5:G"
    assert after.supply == (7, 7, 6, 7)
    text = GAME.view(after, 1)["check"]["text"]
    assert text == "column: r3 emptied; four colours (G); 3 placements owed"
    assert GAME.prompt(after) == "place a pawn (3 of 3 owed)"
    after = act(after, "place Y r0")
    assert GAME.prompt(after) == "place a pawn (2 of 3 owed)"


# ---------------------------------------------------------------- N4.2 placements, N8.8


def test_placements_owed_one_at_a_time_on_any_field_any_height() -> None:
    s = load(position("r0:YBG", {1: ["P|YBG"], 2: ["Y|BGP"]}, owed=3))
    assert len(GAME.legal(s)) == 36  # 4 colours × 9 fields
    s = act(s, "place P r0")
    s = act(s, "place P r0")
    assert (tops(s), s.owed) == ("r0:YBGPP", 1)
    assert GAME.parse(s, "end") not in GAME.legal(s)
    assert GAME.refusal(s, END_TURN)== "1 placement still owed before the turn can end (N4.5, N4.2)"


def test_whole_supply_empty_at_turn_start_in_learning_variant() -> None:
    full = "c:YYYY r0:YYY r1:BBB r2:BBBB r3:GGG r4:GGGG r5:PPP r6:PPPP"
    s = load(position(full, {1: ["P|YBG"], 2: ["Y|BGP"]}, owed=None), situations=False)
    assert s.owed == 0 and s.check is not None and s.check.lapsed
    assert GAME.legal(s)[0] == END_TURN
    assert GAME.prompt(s) == "claim a card or end the turn"


# ---------------------------------------------------------------- N4.3 chains, N5.1 end


def test_fourth_card_ends_the_game_at_once_without_placement() -> None:
    s = load(
        position(
            "c:P r5:Y r6:B r7:G r0:B",
            {1: ["P|YBG"], 2: ["Y|BGP"]},
            done={1: ["Y|PGB", "B|GPY", "G|BYP"]},
        )
    )
    s = act(s, "claim P|YBG 5")
    assert GAME.outcome(s) is not None and GAME.outcome(s) == (
        (1,),
        "player 1 completed their cards (N5.1)",
        "completed",
    )
    assert GAME.legal(s) == () and GAME.to_act(s) is None
    assert GAME.prompt(s) == "the game is over"
    assert tops(s) == "r0:B" and s.owed == 0
    assert GAME.refusal(s, GAME.parse(s, "place Y c")) == "the game is over (N5)"


# ---------------------------------------------------------------- N4.4 false claims, refusals


REFUSALS = [
    # board, owed, action, refusal
    (
        "c:P",
        0,
        "claim B|YGP 0",
        "B|YGP is not on your stand; you may claim only your own cards (N4.4)",
    ),
    ("c:P", 0, "claim G|YBP 3", "G|YBP is already done; claim a card still on your stand (N4.4)"),
    ("c:P", 2, "claim P|YBG 0", "2 placements still owed; claim after placing (N4.4, N4.2)"),
    ("c:P", 1, "end", "1 placement still owed before the turn can end (N4.5, N4.2)"),
    (
        "c:P",
        0,
        "place Y r1",
        "no placement is owed now; claim a card of yours or end the turn (N4.2)",
    ),
]


@pytest.mark.parametrize(("board", "owed", "text", "reason"), REFUSALS)
def test_refusals_cite_the_rule(board: str, owed: int, text: str, reason: str) -> None:
    s = load(position(board, {1: ["P|YBG", "Y|BGP"], 2: ["B|YGP"]}, done={1: ["G|YBP"]}, owed=owed))
    action = GAME.parse(s, text)
    assert action not in GAME.legal(s)
    assert GAME.refusal(s, action) == reason


def test_every_non_legal_action_gets_a_rule_refusal() -> None:
    s = load(position("c:P r0:YYY r1:YYY r2:Y", {1: ["P|YBG"], 2: ["Y|BGP"]}, owed=0))
    every = [Action(0, c, f) for c in range(4) for f in range(9)]
    every += [Action(1, card, k) for card in range(24) for k in range(8)] + [END_TURN]
    for state in (s, act(s, "end")):
        legal = set(GAME.legal(state))
        for a in every:
            if a not in legal:
                assert re.search(r"\((N4\.|N5)[^()]*\)$", GAME.refusal(state, a)), a


# ---------------------------------------------------------------- N5.2 max turns


def test_max_turns_draw() -> None:
    s = dealt_as_before(3, QuartinoOptions(max_turns=3), seed=1)
    for turn in range(3):
        assert GAME.outcome(s) is None
        while s.owed:
            s = GAME.apply(s, GAME.legal(s)[0])
        s = act(s, "end")
        assert s.turns == turn + 1
    assert GAME.outcome(s) == ((), "a draw: 3 turns ended without a winner (N5.2)", "turn-limit")
    assert GAME.legal(s) == ()


# ---------------------------------------------------------------- N2 setup


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_deals_four_hidden_cards_each(players: int) -> None:
    s = dealt_as_before(players, QuartinoOptions(), seed=42)
    cards = [c for stand in s.stands for c in stand]
    assert all(len(stand) == 4 for stand in s.stands)
    assert len(set(cards)) == 4 * players
    assert s.board == ((),) * 9 and s.supply == (7, 7, 7, 7)
    assert s.to_act == 1 and s.done == ((),) * players
    spectator = GAME.view(s, None)
    assert "out_of_play" not in spectator and "stands" not in spectator
    assert dealt_as_before(players, QuartinoOptions(), seed=42) == s
    assert dealt_as_before(players, QuartinoOptions(), seed=43).stands != s.stands


def test_start_by_lot_is_seeded() -> None:
    starters = {dealt_as_before(4, QuartinoOptions(start="lot"), seed=i).to_act for i in range(40)}
    assert starters == {1, 2, 3, 4}
    again = [dealt_as_before(4, QuartinoOptions(start="lot"), seed=i).to_act for i in range(10)]
    lot = QuartinoOptions(start="lot")
    assert again == [dealt_as_before(4, lot, seed=i).to_act for i in range(10)]

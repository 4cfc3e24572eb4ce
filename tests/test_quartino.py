"""Quartino rules: the conformance cases N8.1–N8.8 and the rules around them, as exact
positions. Positions are written compactly (``"c:P r5:Y r3:GGBGP"``: field, then colours
bottom to top) and read through ``from_json``; case tables are plain lists of tuples."""

from __future__ import annotations

from typing import Any

import pytest

from tabletop.errors import ActionError
from tabletop.match import Match
from tabletop_quartino.cards import COLOURS, FIELDS
from tabletop_quartino.game import QuartinoGame, QuartinoOptions
from tabletop_quartino.rules import END_TURN, Action, State, claim_fields

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


# ---------------------------------------------------------------- N8.1 true claim, N4.3


def test_n8_1_true_claim_empties_fields_returns_pawns_and_owes_one() -> None:
    s = load(position("c:P r5:Y r6:B r7:G r0:Y", {1: ["P|YBG", "Y|BGP"], 2: ["B|YGP"]}))
    assert s.supply == (5, 6, 6, 6)
    after = act(s, "claim P|YBG 5")
    assert tops(after) == "r0:Y"
    assert after.supply == (6, 7, 7, 7)  # one of each colour back
    assert GAME.to_json(after)["done"] == {"1": ["P|YBG"], "2": []}
    assert GAME.to_json(after)["stands"]["1"] == ["Y|BGP"]
    assert (after.to_act, after.owed, after.turns) == (1, 1, 0)
    assert GAME.prompt(after) == "place a pawn (1 of 1 owed)"
    assert all(a.kind == 0 for a in GAME.legal(after))  # only placements now


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


def test_n8_3_mirror_option_matches_turned_over_card() -> None:
    s = load(position("c:P r0:G r1:B r2:Y", {1: ["P|YBG", "Y|BGP"], 2: []}), mirror=True)
    after = act(s, "claim P|YBG 2")
    assert after.board == ((),) * 9
    assert (after.to_act, after.owed) == (1, 1)
    assert GAME.to_json(after)["done"]["1"] == ["P|YBG"]


def test_mirror_plain_reading_first_when_both_match_at_same_k() -> None:
    # P|YBG at k=3: plain r3 r4 r5 = Y B G; mirrored r3 r2 r1 = Y B G.
    s = load(position("c:P r1:G r2:B r3:Y r4:B r5:G", {1: ["P|YBG", "Y|BGP"]}), mirror=True)
    after = act(s, "claim P|YBG 3")
    assert tops(after) == "r1:G r2:B"  # the plain fields were taken


def test_mirror_reading_used_when_only_it_matches() -> None:
    s = load(position("c:P r1:G r2:B r3:Y r4:P", {1: ["P|YBG", "Y|BGP"]}), mirror=True)
    after = act(s, "claim P|YBG 3")
    assert tops(after) == "r4:P"


# ---------------------------------------------------------------- N8.4 buried pawns, N3.1


def test_n8_4_only_top_pawns_count() -> None:
    s = load(position("c:Y r0:P r1:BG r2:B", {1: ["Y|PGB", "Y|PBG", "G|BYP"]}))
    assert claim_fields(s.board, GAME.parse(s, "claim Y|PGB 0").a, 0, False) == (0, 1, 2, 3)
    # Y|PBG would need B on r1: the B there is buried under G.
    false = act(s, "claim Y|PBG 0")
    assert false.to_act == 2
    true = act(s, "claim Y|PGB 0")
    assert tops(true) == "r1:B"  # only the top G left r1
    assert true.supply == (7 - 1 + 1, 7 - 2 + 1, 7 - 1 + 1, 7 - 1 + 1)


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


def test_situations_made_during_a_turn_wait_for_the_next_turn() -> None:
    # N4.5: a column built now is judged at the start of the next player's turn.
    s = load(position("r0:YYY", {1: ["P|YBG"], 2: ["Y|BGP"]}, owed=1))
    s = act(s, "place Y r0")
    assert len(s.board[1]) == 4 and s.owed == 0
    s = act(s, "end")
    assert (s.to_act, s.owed, s.board[1]) == (2, 3, ())


def test_learning_variant_has_no_check() -> None:
    s = load(position("r3:GGBGP r5:G", {1: ["P|YBG"], 2: ["Y|BGP"]}, owed=None), situations=False)
    assert tops(s) == "r3:GGBGP r5:G" and s.owed == 1
    assert GAME.view(s, 1)["check"]["situations"] is False


def test_first_turn_gets_the_start_check() -> None:
    s = GAME.new(2, QuartinoOptions(), seed=5)
    assert (s.to_act, s.owed, s.batch) == (1, 1, 1)
    assert s.check is not None and s.check.player == 1


# ---------------------------------------------------------------- N4.2 placements, N8.8


def test_n8_8_placing_an_exhausted_colour_is_refused_and_nothing_changes() -> None:
    data = position("r0:YYY r1:YYY r2:Y", {1: ["P|YBG"], 2: ["Y|BGP"]}, owed=1)
    s = load(data)
    assert s.supply[0] == 0
    action = GAME.parse(s, "place Y c")
    assert action not in GAME.legal(s)
    assert GAME.refusal(s, action) == "N4.2: no yellow pawn left in the supply"
    match = Match(GAME, 2, QuartinoOptions(), 0, start=data)
    before = match.state
    with pytest.raises(ActionError, match=r"N4\.2: no yellow pawn left"):
        match.play("place y C")
    assert match.state is before and match.actions == []
    match.play("place B c")
    assert match.state.owed == 0


def test_placements_owed_one_at_a_time_on_any_field_any_height() -> None:
    s = load(position("r0:YBG", {1: ["P|YBG"], 2: ["Y|BGP"]}, owed=3))
    assert len(GAME.legal(s)) == 36  # 4 colours × 9 fields
    s = act(s, "place P r0")
    s = act(s, "place P r0")
    assert (tops(s), s.owed) == ("r0:YBGPP", 1)
    assert GAME.parse(s, "end") not in GAME.legal(s)
    assert GAME.refusal(s, END_TURN).startswith("N4.5: 1 placement still owed")


def test_whole_supply_empty_mid_turn_lapses_owed_placements() -> None:
    full = "c:YYY r0:YYY r1:YBB r2:BBB r3:BBG r4:GGG r5:GGG r6:PPP r7:PPP"
    s = load(position(full, {1: ["P|YBG"], 2: ["Y|BGP"]}, owed=2))
    assert s.supply == (0, 0, 0, 1)
    s = act(s, "place P c")
    assert s.supply == (0, 0, 0, 0) and s.owed == 0  # the second placement lapses
    assert END_TURN in GAME.legal(s)


def test_whole_supply_empty_at_turn_start_in_learning_variant() -> None:
    full = "c:YYYY r0:YYY r1:BBB r2:BBBB r3:GGG r4:GGGG r5:PPP r6:PPPP"
    s = load(position(full, {1: ["P|YBG"], 2: ["Y|BGP"]}, owed=None), situations=False)
    assert s.owed == 0 and s.check is not None and s.check.lapsed
    assert GAME.legal(s)[0] == END_TURN
    assert GAME.prompt(s) == "claim a card or end the turn"


def test_colour_running_out_narrows_placements() -> None:
    s = load(position("r0:GGG r1:GGG r2:G", {1: ["P|YBG"], 2: ["Y|BGP"]}, owed=1))
    colours = {a.a for a in GAME.legal(s)}
    assert colours == {0, 1, 3}


# ---------------------------------------------------------------- N4.3 chains, N5.1 end


def test_chain_of_claims_with_placement_between() -> None:
    s = load(
        position(
            "c:YP r5:Y r6:B r7:G r0:P r2:B",
            {1: ["P|YBG", "Y|PGB", "B|GPY"], 2: ["G|YBP"]},
        )
    )
    s = act(s, "claim P|YBG 5")
    assert s.owed == 1
    early = GAME.parse(s, "claim Y|PGB 0")  # N4.4: not while a placement is owed
    assert early not in GAME.legal(s)
    assert GAME.refusal(s, early).startswith("N4.4: 1 placement still")
    s = act(s, "place G r1")
    s = act(s, "claim Y|PGB 0")
    assert GAME.to_json(s)["done"]["1"] == ["P|YBG", "Y|PGB"]
    assert (s.to_act, s.owed, s.board) == (1, 1, ((),) * 9)


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
        "N5.1: player 1 completed their cards",
    )
    assert GAME.legal(s) == () and GAME.to_act(s) is None
    assert GAME.prompt(s) == "the game is over"
    assert tops(s) == "r0:B" and s.owed == 0
    assert GAME.refusal(s, GAME.parse(s, "place Y c")) == "N5: the game is over"


# ---------------------------------------------------------------- N4.4 false claims, refusals


def test_n8_7_false_claim_keeps_card_and_passes_turn() -> None:
    s = load(position("c:P r5:Y r6:B r7:G", {1: ["P|YBG", "Y|BGP"], 2: ["B|YGP"]}))
    action = GAME.parse(s, "claim P|YBG 4")
    assert action in GAME.legal(s)  # a false claim is a legal action, not an error
    after = GAME.apply(s, action)
    assert GAME.to_json(after)["stands"]["1"] == ["Y|BGP", "P|YBG"]
    assert GAME.to_json(after)["done"]["1"] == []
    assert tops(after) == tops(s)
    assert (after.to_act, after.turns, after.owed) == (2, 1, 1)


REFUSALS = [
    # board, owed, action, refusal
    (
        "c:P",
        0,
        "claim B|YGP 0",
        "N4.4: B|YGP is not on your stand; you may claim only your own cards",
    ),
    ("c:P", 0, "claim G|YBP 3", "N4.4: G|YBP is already done; claim a card still on your stand"),
    ("c:P", 2, "claim P|YBG 0", "N4.4: 2 placements still owed; claim after placing (N4.2)"),
    ("c:P", 1, "end", "N4.5: 1 placement still owed before the turn can end (N4.2)"),
    (
        "c:P",
        0,
        "place Y r1",
        "N4.2: no placement is owed now; claim a card of yours or end the turn",
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
                assert GAME.refusal(state, a).startswith(("N4.", "N5")), a


# ---------------------------------------------------------------- N5.2 max turns


def test_max_turns_draw() -> None:
    s = GAME.new(3, QuartinoOptions(max_turns=3), seed=1)
    for turn in range(3):
        assert GAME.outcome(s) is None
        while s.owed:
            s = GAME.apply(s, GAME.legal(s)[0])
        s = act(s, "end")
        assert s.turns == turn + 1
    assert GAME.outcome(s) == ((), "N5.2: a draw, 3 turns ended without a winner")
    assert GAME.legal(s) == ()


def test_max_turns_counted_from_a_from_position() -> None:
    data = position("c:P", {1: ["P|YBG"], 2: ["Y|BGP"]}, owed=0)
    s = load(data, max_turns=2)
    s = act(s, "end")
    assert GAME.outcome(s) is None
    s = act(act(s, "place Y r0"), "end")
    assert GAME.outcome(s) == ((), "N5.2: a draw, 2 turns ended without a winner")


def test_false_claim_counts_as_a_turn_for_max_turns() -> None:
    s = load(position("", {1: ["P|YBG"], 2: ["Y|BGP"]}), max_turns=1)
    s = act(s, "claim P|YBG 0")
    assert GAME.outcome(s) == ((), "N5.2: a draw, 1 turns ended without a winner")


# ---------------------------------------------------------------- N2 setup


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_deals_four_hidden_cards_each(players: int) -> None:
    s = GAME.new(players, QuartinoOptions(), seed=42)
    cards = [c for stand in s.stands for c in stand]
    assert all(len(stand) == 4 for stand in s.stands)
    assert len(set(cards)) == 4 * players
    assert s.board == ((),) * 9 and s.supply == (7, 7, 7, 7)
    assert s.to_act == 1 and s.done == ((),) * players
    spectator = GAME.view(s, None)
    assert "out_of_play" not in spectator and "stands" not in spectator
    assert GAME.new(players, QuartinoOptions(), seed=42) == s
    assert GAME.new(players, QuartinoOptions(), seed=43).stands != s.stands


def test_start_by_lot_is_seeded() -> None:
    starters = {GAME.new(4, QuartinoOptions(start="lot"), seed=i).to_act for i in range(40)}
    assert starters == {1, 2, 3, 4}
    again = [GAME.new(4, QuartinoOptions(start="lot"), seed=i).to_act for i in range(10)]
    assert again == [GAME.new(4, QuartinoOptions(start="lot"), seed=i).to_act for i in range(10)]

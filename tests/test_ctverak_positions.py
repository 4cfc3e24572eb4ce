"""Čtverák at its edges: position JSON (K10), views and hidden information (K8), notation (K7)."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

from tabletop.core.errors import NotationError, PositionError
from tabletop.core.match import Match
from tabletop.core.presentation import presentation_of
from tabletop_ctverak.cards import card_code, deck_counts, parse_card
from tabletop_ctverak.rules import (
    ADD,
    DEAL_CARD,
    DISCARD,
    DRAW,
    END,
    MELD,
    MELD_STEP,
    OVER,
    REFILL,
    TAKE,
    CtverakOptions,
)
from tests.test_ctverak import GAME, cards, new, play, position, position_json, settle, total

# ---------------------------------------------------------------- K10 refusals


def base_json() -> dict[str, Any]:
    return position_json(
        {1: "7S 7H KD 3C", 2: "2C 4D 6H 8S"}, melds={1: ["9S 9H X"]}, piles=("5D", "", "", "")
    )


def edit(path: str, value: Any) -> dict[str, Any]:
    """base_json with the value at a dotted path replaced (``None`` deletes the key)."""
    data = copy.deepcopy(base_json())
    *parents, last = path.split(".")
    node: Any = data
    for key in parents:
        node = node[int(key)] if isinstance(node, list) else node[key]
    if value is None:
        del node[last]
    elif isinstance(node, list):
        node[int(last)] = value
    else:
        node[last] = value
    return data


FROM_JSON_REFUSALS = [  # (position, options, fragment of the message)
    (edit("hands.1", ["7S", "ZZ"]), {}, "hands.1: 'ZZ' is not a card"),
    (edit("hands.1", ["7S", "7S", "7S"]), {}, "7S appears 3 times; the full deck has 2 (K1.1)"),
    (edit("piles.1", ["X", "X", "X", "X"]), {}, "X appears 5 times; the full deck has 4"),
    (edit("hands.1", ["7S", "7H", "KD", "3C", "4C"]), {}, "hands.1 has 5 cards"),
    (edit("melds.1", [["9S", "9H", "9D", "9C", "X"]]), {}, "a meld never exceeds 4 (K3.2)"),
    (edit("melds.1", [["9S"]]), {}, "has 1 card; a meld starts with 2 or more"),
    (edit("melds.1", [["9S", "8H"]]), {}, "one rank plus jokers, not 8H 9S (K3.1)"),
    (edit("melds.1", [["9S", "9H"], ["9D", "X"]]), {}, "two unfinished melds of one rank"),
    (edit("melds.1", [["X", "X"], ["X", "X"]]), {}, "two unfinished melds of one rank"),
    (
        edit("melds.1", [["9S", "9H", "9D", "9C"], ["9S", "9H"]]),
        {"distinct_ranks": True},
        "distinct_ranks forbids it",
    ),
    (edit("melds.1", [["9S", "X"]]), {"min_natural": 2}, "at least 2 natural"),
    (edit("bases", ["AS", "AH", "AD"]), {}, "bases has 3 cards; there are exactly 4"),
    (edit("to_act", 3), {}, "to_act must be a player number 1-2"),
    (edit("to_act", None), {}, "position lacks to_act (K10)"),
    (edit("piles", [[], [], []]), {}, "piles must be a list of the 4 piles"),
    (edit("hands.3", ["2D"]), {}, "hands names player '3'; this game has players 1-2"),
    (edit("hands.2", None), {}, "hands lacks player 2"),
    (edit("stock_rest", None), {}, "cards of the full deck are nowhere"),
    (edit("idle_turns", -1), {}, "idle_turns must be a whole number"),
    (
        edit(
            "melds",
            {
                "1": [[r + "S", r + "H", r + "D", r + "C"] for r in "2345"],
                "2": [[r + "S", r + "H", r + "D", r + "C"] for r in "6789"],
            },
        ),
        {},
        "players 1 and 2 both have a čtverák",
    ),
]


@pytest.mark.parametrize(("data", "options", "message"), FROM_JSON_REFUSALS)
def test_k10_from_json_refuses_what_cannot_arise(
    data: dict[str, Any], options: dict[str, Any], message: str
) -> None:
    with pytest.raises(PositionError, match=None) as err:
        GAME.from_json(data, 2, CtverakOptions(**options), 1)
    assert message in str(err.value)
    assert "\n" not in str(err.value)


def test_k10_half_deck_positions_count_single_copies_and_two_jokers() -> None:
    data = position_json({1: "7S 7H", 2: "X X"}, half=True)
    assert GAME.from_json(data, 2, CtverakOptions(deck="half"), 1).stock[-1] == cards("KC")[0]
    data["hands"]["1"] = ["7S", "7S"]
    with pytest.raises(PositionError, match="7S appears 2 times; the half deck has 1"):
        GAME.from_json(data, 2, CtverakOptions(deck="half"), 1)
    data = position_json({1: "7S 7H", 2: "3D"}, melds={2: ["X X"]}, half=True)
    with pytest.raises(PositionError, match="joker melds are played with the full deck"):
        GAME.from_json(data, 2, CtverakOptions(deck="half"), 1)


def test_k10_a_position_starts_the_turn_at_the_refill_step() -> None:
    s = position({1: "7S 7H", 2: "2C 4D 6H 8S"}, to_act=1)
    assert s.step == REFILL and s.player == 1 and not s.laid
    s = position({1: "7S 7H 7D 3C", 2: "2C"}, to_act=2)
    assert s.step == REFILL and s.player == 2
    assert position({1: "7S 7H 7D 3C", 2: "2C"}).step == MELD_STEP  # a full hand: meld step


RESUME_REFUSALS = [  # changes to a mid-turn to_json, fragment of the refusal
    ({"phase": "zz"}, "phase must be one of refill, meld, over"),
    ({"phase": "refill"}, "phase refill, but player 1 holds 4 cards"),
    ({"phase": "over"}, "phase over, but nobody has a čtverák"),
    ({"laid": True, "turn_progress": False}, "laid is true but turn_progress is false"),
    ({"laid": "yes"}, "laid must be true or false"),
]


@pytest.mark.parametrize(("changes", "message"), RESUME_REFUSALS)
def test_k10_phase_resumes_a_turn_and_is_checked(changes: dict[str, Any], message: str) -> None:
    s = position({1: "7S 7H KD 3C", 2: "2C 4D 6H 8S"})
    data = GAME.to_json(s)
    assert data["phase"] == "meld" and data["laid"] is False
    with pytest.raises(PositionError, match=message):
        GAME.from_json({**data, **changes}, 2, CtverakOptions(), 7)


def test_k10_phase_meld_after_laying_resumes_mid_turn() -> None:
    s = play(position({1: "7S 7H KD 3C", 2: "2C 4D 6H 8S"}), "meld 7S 7H")
    data = json.loads(json.dumps(GAME.to_json(s)))
    assert (data["phase"], data["laid"], data["turn_progress"]) == ("meld", True, True)
    back = GAME.from_json(data, 2, CtverakOptions(), 7)
    assert back == s and texts_of(back) == ["end"]
    del data["phase"]  # a K10 position without phase starts the turn: refill first
    fresh = GAME.from_json(data, 2, CtverakOptions(), 7)
    assert fresh.step == REFILL and not fresh.laid
    short = {**GAME.to_json(s), "laid": False, "turn_progress": False}
    with pytest.raises(PositionError, match=r"must refill first \(K4\.1\)"):
        GAME.from_json(short, 2, CtverakOptions(), 7)


def texts_of(state: Any) -> list[str]:
    return [GAME.format(state, a) for a in GAME.legal(state)]


def test_k10_a_finished_position_is_over() -> None:
    melds = {1: ["KS KH KD KC", "7S 7H 7D 7C", "X X X X"]}
    s = position({1: "2D", 2: "3D"}, melds=melds)
    assert s.step == OVER and GAME.outcome(s) is not None and s.winners == (1,)


def test_k10_to_json_round_trip_and_required_keys() -> None:
    s = position({1: "7S 7H KD 3C", 2: "2C 4D 6H 8S"}, melds={2: ["9S 9H X"]}, stock="QS")
    data = GAME.to_json(s)
    for key in ("hands", "melds", "piles", "bases", "stock", "to_act"):
        assert key in data
    assert data["hands"]["1"] == ["3C", "7S", "7H", "KD"]  # sorted: hands are multisets
    assert data["melds"] == {"1": [], "2": [["9S", "9H", "X"]]} and "QS" in data["stock"]
    assert len(data["stock"]) == 108 - 8 - 3 - 4
    # the stock has no order: it is written sorted
    assert data["stock"] == sorted(data["stock"], key=lambda code: parse_card(code) or 0)
    back = GAME.from_json(json.loads(json.dumps(data)), 2, CtverakOptions(), 7)
    assert back == s


def test_k10_reveal_summary_carries_the_full_position() -> None:
    match = Match(GAME, 3, CtverakOptions(), 4)
    summary = match.summary(reveal=True)
    assert summary["state"]["bases"] == [card_code(c) for c in match.state.bases]
    assert summary["legal"] and summary["scores"] == {"1": 0, "2": 0, "3": 0}
    json.dumps(summary)


# ---------------------------------------------------------------- K8 views


def planted() -> Any:
    """Half deck, 3 players: every card is unique, so a code in a view is a leak."""
    data = position_json(
        {1: "7S 7H KD 3C", 2: "QH JD 9C 2S", 3: "4H 6D"},
        melds={3: ["5S 5H X"]},
        piles=("8D 8C", "", "TS", ""),
        stock="AH KS",
        bases="AS AD AC QS",
        half=True,
    )
    return GAME.from_json(data, 3, CtverakOptions(deck="half"), 9)


def hidden_codes(state: Any, player: int | None) -> set[str]:
    """Codes of the cards ``player`` may not see (the two jokers are alike: not counted)."""
    others = [h for p, h in enumerate(state.hands, 1) if p != player]
    hidden = [*state.stock, *state.bases, *(c for h in others for c in h)]
    return {card_code(c) for c in hidden} - {"X"}


@pytest.mark.parametrize("player", [1, 2, 3, None])
def test_k8_view_hides_other_hands_stock_and_bases(player: int | None) -> None:
    s = planted()
    view = GAME.view(s, player)
    text = json.dumps(view)
    words = set(
        text.replace('"', " ").replace(",", " ").replace("[", " ").replace("]", " ").split()
    )
    assert hidden_codes(s, player).isdisjoint(words), hidden_codes(s, player) & words
    assert view["stock"] == len(s.stock) and view["hand_sizes"] == {"1": 4, "2": 4, "3": 2}
    assert view["piles"] == [["8D", "8C"], [], ["TS"], []]
    assert view["melds"]["3"] == [["5S", "5H", "X"]] and "bases" not in view
    assert view["hand"] == (None if player is None else [card_code(c) for c in s.hands[player - 1]])
    assert presentation_of(GAME).render(view, player) is not None


def test_k8_drawing_from_the_stock_shows_no_card_to_others() -> None:
    s = planted()
    s = play(s, "discard 3C 2")  # player 1 (4 cards, nothing laid)
    s = play(s, "discard 2S 4")  # player 2
    before = GAME.view(s, 1)
    drawn = s.stock[0]
    action = GAME.parse(s, "draw stock")
    assert GAME.format(s, action) == "draw stock"
    after_state = play(GAME.apply(s, action), f"draw {card_code(drawn)}")  # chance: K4.1
    assert drawn in after_state.hands[2]
    other = GAME.view(after_state, 1)
    assert card_code(drawn) not in json.dumps(other)
    assert other["stock"] == before["stock"] - 1 and other["hand_sizes"]["3"] == 3


def test_k8_refusals_and_notation_errors_name_no_hidden_card() -> None:
    s = planted()
    hidden = hidden_codes(s, 1)
    messages = []
    for text in ("meld QH JD", "add 1 QH", "discard AS 1", "draw stock", "draw 2", "end"):
        action = GAME.parse(s, text)
        if action not in GAME.legal(s):
            messages.append(GAME.refusal(s, action))
    for text in ("#5", "meld #9", "zz", "draw 9"):
        with pytest.raises(NotationError) as err:
            GAME.parse(s, text)
        messages.append(str(err.value))
    for message in messages:
        named = set(message.replace(",", " ").replace(";", " ").replace("(", " ").split())
        assert hidden.isdisjoint(named - {"QH", "JD", "AS"}), message


def test_k8_everything_is_revealed_once_over() -> None:
    melds = {1: ["KS KH KD KC", "7S 7H 7D 7C", "X X X"]}
    s = play(position({1: "X 2D 3D 4H", 2: "5C"}, melds=melds), "add 3 X")
    view = GAME.view(s, None)
    assert view["bases"] == ["AS", "AH", "AD", "AC"]
    assert view["hands"] == {"1": ["2D", "3D", "4H"], "2": ["5C"]}
    assert view["winners"] == [1] and view["to_act"] is None and view["allows"] == []


def test_k8_view_step_and_allows_are_public() -> None:
    s = position({1: "2S 3S", 2: "2H 4D 6H 8S"}, piles=("9C", "", "", ""))
    assert GAME.view(s, 2)["allows"] == ["draw stock", "draw 1"]
    s = play(s, "draw 1", "draw stock")
    assert GAME.view(s, 1)["step"] == "draw" and GAME.view(s, 1)["allows"] == []  # chance
    s = settle(s)
    for player in (1, 2):
        view = GAME.view(s, player)
        assert view["step"] == "meld" and view["discard_owed"] is True
        assert view["allows"] == ["meld <cards>", "add <meld> <cards>", "discard <card> <pile>"]


# ---------------------------------------------------------------- K7 notation

PARSE_CASES = [  # text, action
    ("draw stock", (DRAW, 0)),
    ("DRAW STOCK", (DRAW, 0)),
    ("draw s", (DRAW, 0)),
    ("s", (DRAW, 0)),
    ("draw 3", (DRAW, 3)),
    ("3", (DRAW, 3)),
    ("draw 7h", (TAKE, *cards("7H"))),  # chance outcomes (K2.1, K4.1)
    ("Deal x", (DEAL_CARD, *cards("X"))),
    ("meld 7S 7H", (MELD, *cards("7S 7H"))),
    ("m 7h 7s", (MELD, *cards("7S 7H"))),
    ("meld x 7s", (MELD, *cards("7S X"))),
    ("m 10h 10s", (MELD, *cards("TS TH"))),
    ("m #1 #2", (MELD, *cards("3C 7S"))),  # the sorted hand is 3C 7S 7H KD
    ("add 1 7D", (ADD, 1, *cards("7D"))),
    ("a 2 x 7d", (ADD, 2, *cards("7D X"))),
    ("discard 9C 2", (DISCARD, *cards("9C"), 2)),
    ("d 9c 2", (DISCARD, *cards("9C"), 2)),
    ("d #4 1", (DISCARD, *cards("KD"), 1)),
    ("end", (END,)),
    ("E", (END,)),
]


@pytest.mark.parametrize(("text", "action"), PARSE_CASES)
def test_k7_parse_canonical_and_short_forms(text: str, action: tuple[int, ...]) -> None:
    s = position({1: "7S 7H KD 3C", 2: "2C"})
    assert [card_code(c) for c in s.hands[0]] == ["3C", "7S", "7H", "KD"]
    assert GAME.parse(s, text) == action
    assert GAME.parse(s, GAME.format(s, action)) == action


NOTATION_ERRORS = [
    ("", "empty action"),
    ("fly", "unknown action 'fly'; actions are draw stock"),
    ("draw", "draw takes one source"),
    ("draw 5", "unknown pile '5'; piles are 1-4"),
    ("meld", "meld needs its cards"),
    ("meld 7Z", "unknown card '7z'; cards are rank"),
    ("add 7S", "add needs a meld number and cards"),
    ("add x 7S", "bad meld number 'x'"),
    ("add 0 7S", "bad meld number '0'"),
    ("discard 7S", "discard takes a card and a pile"),
    ("discard 7S 0", "unknown pile '0'"),
    ("m #5 #1", "no card #5 in your hand; positions: #1-#4 (K7)"),
    ("end now", "unknown action 'end now'"),
]


@pytest.mark.parametrize(("text", "message"), NOTATION_ERRORS)
def test_k7_notation_errors_say_what_is_allowed(text: str, message: str) -> None:
    s = position({1: "7S 7H KD 3C", 2: "2C"})
    with pytest.raises(NotationError) as err:
        GAME.parse(s, text)
    assert message in str(err.value) and "\n" not in str(err.value)


def test_k7_canonical_format_of_every_kind() -> None:
    s = position({1: "7S 7H KD 3C", 2: "2C"})
    assert GAME.format(s, (DRAW, 0)) == "draw stock"
    assert GAME.format(s, (DRAW, 4)) == "draw 4"
    assert GAME.format(s, (MELD, *cards("7S 7H X"))) == "meld 7S 7H X"
    assert GAME.format(s, (ADD, 2, *cards("TD"))) == "add 2 TD"
    assert GAME.format(s, (DISCARD, *cards("9C"), 2)) == "discard 9C 2"
    assert GAME.format(s, (END,)) == "end"


# ---------------------------------------------------------------- sampling (determinisation)


@pytest.mark.parametrize(("players", "deck"), [(2, "full"), (3, "half"), (6, "full")])
def test_sample_shows_the_player_exactly_their_view(players: int, deck: str) -> None:
    options = CtverakOptions(deck="half" if deck == "half" else "full", reshuffle=True)
    rng = random.Random(players)
    s = new(players, options, 3)
    full = deck_counts(deck == "half")
    seen = 0
    while True:
        for player in range(1, players + 1):
            view = GAME.view(s, player)
            t = GAME.sample(view, player, players, options, random.Random(seen))
            seen += 1
            assert GAME.view(t, player) == view
            assert total(t) == full
            if player == GAME.to_act(s):
                assert texts_of(t) == texts_of(s)  # the listing comes from the view alone
        if GAME.outcome(s) is not None:
            break
        legal = GAME.legal(s)
        s = settle(GAME.apply(s, legal[rng.randrange(len(legal))]), rng)
    assert GAME.outcome(t) == GAME.outcome(s) and seen > players
    other = GAME.sample(GAME.view(s, 1), 1, players, options, random.Random(99))
    assert GAME.view(other, 1) == GAME.view(s, 1)

"""Quartino at its edges: notation (N6), position JSON (N9), views (N7), the card data (N1.3)."""

from __future__ import annotations

import copy
import json
import random
import re
from importlib.resources import files
from typing import Any

import pytest

from tabletop.core.errors import NotationError, PositionError
from tabletop_quartino.cards import CardDataError, deck, load_deck
from tabletop_quartino.game import QuartinoGame
from tabletop_quartino.legacy import dealt_as_before
from tabletop_quartino.rules import QuartinoOptions, State
from tests.test_quartino import load, position

GAME = QuartinoGame()


def random_states(players: int, seed: int, steps: int, **options: Any) -> list[State]:
    """The states of a seeded uniform-random game (at most ``steps`` actions)."""
    rng = random.Random(seed)
    s = dealt_as_before(players, QuartinoOptions(**options), seed)
    states = [s]
    for _ in range(steps):
        legal = GAME.legal(s)
        if not legal:
            break
        s = GAME.apply(s, legal[rng.randrange(len(legal))])
        states.append(s)
    return states


# ---------------------------------------------------------------- N1.3 card data


def test_cards_are_24_distinct_permutations_from_the_data_file() -> None:
    d = deck()
    assert len(d) == 24 and len(set(d.codes)) == 24
    assert all(sorted(code.replace("|", "")) == sorted("YBGP") for code in d.codes)
    assert d.offsets == (0, 1, 2)
    assert d.plain[7] == (8, 1, 2)  # r7 r0 r1 (field ints: 1 + ring index)
    assert d.mirror[1] == (2, 1, 8)  # r1 r0 r7


def _data(**changes: Any) -> dict[str, Any]:
    base = json.loads(files("tabletop_quartino").joinpath("cards.json").read_text("utf-8"))
    base.update(changes)
    return dict(base)


CARD_DATA_ERRORS = [
    ({"cards": [*_data()["cards"][:23], "Y|BGP"]}, "listed twice"),
    ({"cards": _data()["cards"][:23]}, "23 cards"),
    ({"cards": [*_data()["cards"][:23], "Y|BGG"]}, "not a card"),
    ({"geometry": {"centre": "c", "ring_offsets": [0, 1, 1]}}, "ring_offsets"),
    ({"geometry": {"centre": "c", "ring_offsets": [0, 1, 8]}}, "ring_offsets"),
    ({"geometry": {"centre": "r0", "ring_offsets": [0, 1, 2]}}, "centre"),
    ({"ring_size": 6}, "ring_size"),
]


@pytest.mark.parametrize(("change", "message"), CARD_DATA_ERRORS)
def test_card_data_is_validated(change: dict[str, Any], message: str) -> None:
    with pytest.raises(CardDataError, match=message):
        load_deck(_data(**change))


def test_card_geometry_comes_from_data() -> None:
    other = load_deck(_data(geometry={"centre": "c", "ring_offsets": [0, 2, 4]}))
    assert other.plain[7] == (8, 2, 4)  # r7 r1 r3
    assert load_deck(_data()) == deck()


# ---------------------------------------------------------------- N6 notation

PARSE_ERRORS = [
    ("", "empty action"),
    ("jump", "unknown action 'jump'"),
    ("place X r3", "unknown colour 'X'; colours are Y, B, G, P"),
    ("place Y r8", "unknown field 'r8'; fields are c, r0…r7"),
    ("place Y", "write place <colour> <field>"),
    ("claim P|YBB 3", "unknown card 'P|YBB'"),
    ("claim PYBG 3", "unknown card 'PYBG'"),
    ("claim P|YBG 8", "bad rotation '8'; k is 0…7"),
    ("claim P|YBG -1", "bad rotation '-1'"),
    ("claim P|YBG", "write claim <card> <k>"),
    ("end now", "'end' takes no arguments"),
]


@pytest.mark.parametrize(("text", "message"), PARSE_ERRORS)
def test_parse_errors_say_what_is_allowed(text: str, message: str) -> None:
    s = dealt_as_before(2, QuartinoOptions(), 0)
    with pytest.raises(NotationError, match=re.escape(message)):
        GAME.parse(s, text)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_parse_format_round_trip_over_legal_actions(players: int) -> None:
    seen = 0
    for s in random_states(players, seed=players, steps=300, mirror=True)[::7]:
        for a in GAME.legal(s):
            text = GAME.format(s, a)
            assert GAME.parse(s, text) == a
            assert GAME.parse(s, f"  {text.lower()} ") == a
            assert GAME.parse(s, text.upper()) == a
            seen += 1
    assert seen > 500


def test_canonical_forms() -> None:
    s = dealt_as_before(2, QuartinoOptions(), 0)
    assert GAME.format(s, GAME.parse(s, "PLACE g C")) == "place G c"
    assert GAME.format(s, GAME.parse(s, "claim p|ybg 5")) == "claim P|YBG 5"
    assert GAME.format(s, GAME.parse(s, "End")) == "end"


# ---------------------------------------------------------------- N9 position JSON


def test_to_json_has_the_spec_keys() -> None:
    data = position("c:P r5:GY", {1: ["P|YBG"], 2: ["Y|BGP"]}, done={2: ["G|YBP"]}, owed=1)
    out = GAME.to_json(load(data))
    assert out["board"] == {"c": ["P"], "r5": ["G", "Y"]}
    assert out["supply"] == {"Y": 6, "B": 7, "G": 6, "P": 6}
    assert out["stands"] == {"1": ["P|YBG"], "2": ["Y|BGP"]}
    assert out["done"] == {"1": [], "2": ["G|YBP"]}
    assert (out["to_act"], out["owed"]) == (1, 1)
    assert len(out["out_of_play"]) == 21


@pytest.mark.parametrize("players", [2, 3, 4])
def test_json_round_trip_over_random_games(players: int) -> None:
    options = QuartinoOptions(situations=players != 3)
    for s in random_states(players, seed=10 + players, steps=600, situations=players != 3)[::13]:
        data = GAME.to_json(s)
        again = GAME.from_json(json.loads(json.dumps(data)), players, options, seed=0)
        assert GAME.to_json(again) == data
        assert GAME.legal(again) == GAME.legal(s)
        assert (again.board, again.supply, again.stands, again.done) == (
            s.board,
            s.supply,
            s.stands,
            s.done,
        )


def _bad(**changes: Any) -> dict[str, Any]:
    data = position("c:P r0:YB", {1: ["P|YBG", "Y|BGP"], 2: ["B|YGP"]}, done={2: ["G|YBP"]}, owed=0)
    for key, value in changes.items():
        data[key] = value
    return data


FROM_JSON_ERRORS = [
    (
        _bad(board={"c": list("YYYYYYYY")}, supply={"Y": 0, "B": 7, "G": 7, "P": 7}),
        "8 yellow pawns on the board; there are 7",
    ),
    (_bad(supply={"Y": 7, "B": 6, "G": 7, "P": 6}), "yellow pawns: 1 on the board + 7 in the"),
    (_bad(supply={"Y": 6, "B": 6, "G": 7}), "supply lacks colour P"),
    (_bad(supply={"Y": 6, "B": 6, "G": 7, "P": -1}), "supply of P must be a count"),
    (_bad(supply={"Y": 6, "B": 6, "G": 7, "P": 6, "X": 0}), "unknown colour 'X' in supply"),
    (_bad(board={"r8": ["Y"]}), "unknown field 'r8' in board"),
    (_bad(board={"c": ["Q"]}), "unknown colour 'Q' in board field c"),
    (_bad(stands={"1": ["P|YBG"], "2": ["P|YBG"]}), "card P|YBG is held twice"),
    (_bad(stands={"1": ["P|YBG", "P|YBG"], "2": []}), "card P|YBG is held twice"),
    (_bad(stands={"1": ["G|YBP"], "2": []}), "card G|YBP is held twice"),
    (
        _bad(stands={"1": ["P|YBG", "Y|BGP", "Y|BPG", "Y|GBP", "Y|GPB"], "2": ["B|YGP"]}),
        "player 1 has 5 cards (stand + done); at most 4",
    ),
    (
        _bad(
            stands={"1": ["P|YBG"], "2": ["Y|BGP", "Y|BPG", "Y|GBP"]},
            done={"1": [], "2": ["G|YBP", "B|YGP"]},
        ),
        "player 2 has 5 cards",
    ),
    (_bad(stands={"1": ["P|YBB"], "2": []}), "unknown card 'P|YBB' in stands of player 1"),
    (_bad(stands={"1": ["P|YBG"], "3": ["Y|BGP"]}), "'stands' names player '3'; players are 1…2"),
    (_bad(done={"1": "P|YBG"}), "done of player 1 must be a list"),
    (_bad(to_act=3), "to_act must be a player 1…2"),
    (_bad(owed=4), "owed must be an integer 0…3, not 4"),
    (_bad(stands=None), "position needs 'stands' as an object"),
    (
        _bad(stands={"1": [], "2": ["B|YGP"]}, done={"1": ["P|YBG"], "2": []}),
        "player 1 has completed all their cards: the game is over",
    ),
]


@pytest.mark.parametrize(("data", "message"), FROM_JSON_ERRORS)
def test_from_json_refuses_what_cannot_arise(data: dict[str, Any], message: str) -> None:
    with pytest.raises(PositionError, match=re.escape(message)):
        GAME.from_json(data, 2, QuartinoOptions(), seed=0)


def test_from_json_finished_game() -> None:
    data = _bad(stands={"1": [], "2": ["B|YGP"]}, done={"1": ["P|YBG"], "2": []}, to_act=None)
    s = GAME.from_json(data, 2, QuartinoOptions(), seed=0)
    assert GAME.outcome(s) == ((1,), "player 1 completed their cards (N5.1)", "completed")
    assert GAME.legal(s) == ()


# ---------------------------------------------------------------- N7 views and hidden cards


def _hidden_codes(s: State, player: int | None) -> set[str]:
    d = deck()
    public = {d.codes[c] for done in s.done for c in done}
    own = set() if player is None else {d.codes[c] for c in s.stands[player - 1]}
    return set(d.codes) - public - own


@pytest.mark.parametrize("players", [2, 3, 4])
def test_view_never_shows_other_stands_or_out_of_play_until_the_end(players: int) -> None:
    checked = 0
    states = random_states(players, seed=99 + players, steps=800)[::11]
    final = random_states(players, seed=99 + players, steps=100_000)[-1]
    assert GAME.outcome(final) is not None
    for s in [*states, final]:
        for player in [None, *range(1, players + 1)]:
            view = GAME.view(s, player)
            text = json.dumps(view)
            if GAME.outcome(s) is not None:  # over: everyone sees every stand (the end shown)
                assert set(view["stands"]) == {str(p) for p in range(1, players + 1)}
                continue
            for code in _hidden_codes(s, player):
                assert code not in text, (player, code)
            if player is not None:
                assert sorted(view["stand"]) == sorted(
                    deck().codes[c] for c in s.stands[player - 1]
                )
            assert view["stand_size"] == {
                str(p): len(s.stands[p - 1]) for p in range(1, players + 1)
            }
            checked += 1
    assert checked > 100


def test_view_planted_cards() -> None:
    data = position("c:P", {1: ["P|YBG"], 2: ["Y|BGP", "G|PBY"]}, done={2: ["B|YGP"]}, owed=0)
    s = load(data)
    one = json.dumps(GAME.view(s, 1))
    assert "P|YBG" in one and "B|YGP" in one
    assert "Y|BGP" not in one and "G|PBY" not in one
    two = json.dumps(GAME.view(s, 2))
    assert "P|YBG" not in two and "G|PBY" in two
    spectator = json.dumps(GAME.view(s, None))
    assert all(code not in spectator for code in ("P|YBG", "Y|BGP", "G|PBY"))
    assert "B|YGP" in spectator
    # once over, everyone sees everything: the spectator and every player (the end shown)
    data = position("c:P r5:Y r6:B r7:G", {1: ["P|YBG"], 2: ["Y|BGP", "G|PBY"]})
    start = load(data)
    end = GAME.apply(start, GAME.parse(start, "claim P|YBG 5"))
    assert GAME.outcome(end) is not None
    everything = GAME.view(end, None)
    assert everything["stands"] == {"1": [], "2": ["Y|BGP", "G|PBY"]}
    assert len(everything["out_of_play"]) == 21
    assert GAME.view(end, 1)["stands"] == everything["stands"]
    assert GAME.view(end, 1)["out_of_play"] == everything["out_of_play"]


def test_view_contents() -> None:
    s = load(position("r3:GGBGP r5:G", {1: ["P|YBG"], 2: ["Y|BGP"]}, owed=None))
    view = GAME.view(s, 1)
    assert view["board"]["r5"] == ["G"] and view["board"]["r3"] == []
    assert view["supply"] == {"Y": 7, "B": 7, "G": 6, "P": 7}
    assert (view["to_act"], view["owed"], view["status"]) == (1, 3, "ongoing")
    assert view["check"]["text"] == "column: r3 emptied; four colours (G); 3 placements owed"
    assert view["done"] == {"1": [], "2": []}


def test_apply_never_mutates() -> None:
    for s in random_states(3, seed=7, steps=400)[::5]:
        before = copy.deepcopy(s)
        frozen = json.dumps(GAME.to_json(s))
        for a in GAME.legal(s):
            GAME.apply(s, a)
        assert s == before and json.dumps(GAME.to_json(s)) == frozen


def test_extra_keys_round_trip_turns_batch_check() -> None:
    s = load(position("r3:GGBGP r5:G", {1: ["P|YBG"], 2: ["Y|BGP"]}, to_act=2, owed=0))
    s = GAME.apply(s, GAME.parse(s, "end"))
    s = GAME.apply(s, GAME.parse(s, "place Y r0"))
    data = GAME.to_json(s)
    assert (data["turns"], data["batch"], data["owed"]) == (1, 3, 2)
    assert data["check"] == {
        "player": 1,
        "situations": True,
        "column": ["r3"],
        "four_colours": ["G"],
        "owed": 3,
        "lapsed": False,
    }
    again = GAME.from_json(data, 2, QuartinoOptions(), seed=0)
    assert again == s
    assert GAME.prompt(again) == "place a pawn (2 of 3 owed)"
    # N5.2: without 'turns' the count starts at this position
    del data["turns"]
    assert GAME.from_json(data, 2, QuartinoOptions(), seed=0).turns == 0


EXTRA_KEY_ERRORS = [
    ({"turns": 400}, "400 turns have ended: with max_turns=400 the game is over (N5.2)"),
    ({"turns": -1}, "turns must be an integer 0…400, not -1"),
    ({"owed": 2, "batch": 1}, "batch must be an integer 2…3, not 1"),
    ({"check": {"player": 1}}, "check must be the last start check"),
    (
        {
            "check": {
                "player": 1,
                "situations": True,
                "column": ["r3"],
                "four_colours": [],
                "owed": 3,
                "lapsed": False,
            }
        },
        "check must be the last start check",
    ),
    ({"to_act": None, "turns": 5}, "to_act is null but nobody won and only 5 of 400 turns"),
]


@pytest.mark.parametrize(("changes", "message"), EXTRA_KEY_ERRORS)
def test_extra_keys_are_validated(changes: dict[str, Any], message: str) -> None:
    with pytest.raises(PositionError, match=re.escape(message)):
        GAME.from_json(_bad(**changes), 2, QuartinoOptions(), seed=0)


def test_from_json_drawn_game() -> None:
    s = GAME.from_json(_bad(to_act=None, owed=0), 2, QuartinoOptions(max_turns=7), seed=0)
    assert GAME.outcome(s) == ((), "a draw: 7 turns ended without a winner (N5.2)", "turn-limit")
    assert s.turns == 7


@pytest.mark.parametrize("players", [2, 3, 4])
def test_sample_is_consistent_with_the_view(players: int) -> None:
    options = QuartinoOptions(mirror=players == 3)
    rng = random.Random(players)
    for s in random_states(players, seed=players, steps=500, mirror=players == 3)[::25]:
        for player in range(1, players + 1):
            view = GAME.view(s, player)
            sampled = GAME.sample(view, player, players, options, rng)
            assert GAME.view(sampled, player) == view
            assert sampled.stands[player - 1] == s.stands[player - 1]
            assert sum(len(x) for x in sampled.stands) == sum(len(x) for x in s.stands)
            assert GAME.legal(sampled) == GAME.legal(s) or GAME.to_act(s) != player

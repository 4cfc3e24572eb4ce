"""Čtverák rules in pytest: enumerations and what the scenario file cannot state.

The conformance cases K9.2–K9.7 and the rules case by case are stated in the scenario
file ``plugins/ctverak/scenarios/ctverak.yaml`` (``tabletop test --game ctverak``). Here:
the deal against the seeded shuffle, every player count and deck, the refused half deck,
tables of melds, adds and blocked tie-breaks, and the reshuffle's card conservation.

Positions are written with :func:`position` (K10 JSON through ``from_json``, the rest of
the deck appended to the stock unless said otherwise); actions go through ``parse`` and
must be in ``legal`` (:func:`play`), refusals through ``refusal`` (:func:`refused`).
"""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction
from typing import Any, Literal

import pytest

from tabletop.core.errors import OptionError
from tabletop.game import CHANCE
from tabletop_ctverak.cards import card_code, deck_counts, parse_card
from tabletop_ctverak.game import CtverakGame
from tabletop_ctverak.rules import (
    BLOCKED,
    DEAL,
    DRAWING,
    MELD_STEP,
    OVER,
    REFILL,
    TAKE,
    CtverakOptions,
    State,
    settled,
)

GAME = CtverakGame()
BASES = "AS AH AD AC"


def settle(state: State, rng: random.Random | None = None) -> State:
    """``state`` after the chance steps now due (a deal, a stock draw's card), drawn by
    their probabilities with ``rng``, as a match draws them (issue 35)."""
    return settled(state, (rng or random.Random(0)).random)


def new(players: int, options: CtverakOptions, seed: int) -> State:
    """A new game dealt: its deal's chance steps drawn with ``random.Random(seed)``."""
    return settle(GAME.new(players, options, seed), random.Random(seed))


def cards(text: str) -> tuple[int, ...]:
    """Sorted card ints of a space-separated text."""
    out = []
    for code in text.split():
        card = parse_card(code)
        assert card is not None, code
        out.append(card)
    return tuple(sorted(out))


def position_json(
    hands: dict[int, str],
    melds: dict[int, list[str]] | None = None,
    piles: tuple[str, str, str, str] = ("", "", "", ""),
    stock: str = "",
    bases: str = BASES,
    to_act: int = 1,
    rest: str = "stock",
    half: bool = False,
) -> dict[str, Any]:
    """A K10 position. The deck's other cards go to the stock's end (``rest="stock"``, via
    the ``stock_rest`` key) or under pile 1 (``rest="pile"``: the stock stays as written)."""
    data: dict[str, Any] = {
        "hands": {str(p): h.split() for p, h in hands.items()},
        "melds": {str(p): [m.split() for m in ms] for p, ms in (melds or {}).items()},
        "piles": [p.split() for p in piles],
        "bases": bases.split(),
        "stock": stock.split(),
        "to_act": to_act,
    }
    if rest == "stock":
        data["stock_rest"] = True
        return data
    groups = [*data["hands"].values(), *data["piles"], data["bases"], data["stock"]]
    groups += [m for ms in data["melds"].values() for m in ms]
    placed = Counter(cards(" ".join(" ".join(g) for g in groups)))
    left = sorted((deck_counts(half) - placed).elements())
    data["piles"][0] = [card_code(c) for c in left] + data["piles"][0]
    return data


def position(
    hands: dict[int, str],
    melds: dict[int, list[str]] | None = None,
    piles: tuple[str, str, str, str] = ("", "", "", ""),
    stock: str = "",
    to_act: int = 1,
    rest: str = "stock",
    **options: Any,
) -> State:
    """The state of :func:`position_json` for ``len(hands)`` players and these options."""
    data = position_json(
        hands, melds, piles, stock, BASES, to_act, rest, options.get("deck") == "half"
    )
    return GAME.from_json(data, len(hands), CtverakOptions(**options), 7)


def play(state: State, *texts: str) -> State:
    """Apply actions given as text; each must be legal."""
    for text in texts:
        action = GAME.parse(state, text)
        assert action in GAME.legal(state), (text, GAME.refusal(state, action))
        state = GAME.apply(state, action)
    return state


def refused(state: State, text: str) -> str:
    """The refusal of a well-formed action that is not legal."""
    action = GAME.parse(state, text)
    assert action not in GAME.legal(state), text
    return GAME.refusal(state, action)


def texts(state: State) -> set[str]:
    return {GAME.format(state, a) for a in GAME.legal(state)}


def total(state: State) -> Counter[int]:
    """Every card of a state, wherever it lies."""
    groups = [*state.hands, *(m for mine in state.melds for m in mine), *state.piles]
    return Counter(c for g in [*groups, state.bases, state.stock] for c in g)


# ---------------------------------------------------------------- K9.1 / K2 setup

Deck = Literal["full", "half"]
SETUP: list[tuple[int, Deck, int]] = [  # players, deck, cards in the stock after the deal
    (2, "full", 108 - 8 - 4),
    (3, "full", 108 - 12 - 4),
    (4, "full", 88),  # K9.1
    (5, "full", 108 - 20 - 4),
    (6, "full", 108 - 24 - 4),
    (2, "half", 54 - 8 - 4),
    (3, "half", 54 - 12 - 4),
]


@pytest.mark.parametrize(("players", "deck", "stock"), SETUP)
def test_k9_1_k2_deal_four_each_four_bases_rest_stock(players: int, deck: Deck, stock: int) -> None:
    s = new(players, CtverakOptions(deck=deck), 11)
    assert [len(h) for h in s.hands] == [4] * players
    assert len(s.bases) == 4 and len(s.stock) == stock
    assert s.piles == ((), (), (), ()) and s.melds == ((),) * players
    assert total(s) == deck_counts(deck == "half")
    assert GAME.to_act(s) == 1 and s.step == MELD_STEP  # K2.3, no refill on the first turn


def test_k2_1_the_deal_is_one_card_at_a_time_as_chance_steps() -> None:
    shuffled = list(sorted(deck_counts(False).elements()))
    random.Random(5).shuffle(shuffled)
    s = GAME.new(3, CtverakOptions(), 5)
    assert GAME.new(3, CtverakOptions(), 6) == s  # no seed in the state: chance comes later
    for card in shuffled[:16]:  # 4 rounds to players 1, 2, 3, then the 4 bases (K2.1, K2.2)
        assert GAME.to_act(s) == CHANCE and s.step == DEAL
        s = play(s, f"deal {card_code(card)}")
    for p in range(3):
        assert s.hands[p] == tuple(sorted(shuffled[p:12:3]))
    assert s.bases == tuple(shuffled[12:16]) and s.stock == tuple(sorted(shuffled[16:]))
    assert GAME.to_act(s) == 1 and s.step == MELD_STEP


@pytest.mark.parametrize("players", [4, 5, 6])
def test_k1_1_half_deck_refused_for_more_than_three_players(players: int) -> None:
    with pytest.raises(OptionError, match=r"2-3 players.*\(K1\.1\)$"):
        GAME.new(players, CtverakOptions(deck="half"), 1)
    with pytest.raises(OptionError, match=r"K1\.1"):
        GAME.from_json(position_json({1: "", 2: ""}), players, CtverakOptions(deck="half"), 1)


# ---------------------------------------------------------------- K3 / K4.2 starting melds


HALF = {"deck": "half"}
MIN2, MIN3, MIN4 = ({"min_natural": n} for n in (2, 3, 4))
MELD_CASES = [  # hand, action, refusal fragment (None: legal), options
    # K9.4
    ("7S 8S X 3C", "meld 7S 8S", "a meld is cards of one rank plus jokers, not 7S 8S (K3.1)", {}),
    ("7S 8S X 3C", "meld 7S", "a new meld needs 2 or more cards (K4.2)", {}),  # K9.4
    ("7S 8S X 3C", "meld 7S X", None, {}),  # K9.4
    ("7S 8S X X", "meld 7S X X", None, {}),  # one natural, two jokers
    ("7S X X X", "meld 7S X X X", None, {}),  # a dirty čtverka at once
    ("7S X X X", "meld X X X", None, {}),  # K3.1 joker meld
    ("X X 3C 5D", "meld X X", "joker melds are played with the full deck only (K3.1)", HALF),
    ("7S 7H X 3C", "meld 7S X", "a rank meld needs at least 2 natural cards (K3.1", MIN2),
    ("7S 7H X 3C", "meld 7S 7H X", None, {"min_natural": 2}),
    ("7S 7H X 3C", "meld 7S 7H X", "a rank meld needs at least 3 natural cards (K3.1", MIN3),
    ("7S 7H 7D X", "meld 7S 7H 7D", "a rank meld needs at least 4 natural cards (K3.1", MIN4),
    ("7S 7H 3C 4D", "meld 7S 7H 7D", "you do not hold 7D (K4.2)", {}),
    ("7S 7H 3C 4D", "meld 7S 7S", "you do not hold another 7S (K4.2)", {}),
]


@pytest.mark.parametrize(("hand", "text", "why", "options"), MELD_CASES)
def test_k3_k4_2_starting_melds(
    hand: str, text: str, why: str | None, options: dict[str, Any]
) -> None:
    s = position({1: hand, 2: "2C 4D 6H 8S"}, **options)
    if why is None:
        s2 = play(s, text)
        assert len(s2.melds[0]) == 1 and len(s2.hands[0]) == 4 - len(s2.melds[0][0])
    else:
        assert refused(s, text).startswith(why)


def test_k4_2_emptying_the_hand_by_adding_refills_too() -> None:
    s = position({1: "9D 9C 4S 4H", 2: "2C"}, melds={1: ["9S 9H"]}, stock="KS KH KD QC")
    s = play(s, "add 1 9D 9C", "meld 4S 4H")
    assert s.step == REFILL and s.melds[0] == (cards("9S 9H 9D 9C"), cards("4S 4H"))
    s = play(s, "draw stock", "draw KS", "draw stock", "draw KH", "draw stock", "draw KD")
    s = play(s, "draw stock", "draw QC")  # each stock card comes by chance (K4.1)
    assert s.hands[0] == cards("KS KH KD QC") and s.step == MELD_STEP
    assert "end" not in texts(s)


# ---------------------------------------------------------------- K3.3 and adding


ADD_CASES = [  # melds of player 1, hand, action, refusal fragment
    (["7S 7H"], "7D 8S X 3C", "add 1 8S", "8S does not fit meld 1, a 7 meld (K3.1)"),
    (["7S 7H"], "7D 8S X 3C", "add 2 7D", "you have no meld 2 (you have melds 1-1); cards go to "
     "your own melds (K4.2)"),
    (["7S 7H X"], "7D 7C 8S 3C", "add 1 7D 7C", "meld 1 has 3 cards and a meld never exceeds "
     "4 (K3.2)"),
    (["X X"], "7D X 8S 3C", "add 1 7D", "meld 1 is a joker meld: only jokers go there (K3.1)"),
    (["X X"], "7D X 8S 3C", "add 1 X", None),
    (["7S 7H"], "7D X 8S 3C", "add 1 X", None),  # a joker stands in
    (["7S 7H"], "7D X 8S 3C", "add 1 7D X", None),
]


@pytest.mark.parametrize(("melds", "hand", "text", "why"), ADD_CASES)
def test_k3_k4_2_adding_to_own_melds(
    melds: list[str], hand: str, text: str, why: str | None
) -> None:
    s = position({1: hand, 2: "2H"}, melds={1: melds, 2: ["KS KH"]})
    if why is None:
        before = len(s.melds[0][0])
        s = play(s, text)
        assert len(s.melds[0][0]) == before + len(text.split()) - 2
    else:
        assert refused(s, text).startswith(why)


# ---------------------------------------------------------------- K4.1 refill


def no_source(state: State, **changes: Any) -> State:
    """``state`` with an empty stock and empty piles (the other cards simply vanish: these
    tests are about the turn's steps, not card conservation)."""
    empty: dict[str, Any] = {"stock": (), "piles": ((), (), (), ()), "exhausted": True}
    return state._replace(**{**empty, **changes})


def test_k4_2_emptied_hand_without_any_source_just_ends() -> None:
    s = no_source(position({1: "5S 5H 5D", 2: "2H"}, stock="", rest="pile"), step=MELD_STEP)
    s = play(s, "meld 5S 5H 5D")
    assert s.step == MELD_STEP and texts(s) == {"end"}
    s = play(s, "end")
    assert GAME.to_act(s) == 2


# ---------------------------------------------------------------- K5.2 blocked end

BLOCK_HANDS = {1: "2S 5H 9D KC", 2: "3S 6H TD QC"}


def idle_turns(state: State, turns: int) -> State:
    """Turns that lay nothing: refill from pile 2 (else 1), discard the first card on pile 2."""
    for _ in range(turns):
        assert state.step != OVER
        while state.step == REFILL:
            state = play(state, "draw 2" if state.piles[1] else "draw 1")
        state = play(state, f"discard {card_code(state.hands[state.player - 1][0])} 2")
    return state


BLOCKED_TIES = [  # melds of players 1 and 2, winners, scoring
    (["KS KH KD KC"], ["2S 2H 2D 2C"], (1,), "extended"),  # tie on čtverky: K 26 > 2 4
    (["KS KH KD X"], ["6S 6H 6D 6C"], (1,), "simple"),  # dirty K 13 > clean 6 12
    (["6S 6H 6D X"], ["3S 3H 3D 3C"], (), "extended"),  # 6 = 6: a draw
    (["JS JH JD JC"], ["JS JH JD JC", "4S 4H"], (), "simple"),  # open melds score 0
    (["JS JH JD JC"], ["X X X X"], (2,), "simple"),  # a joker čtverka counts two
    ([], ["2S 2H 2D X"], (2,), "simple"),
]


@pytest.mark.parametrize(("m1", "m2", "winners", "scoring"), BLOCKED_TIES)
def test_k5_2_blocked_tie_breaks(
    m1: list[str], m2: list[str], winners: tuple[int, ...], scoring: str
) -> None:
    s = position(
        BLOCK_HANDS, melds={1: m1, 2: m2}, piles=("", "4C", "", ""), rest="pile", scoring=scoring
    )
    s = idle_turns(s, 4)
    assert s.ending == BLOCKED and s.winners == winners
    points = GAME.scores(s)
    assert points is not None
    if scoring == "extended":  # no čtverák bonus for a blocked win
        assert max(points.values()) < 100


# ---------------------------------------------------------------- K5.2 reshuffle


def reshuffle_position(seed: int, **options: Any) -> State:
    data = position_json(
        {1: "2S 5H 9D", 2: "3S 6H TD QC"}, piles=("", "4C 4D", "8S", "JS JH QH"), rest="pile"
    )
    return GAME.from_json(data, 2, CtverakOptions(**options), seed)


def test_k5_2_reshuffle_builds_a_new_stock_from_all_but_the_tops() -> None:
    s = reshuffle_position(3, reshuffle=True)
    assert s.stock == () and s.step == REFILL and "draw stock" in texts(s)
    pooled = Counter(c for pile in s.piles for c in pile[:-1])
    t = play(s, "draw stock")
    assert t.piles == tuple(p[-1:] for p in s.piles) and t.reshuffles == 1
    assert Counter(t.stock) == pooled and t.hands == s.hands  # moved, not yet drawn
    assert total(t) == total(s) == deck_counts(False)
    # the shuffle is the chance of the draw: any pooled card, as likely as its copies
    assert GAME.to_act(t) == CHANCE and t.step == DRAWING
    outcomes = dict(GAME.chance_outcomes(t))
    assert outcomes == {
        (TAKE, card): Fraction(copies, sum(pooled.values())) for card, copies in pooled.items()
    }
    assert play(reshuffle_position(3, reshuffle=True), "draw stock") == t  # deterministic
    orders = {
        play(reshuffle_position(seed, reshuffle=True), "draw stock").stock for seed in range(5)
    }
    assert orders == {tuple(sorted(pooled.elements()))}  # no order, no seed in the state
    u = play(t, "draw 4C")
    assert u.hands[0] == cards("2S 4C 5H 9D")
    assert Counter(u.stock) == pooled - Counter(cards("4C"))

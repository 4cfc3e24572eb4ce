"""Čtverák played out: seeded random games with invariants, the basic AI, the plugin wiring."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations
from typing import Any

import pytest

from tabletop.agents.base import Agent, Turn
from tabletop.agents.levels import agent_levels
from tabletop.agents.simple import RandomAgent
from tabletop.coach.facet import coaching_of
from tabletop.core import options as opts
from tabletop.core.presentation import presentation_of
from tabletop.core.registry import registry
from tabletop.testing import assert_conformance
from tabletop_ctverak.agents import BasicAgent
from tabletop_ctverak.cards import JOKER, card_code, deck_counts
from tabletop_ctverak.game import CtverakGame
from tabletop_ctverak.rules import (
    ADD,
    DISCARD,
    DRAW,
    END,
    MELD,
    OVER,
    REFILL,
    CtverakOptions,
    State,
    add_problem,
    meld_problem,
)
from tests.test_ctverak import GAME, Deck, cards, new, position, settle, total

OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"reshuffle": True, "scoring": "extended"},
    {"distinct_ranks": True, "min_natural": 2, "discard_rule": "four-cards"},
    {"stall_limit": 2, "reshuffle": True},
]
DECKS: tuple[Deck, ...] = ("full", "half")
CONFIGS = [
    (players, deck, i)
    for players in range(2, 7)
    for deck in DECKS
    if deck == "full" or players <= 3
    for i in range(len(OPTION_SETS))
]


def advice(view: Any, player: int, options: Any) -> str:
    """The game's own line of advice (its coaching facet, tabletop.coach.facet)."""
    said = coaching_of(GAME).hint(view, player, options)
    assert said is not None
    return said


def immutable(value: object) -> bool:
    """Only tuples, ints, bools, strs (and NamedTuples of them) inside."""
    if isinstance(value, tuple):
        return all(immutable(v) for v in value)
    return isinstance(value, int | str | bool)


def check_state(s: State, deck: Counter[int]) -> None:
    assert total(s) == deck  # cards are conserved
    for hand in s.hands:
        assert len(hand) <= 4 and list(hand) == sorted(hand)
    for mine in s.melds:
        for meld in mine:
            assert 2 <= len(meld) <= 4 and meld_problem(s.cfg, (), meld) is None
    over = GAME.outcome(s) is not None
    assert (GAME.to_act(s) is None) == over == (not GAME.legal(s))


def lays_agree(s: State) -> None:
    """The fast legal melds and adds are exactly those the refusal checks let through."""
    if s.step == OVER or s.step == REFILL:
        return
    hand, mine = s.hands[s.player - 1], s.melds[s.player - 1]
    subsets = {c for k in range(1, len(hand) + 1) for c in combinations(hand, k)}
    melds = {(MELD, *c) for c in subsets if meld_problem(s.cfg, mine, c) is None}
    adds = {
        (ADD, n, *c)
        for n in range(1, len(mine) + 1)
        for c in subsets
        if add_problem(mine, n, c) is None
    }
    assert {a for a in GAME.legal(s) if a[0] in (MELD, ADD)} == melds | adds


def grows(before: tuple[tuple[int, ...], ...], after: tuple[tuple[int, ...], ...]) -> bool:
    """Melds are never taken apart: each old meld is inside its new self (K3.3)."""
    if len(after) < len(before):
        return False
    return all(not Counter(old) - Counter(new) for old, new in zip(before, after, strict=False))


@pytest.mark.parametrize(("players", "deck", "option_set"), CONFIGS)
def test_random_games_end_within_max_actions_with_cards_conserved(
    players: int, deck: Deck, option_set: int
) -> None:
    options = CtverakOptions(deck=deck, **OPTION_SETS[option_set])
    bound = GAME.info.max_actions(players, options)
    full = deck_counts(deck == "half")
    for seed in range(2):
        rng = random.Random(seed * 31 + players)
        agents: list[Agent] = [
            BasicAgent() if (seed + p) % 3 == 0 else RandomAgent() for p in range(players)
        ]
        s = new(players, options, seed)
        check_state(s, full)
        actions = 0
        while GAME.outcome(s) is None:
            legal = GAME.legal(s)
            for a in legal:
                assert GAME.parse(s, GAME.format(s, a)) == a
            p = s.player
            view = GAME.view(s, p)
            assert view["hand"] == [card_code(c) for c in s.hands[p - 1]]
            action = agents[p - 1].act(Turn(GAME, p, players, options, view, legal, rng))
            assert action in legal
            before, snapshot = s, GAME.to_json(s)
            s = GAME.apply(s, action)
            assert GAME.to_json(before) == snapshot and GAME.apply(before, action) == s  # pure
            s = settle(s, rng)  # a stock draw's card comes by chance (K4.1)
            assert all(grows(b, a) for b, a in zip(before.melds, s.melds, strict=True))
            actions += 1
            assert actions <= bound
            check_state(s, full)
            lays_agree(s)
            if action[0] in (DISCARD, END) and s.step != OVER:  # a turn starts: K10 round trip
                assert GAME.from_json(GAME.to_json(s), players, options, seed) == s
        assert immutable(s) and immutable(before)
        outcome = GAME.outcome(s)
        assert outcome is not None and outcome.reason.endswith(("(K5.1)", "(K5.2)"))
        scores = GAME.scores(s)
        assert scores is not None and set(scores) == set(range(1, players + 1))


def test_conformance_kit() -> None:
    report = assert_conformance("ctverak", games=2, seed=5)
    assert report.checks["views"].runs > 0 and report.checks["record"].runs > 0


def test_same_seed_same_game() -> None:
    def game(seed: int) -> list[str]:
        s, rng, out = GAME.new(3, CtverakOptions(reshuffle=True), seed), random.Random(seed), []
        while GAME.outcome(s) is None:
            legal = GAME.legal(s)
            a = legal[rng.randrange(len(legal))]
            out.append(GAME.format(s, a))
            s = GAME.apply(s, a)
        return out

    assert game(5) == game(5) and game(5) != game(6)


# ---------------------------------------------------------------- the basic agent


def agent_move(s: State) -> str:
    p = s.player
    turn = Turn(
        GAME, p, len(s.hands), CtverakOptions(), GAME.view(s, p), GAME.legal(s), random.Random(0)
    )
    action = BasicAgent().act(turn)
    assert action in turn.legal
    return GAME.format(s, action)


def test_basic_agent_does_not_feed_the_next_players_open_meld() -> None:
    s = position({1: "5S 9D KC 2H", 2: "3C"}, melds={2: ["9S 9H"]}, piles=("", "9C", "", ""))
    move = agent_move(s)
    assert move.startswith("discard") and "9D" not in move
    assert move.endswith(" 2")  # and it covers the 9C the next player wants


def test_basic_agent_draws_a_pile_top_that_fits_its_meld() -> None:
    s = position({1: "2S 3D 5C", 2: "3C"}, melds={1: ["7S 7H"]}, piles=("KD", "7D", "", ""))
    assert agent_move(s) == "draw 2"
    s = position({1: "2S 3D 5C", 2: "3C"}, piles=("KD", "8D", "", ""))
    assert agent_move(s) == "draw stock"  # nothing fits: the stock


def test_basic_agent_completes_ctverky_and_lays_pairs() -> None:
    s = position({1: "7D 7C 2S X", 2: "3C"}, melds={1: ["7S 7H"]})
    assert agent_move(s) == "add 1 7D 7C"
    s = position({1: "5S 5H 9D X", 2: "3C"})
    assert agent_move(s) == "meld 5S 5H"  # the joker is kept for completing
    s = position({1: "2S 3D 5C", 2: "3C"}, melds={1: ["7S 7H 7D"]}, stock="X")
    s = GAME.apply(s, GAME.parse(s, "draw stock"))
    s = GAME.apply(s, GAME.parse(s, "draw X"))  # the stock's card, by chance (K4.1)
    assert agent_move(s) == "add 1 X"


def test_basic_agent_keeps_pairs_and_jokers_when_discarding() -> None:
    s = position(
        {1: "5S 5H X KC", 2: "3C"}, melds={1: ["5D 5C 5S 5H"]}, distinct_ranks=True
    )  # the 5s cannot be melded again
    assert agent_move(s).startswith("discard KC")


def test_basic_agent_beats_random() -> None:
    wins = Counter[str]()
    options = CtverakOptions()
    for seed in range(16):
        basic_seat = 1 + seed % 2
        s, rng = new(2, options, seed), random.Random(seed)
        agents: dict[int, Agent] = {basic_seat: BasicAgent(), 3 - basic_seat: RandomAgent()}
        while GAME.outcome(s) is None:
            p = s.player
            turn = Turn(GAME, p, 2, options, GAME.view(s, p), GAME.legal(s), rng)
            s = settle(GAME.apply(s, agents[p].act(turn)), rng)
        for w in s.winners:
            wins["basic" if w == basic_seat else "random"] += 1
    assert wins["basic"] >= 14, wins


def test_hint_names_useful_tops_and_dangerous_cards() -> None:
    s = position({1: "9D KC 2H 5S", 2: "3C"}, melds={2: ["9S 9H"]}, piles=("KD", "", "", ""))
    text = advice(GAME.view(s, 1), 1, CtverakOptions())
    assert "pile 1 top KD" in text and "do not discard 9D" in text
    # not on pile 1: that would bury the KD that pairs with the own KC
    assert text.endswith("if you lay nothing, discard 2H 2")
    assert advice(GAME.view(s, None), 1, CtverakOptions()).startswith("no hints")


# ---------------------------------------------------------------- plugin wiring


def test_registered_with_its_info_options_and_rules() -> None:
    game = registry().get("ctverak")
    assert isinstance(game, CtverakGame)
    info = game.info
    assert (info.name, info.min_players, info.max_players) == ("Čtverák", 2, 6)
    assert info.hidden_information
    rows = {row["name"]: row for row in opts.describe(info.options)}
    assert set(rows) == {
        "deck", "scoring", "reshuffle", "distinct_ranks", "min_natural", "discard_rule",
        "stall_limit", "ranks", "suits", "hand", "piles", "max_turns",
    }  # fmt: skip
    # the research variants (issue 36) default to the printed rules
    assert [rows[n]["default"] for n in ("ranks", "suits", "hand", "piles", "max_turns")] == [
        13, 4, 4, 4, 0,
    ]  # fmt: skip
    assert all(row["help"] for row in rows.values())
    assert rows["deck"]["allowed"] == ["full", "half"] and rows["deck"]["default"] == "full"
    built = opts.build(info.options, {"deck": "half", "reshuffle": "true"}, "ctverak")
    assert built == CtverakOptions(deck="half", reshuffle=True)
    text = presentation_of(game).rules_text()
    assert "## Notation" in text and "draw stock" in text and "190" in text
    assert agent_levels(game)["basic"].make is BasicAgent


def test_render_draws_cards_hand_numbers_and_marks() -> None:
    from rich.console import Console

    melds = {1: ["KS KH KD KC", "7S 7H 7D"], 2: ["X X X X"]}
    s = position({1: "9D KC 2H 5S", 2: "3C"}, melds=melds, piles=("9C TH", "", "", ""))
    console = Console(width=120, record=True, color_system=None)
    console.print(presentation_of(GAME).render(GAME.view(s, 1), 1))
    out = console.export_text()
    for part in ("#1", "K♠", "10♥", "9♣", "★X", "clean čtverka", "open", "joker čtverka", "pile 2"):
        assert part in out, part
    assert "stock" in out and "discard owed" in out


def test_legal_kinds_by_step() -> None:
    s = position({1: "7S 7H", 2: "3C"}, piles=("9C", "", "", ""))
    assert {a[0] for a in GAME.legal(s)} == {DRAW}
    s = position({1: "7S 7H X 2C", 2: "3C"})
    assert {a[0] for a in GAME.legal(s)} == {MELD, DISCARD}
    s = position({1: "7S 7H X 2C", 2: "3C"}, melds={1: ["7D 7C"]})
    assert {a[0] for a in GAME.legal(s)} == {MELD, ADD, DISCARD}
    assert (MELD, *cards("7S 7H")) not in GAME.legal(s)  # K3.3: the 7 meld is open
    assert (MELD, *cards("2C X")) in GAME.legal(s) and JOKER in s.hands[0]

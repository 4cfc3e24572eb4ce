"""Čtverák's chance steps (issue 35): the deal (K2.1, K2.2) and every stock draw (K4.1),
with the K5.2 reshuffle, are chance steps whose outcomes are exactly the unseen cards,
each as likely as its copies; the card is told to whoever gets it only (K8)."""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction

import pytest

from tabletop.core.match import Match
from tabletop.core.table import told
from tabletop.game import CHANCE, translate
from tabletop_ctverak.cards import card_code
from tabletop_ctverak.render import unseen_text
from tabletop_ctverak.rules import (
    DEAL,
    DEAL_CARD,
    DRAWING,
    OVER,
    TAKE,
    CtverakOptions,
    State,
    deal_target,
    dealt,
)
from tests.test_ctverak import GAME, play, position

OPTIONS = [CtverakOptions(), CtverakOptions(deck="half", reshuffle=True)]


def random_match(players: int, options: CtverakOptions, seed: int, cut: int = 10_000) -> Match:
    """A match of random players, the chance drawn by the match from its seed."""
    match = Match(GAME, players, options, seed)
    rng = random.Random(seed)
    while match.player() is not None and len(match.actions) < cut:
        legal = GAME.legal(match.state)
        draws = [a for a in legal if a == (0, 0)]  # the stock, to reach reshuffles sooner
        match.push(draws[0] if draws and rng.random() < 0.8 else rng.choice(legal))
    return match


def chance_states(match: Match) -> list[State]:
    return [s for s in match.states if GAME.to_act(s) == CHANCE]


@pytest.mark.parametrize(
    ("players", "options"), [(2, OPTIONS[0]), (3, OPTIONS[1]), (6, OPTIONS[0])]
)
def test_k2_1_k4_1_outcomes_are_exactly_the_unseen_cards_by_their_copies(
    players: int, options: CtverakOptions
) -> None:
    match = random_match(players, options, seed=players)
    states = chance_states(match)
    assert sum(s.step == DEAL for s in states) == 4 * players + 4
    assert sum(s.step == DRAWING for s in states) > 10
    for state in states:
        outcomes = GAME.chance_outcomes(state)
        assert all(type(p) is Fraction and p > 0 for _, p in outcomes)
        assert sum(p for _, p in outcomes) == 1
        copies = Counter(state.stock)  # every card nobody has seen placed: hands, bases, stock
        kind = DEAL_CARD if state.step == DEAL else TAKE
        assert dict(outcomes) == {
            (kind, c): Fraction(n, len(state.stock)) for c, n in copies.items()
        }
        assert [a for a, _ in outcomes] == list(GAME.legal(state))
        assert list(state.stock) == sorted(state.stock)  # a multiset: no order is kept


def test_k5_2_the_reshuffle_is_a_move_and_its_draws_are_chance() -> None:
    match = random_match(3, OPTIONS[1], seed=8)
    rebuilt = [
        i
        for i in range(1, len(match.states))
        if match.states[i].reshuffles > match.states[i - 1].reshuffles
    ]
    assert rebuilt, "the game must reach a reshuffle"
    for i in rebuilt:
        before, after = match.states[i - 1], match.states[i]
        pooled = Counter(c for pile in before.piles for c in pile[:-1])
        assert match.texts[i - 1] == "draw stock" and after.step == DRAWING
        assert Counter(after.stock) == pooled and after.piles == tuple(p[-1:] for p in before.piles)
        assert {a[1] for a, _ in GAME.chance_outcomes(after)} == set(pooled)


def test_the_state_holds_no_seed_and_the_match_draws_the_deal() -> None:
    assert GAME.new(2, CtverakOptions(), 1) == GAME.new(2, CtverakOptions(), 99)
    assert "seed" not in type(GAME.new(2, CtverakOptions(), 1).cfg)._fields
    one, other = Match(GAME, 2, CtverakOptions(), 1), Match(GAME, 2, CtverakOptions(), 2)
    assert one.state.hands != other.state.hands  # the match's seed draws the chance
    assert Match(GAME, 2, CtverakOptions(), 1).state == one.state
    assert one.texts[:2] == [f"deal {card_code(c)}" for c in (one.actions[0][1], one.actions[1][1])]


@pytest.mark.parametrize("players", [2, 4])
def test_k8_a_card_dealt_or_drawn_is_told_to_its_owner_only(players: int) -> None:
    match = random_match(players, CtverakOptions(), seed=3, cut=150)
    assert match.player() is not None, "an unfinished game: nothing is revealed yet"
    checked = Counter[str]()
    for index, actor in enumerate(match.actors):
        if actor != CHANCE:
            continue
        before, action = match.states[index], match.actions[index]
        owner = deal_target(players, dealt(before)) if action[0] == DEAL_CARD else before.player
        for viewer in (None, *range(1, players + 1)):
            assert told(match, index, viewer) == (viewer == owner and owner != 0), (index, viewer)
        checked["base" if owner == 0 else "card"] += 1
    assert checked["base"] == 4 and checked["card"] > 4 * players


def test_k8_everything_is_told_once_the_game_is_over() -> None:
    match = random_match(2, CtverakOptions(deck="half"), seed=5)
    assert match.state.step == OVER
    index = match.actors.index(CHANCE)
    assert all(told(match, index, viewer) for viewer in (None, 1, 2))


def test_unseen_text_says_who_got_a_card_never_which() -> None:
    state = GAME.new(3, CtverakOptions(), 0)
    assert translate(unseen_text(state, (DEAL_CARD, 7)), "en") == "player 1 was dealt a card"
    state = play(state, "deal 2S", "deal 3S")
    assert translate(unseen_text(state, (DEAL_CARD, 7)), "cs") == "hráč 3 dostal kartu"
    for card in ("4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS", "QS", "KS"):
        state = play(state, f"deal {card}")
    base = unseen_text(state, (DEAL_CARD, 7))
    assert (
        base is not None and translate(base, "en") == "a base was dealt face down to pile 1 (K2.2)"
    )
    refill = position({1: "7S 7H", 2: "2C 5D 8H JC"})
    drawing = play(refill, "draw stock")
    text = unseen_text(drawing, (TAKE, 30))
    assert text is not None and translate(text, "ru") == "игрок 1 взял карту из колоды"
    assert "7" not in translate(text, "en") and card_code(30) not in translate(text, "en")
    assert unseen_text(refill, (0, 0)) is None  # a player's own action: the generic text


def test_a_record_holds_every_chance_outcome_and_replays_it() -> None:
    match = random_match(3, OPTIONS[1], seed=12, cut=300)
    record = match.record()
    assert record.chance == "actions"
    assert sum(text.startswith("deal ") for text in record.actions) == 16
    again = Match.from_record(GAME, record)
    assert again.state == match.state and again.texts == match.texts
    stated = Match(GAME, 3, OPTIONS[1], 999, draw_chance=False)  # any seed: chance is stated
    stated.play_all(record.actions)
    assert stated.state == match.state


def test_sample_at_a_decision_keeps_the_stock_unordered_and_the_view() -> None:
    match = random_match(2, CtverakOptions(), seed=4, cut=120)
    state = match.state
    player = GAME.to_act(state)
    assert isinstance(player, int)
    view = GAME.view(state, player)
    for seed in range(5):
        sampled = GAME.sample(view, player, 2, CtverakOptions(), random.Random(seed))
        assert GAME.view(sampled, player) == view
        assert list(sampled.stock) == sorted(sampled.stock) and len(sampled.stock) == len(
            state.stock
        )

"""The coach in hidden-information games (issue 28): hints and verdicts come from the
acting player's view only. Over seeded games of Čtverák and Quartino, the hidden parts of
each position are changed while that player's view stays the same, in two ways: states
sampled from the view (:meth:`Game.sample`), and the kit's leak probe (two text values
of the position JSON swapped, ``tabletop.kit.checks.views``); the hint and the verdict
on the action played must not change."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from tabletop.agents.base import Budget
from tabletop.coach.choose import coach_for, turn_for
from tabletop.coach.hints import hint_text
from tabletop.coach.review import judge
from tabletop.core.errors import PositionError
from tabletop.core.match import Match
from tabletop.core.setup import resolve
from tabletop.game import Game, player_of
from tabletop.kit.checks.views import swap_pair, text_leaves
from tabletop.kit.jsonpaths import put

BUDGET = Budget(iterations=6)  # counted, no clock: the same answer on any machine
CASES = [("ctverak", 2), ("ctverak", 3), ("quartino", 2)]


def positions(game: Game[Any, Any], players: int, seed: int, every: int) -> list[Any]:
    """Every ``every``-th position of a seeded random game, the game not over (a match:
    the chance steps drawn after each action, so every position is a player's)."""
    rng = random.Random(seed)
    match = Match(game, players, game.info.options(), seed)
    found = []
    for number in range(400):
        state = match.state
        if game.to_act(state) is None:
            break
        if number % every == 0 and player_of(game.to_act(state)) is not None:  # no chance step
            found.append(state)
        match.push(rng.choice(list(game.legal(state))))
    return found


def advice(game: Game[Any, Any], state: Any, players: int) -> tuple[str, tuple[Any, ...]]:
    """The hint on ``state`` and the verdict on every legal action (by the coach)."""
    options = game.info.options()
    assessment = coach_for(game).assess(turn_for(game, state, players, options, BUDGET))
    verdicts = tuple(judge(1, assessment, j.action, False) for j in assessment.judgements)
    return hint_text(assessment), verdicts


def swapped(game: Game[Any, Any], state: Any, players: int, rng: random.Random) -> list[Any]:
    """States with two text values of the position swapped that the player to act
    sees exactly as before (the kit's probe)."""
    options = game.info.options()
    player = player_of(game.to_act(state))
    data = game.to_json(state)
    leaves = list(text_leaves(data))
    found = []
    for _ in range(12):
        pair = swap_pair(leaves, player, rng)
        if pair is None:
            continue
        (path_a, value_a, _), (path_b, value_b, _) = pair
        other = copy.deepcopy(data)
        put(other, path_a, value_b)
        put(other, path_b, value_a)
        try:
            changed = game.from_json(other, players, options, 0)
        except PositionError:
            continue
        if game.to_json(changed) != data and game.view(changed, player) == game.view(state, player):
            found.append(changed)
    return found


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_the_same_view_gives_the_same_hint_and_verdicts(game_id: str, players: int) -> None:
    game = resolve(game_id)
    options = game.info.options()
    rng = random.Random(1)
    probed = sampled = 0
    for state in positions(game, players, seed=2, every=9)[:6]:
        player = player_of(game.to_act(state))
        assert player is not None
        view = game.view(state, player)
        expected = advice(game, state, players)
        others = [game.sample(view, player, players, options, random.Random(k)) for k in (1, 2)]
        for other in others:
            assert game.view(other, player) == view
            assert game.to_json(other) != game.to_json(state)
            assert advice(game, other, players) == expected
            sampled += 1
        for other in swapped(game, state, players, rng):
            assert advice(game, other, players) == expected
            probed += 1
    assert sampled >= 10 and probed >= 3


def seen(hand: str, next_open: str = "", mine: tuple[str, ...] = (), tops: str = "") -> Any:
    """What a Čtverák player sees, from card codes (``"KS KH 7S"``)."""
    from tabletop_ctverak.agents import Seen
    from tabletop_ctverak.cards import RANKS, parse_card

    def cards(text: str) -> tuple[int, ...]:
        return tuple(c for c in (parse_card(w) for w in text.split()) if c is not None)

    piles = tuple((c,) for c in cards(tops)) + ((),) * (4 - len(cards(tops)))
    opened = frozenset(RANKS.index(r) for r in next_open.split())
    return Seen(cards(hand), tuple(cards(m) for m in mine),
                tuple(p[-1] if p else None for p in piles), piles, 40,
                opened, opened, (8,) * 13)  # fmt: skip


def test_ctverak_says_why_from_what_the_player_sees() -> None:
    from tabletop_ctverak.cards import parse_card
    from tabletop_ctverak.coach import why
    from tabletop_ctverak.rules import ADD, DISCARD, DRAW, END, MELD, STOCK

    def card(code: str) -> int:
        found = parse_card(code)
        assert found is not None
        return found

    hand = seen("KS KH 7S 3D", next_open="7")
    assert why(hand, (DISCARD, card("7S"), 1)) == (
        "feeds the next player's open meld of sevens; keeps your pair of kings"
    )
    assert why(hand, (DISCARD, card("KS"), 1)) == "breaks your pair of kings"
    assert why(hand, (DISCARD, card("3D"), 2)) == "keeps your pair of kings"
    assert why(hand, (MELD, card("KS"), card("KH"))) == "starts a meld of kings"
    assert why(hand, (END,)) == "ends the turn, keeping your cards"
    assert why(hand, (DRAW, STOCK)) == "draws an unseen card from the stock"
    tops = seen("KS 7S 3D", tops="KD 9C 3H X")
    assert why(tops, (DRAW, 1)) == "takes KD, making a pair of kings"
    assert why(tops, (DRAW, 2)) == "takes 9C, which fits nothing of yours"
    assert why(tops, (DRAW, 4)) == "takes the joker on pile 4"
    meld = seen("7H", mine=("7S 7C 7D",))
    assert why(meld, (ADD, 1, card("7H"))) == "completes your čtverka of sevens"
    covering = seen("4S 5D", next_open="9", tops="9C")
    said = why(covering, (DISCARD, card("4S"), 1))
    assert said == "covers 9C, which the next player's meld wants"

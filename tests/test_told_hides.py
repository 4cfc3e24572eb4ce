"""Game.hides: a text that would show the others something hidden is the actor's alone.

Quartino's false claim (N4.4) names a card of the actor's stand that stays there unseen;
late in a game that card can land in the actor's hand in every state the table samples,
so the table's generic test alone would tell it (found by the hidden-information sweep
over several servers, tests/test_web_shared.py)."""

from __future__ import annotations

import random

from tabletop.core.match import Match
from tabletop.core.table import told
from tabletop.testing import registry


def false_claims(players: int, seed: int) -> tuple[Match, list[int]]:
    """A random Quartino game preferring claims; the indices of its false claims."""
    game = registry().get("quartino")
    match = Match(game, players, game.info.options(), seed)
    rng = random.Random(seed)
    found = []
    while match.outcome() is None and len(match.actions) < 400:
        state = match.state
        legal = game.legal(state)
        claims = [a for a in legal if game.format(state, a).startswith("claim")]
        action = rng.choice(claims if claims and rng.random() < 0.5 else legal)
        if game.hides(state, action):
            found.append(len(match.actions))
        match.play(game.format(state, action))
    return match, found


def test_a_false_claim_is_told_to_nobody_but_the_actor() -> None:
    checked = 0
    for players in (2, 3, 4):
        for seed in range(3):
            match, indices = false_claims(players, seed)
            for index in indices:
                actor = match.actors[index]
                assert told(match, index, actor)
                for viewer in [None, *range(1, players + 1)]:
                    if viewer == actor:
                        continue
                    assert not told(match, index, viewer), (players, seed, index, viewer)
                    checked += 1
    assert checked > 50


def test_a_true_claim_and_the_other_actions_are_left_to_the_table() -> None:
    game = registry().get("quartino")
    match, _ = false_claims(2, 0)
    for state, action in zip(match.states, match.actions, strict=False):
        text = game.format(state, action)
        if not text.startswith("claim"):
            assert not game.hides(state, action)

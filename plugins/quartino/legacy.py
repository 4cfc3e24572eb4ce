"""Records made before Quartino's deal became chance steps (issue 35) replay as then.

Until then ``new_state`` shuffled the 24 cards with ``random.Random(seed)``, gave player 1
the first 4, player 2 the next 4, and so on, and with ``start=lot`` then drew the first
player from the same generator (N2.1, N2.2). :func:`seeded_chance` recomputes that shuffle
and answers, at each chance step of such a record, the card (or player) it gave there
(:mod:`tabletop.core.legacy`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from pydantic import BaseModel

from tabletop.game import CHANCE
from tabletop_quartino.cards import deck
from tabletop_quartino.rules import (
    DEALS,
    LOTS,
    Action,
    State,
    apply,
    config,
    dealing,
    new_state,
)


def old_deal(seed: int, players: int, by_lot: bool) -> tuple[list[int], int]:
    """The earlier version's shuffle of ``seed`` (the cards in dealing order) and its first
    player (1 without the lot): its code, line for line."""
    rng = random.Random(seed)
    cards = list(range(len(deck())))
    rng.shuffle(cards)
    first = rng.randrange(players) + 1 if by_lot else 1
    return cards, first


def seeded_chance(states: Sequence[State], seed: int) -> Action:
    """The outcome the earlier version drew at the chance step due at ``states[-1]``: the
    next card of its shuffle (as many are dealt as the stands hold), or its lot."""
    state = states[-1]
    players = len(state.stands)
    cards, first = old_deal(seed, players, state.cfg.by_lot)
    if dealing(state):
        return DEALS[cards[sum(map(len, state.stands))]]
    return LOTS[first]


def dealt_as_before(players: int, options: BaseModel, seed: int) -> State:
    """The start the earlier version's ``new(players, options, seed)`` gave: the deal (and
    the lot) drawn as its seeded shuffle drew them. For tests and tools written against
    those seeds; a match draws its own chance."""
    states = [new_state(players, config(players, options))]
    while states[-1].to_act == CHANCE:
        states.append(apply(states[-1], seeded_chance(states, seed)))
    return states[-1]

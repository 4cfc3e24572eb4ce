"""Records made before Čtverák's deal and draws became chance steps (issue 35).

Version 0.1.0 kept the seed in the state: ``new`` shuffled the deck with
``random.Random(seed)`` and dealt from it (K2.1: cards ``0..4N-1`` one at a time to
players 1..N, the next 4 the bases, the rest the stock, drawn from the front), and the
K5.2 reshuffle shuffled the piles' cards below each top with
``random.Random(f"ctverak-reshuffle:{seed}:{count}")``. Its records, saves and golden
games hold no chance outcome; :func:`seeded_chance` gives the card that version dealt or
drew at each chance step, so they replay to the same position
(:mod:`tabletop.core.legacy`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import lru_cache

from tabletop_ctverak.cards import deck
from tabletop_ctverak.rules import DEAL, DEAL_CARD, DRAWING, TAKE, Action, Cards, State, dealt


@lru_cache(maxsize=64)
def shuffled_deck(seed: int, half: bool) -> Cards:
    """The deck as version 0.1.0 shuffled it for ``seed`` (K2.1), the deal's order."""
    cards = list(deck(half))
    random.Random(seed).shuffle(cards)
    return tuple(cards)


def reshuffled_stock(seed: int, count: int, piles: Sequence[Cards]) -> Cards:
    """The stock version 0.1.0 made at its reshuffle number ``count`` (from 0) of the
    piles ``piles`` (K5.2): the cards below each top, in pile order, shuffled."""
    pool = [card for pile in piles for card in pile[:-1]]
    random.Random(f"ctverak-reshuffle:{seed}:{count}").shuffle(pool)
    return tuple(pool)


def seeded_chance(states: Sequence[State], seed: int) -> Action:
    """The card version 0.1.0 dealt or drew at the chance step due at ``states[-1]``
    (``states``: the whole path from the first state) in a game made with ``seed``."""
    state = states[-1]
    cfg = state.cfg
    if state.step == DEAL:
        return (DEAL_CARD, shuffled_deck(seed, cfg.half)[dealt(state)])
    if state.step != DRAWING:
        raise ValueError(f"no chance step is due (step {state.step})")
    count = state.reshuffles
    if not count:  # the deal's stock, drawn from the front
        order = shuffled_deck(seed, cfg.half)[4 * cfg.players + 4 :]
        since = 0
    else:  # the stock of the last reshuffle, made by the draw out of states[since - 1]
        since = next(i for i, s in enumerate(states) if s.reshuffles == count)
        order = reshuffled_stock(seed, count - 1, states[since - 1].piles)
    drawn = sum(1 for s in states[since:-1] if s.step == DRAWING)
    return (TAKE, order[drawn])

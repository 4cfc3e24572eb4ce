"""How far each player is from a čtverák (K5.1): the evaluation the AI levels search with.

A player's *distance* is the number of cards they still lack for four čtverky (K3.2,
K5.1), counted from their best plan: complete čtverky (a joker čtverka counting two),
then per rank the cards already owned towards a čtverka of it (their open meld plus
the naturals of that rank in hand), the best ``4 - čtverky`` ranks chosen, jokers in hand
filling any gap. A rank whose missing cards are no longer unseen somewhere (all its
copies lie in melds, or under pile tops) costs double: only a joker can finish it.
Cards laid out of the hand are next turn's draws (K4.1), so each free hand slot is
worth a little.

The value for a player is a logistic of their distance against the nearest opponent's.
It reads the whole state it is given; the agents call it on states sampled from their
own view (:meth:`Game.sample`), so an opponent's hand there is a guess, not a peek.
"""

from __future__ import annotations

import math

from tabletop_ctverak.cards import JOKER
from tabletop_ctverak.rules import OVER, Cards, State, ctverky

SCALE = 2.5  # distance difference that moves the value from 0.5 to ~0.73
DRAW_WORTH = 0.25  # a free hand slot: one more draw next turn
LAID_WORTH = 0.1  # a card in a meld rather than in hand (it is safe, the hand is free)


def unseen_counts(state: State, copies: int) -> list[int]:
    """Per rank (0-12), copies not on the table and not in any hand's melds or piles:
    what may still be drawn (stock, hands, bases, pile tops count as drawable)."""
    counts = [copies] * 13
    for mine in state.melds:
        for meld in mine:
            for card in meld:
                if card != JOKER:
                    counts[card >> 2] -= 1
    for pile in state.piles:
        for card in pile[:-1]:  # buried under the top: never drawn again without reshuffle
            if card != JOKER:
                counts[card >> 2] -= 1
    return counts


def distance(mine: tuple[Cards, ...], hand: Cards, free: list[int]) -> float:
    """Cards still lacking for four čtverky (see the module docstring); ``free`` is the
    per-rank count of copies that may still be drawn by this player."""
    done = ctverky(mine)
    if done >= 4:
        return 0.0
    owned = [0] * 14
    laid = 0
    for meld in mine:
        if len(meld) < 4:
            owned[meld[0] >> 2] += len(meld)
            laid += len(meld)
    jokers = 0
    for card in hand:
        if card == JOKER:
            jokers += 1
        else:
            owned[card >> 2] += 1
    costs = []
    for key in range(13):
        have = owned[key]
        while have > 0:
            part = min(have, 4)
            need = 4 - part
            cost = float(need)
            if need > free[key]:
                cost += need - free[key]
            costs.append(cost)
            have -= 4
    if owned[13]:  # an open joker meld: only jokers finish it, two čtverky when done
        costs.append(2.0 * (4 - owned[13]))
    costs.sort()
    slots = 4 - done
    costs = costs[:slots]
    total = sum(costs) + 4.0 * (slots - len(costs))
    total -= jokers
    total -= LAID_WORTH * laid + DRAW_WORTH * (4 - len(hand))
    return max(0.0, total)


def evaluate(state: State, player: int) -> float:
    """0..1 for ``player``: the logistic of the nearest opponent's distance minus theirs."""
    if state.step == OVER:
        if not state.winners:
            return 1.0 / state.cfg.players
        return 1.0 if player in state.winners else 0.0
    copies = 1 if state.cfg.half else 2
    seen = unseen_counts(state, state.cfg.suits * copies)  # 4 suits unless a research deck
    seen[state.cfg.ranks :] = [0] * (13 - state.cfg.ranks)  # ranks a research deck lacks
    me = -1.0
    best = 1e9
    for p in range(1, state.cfg.players + 1):
        hand = state.hands[p - 1]
        free = seen[:]
        for card in hand:
            if card != JOKER:
                free[card >> 2] -= 1
        d = distance(state.melds[p - 1], hand, free)
        if p == player:
            me = d
        elif d < best:
            best = d
    return 1.0 / (1.0 + math.exp((me - best) / SCALE))

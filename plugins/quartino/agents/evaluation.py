"""How good a Quartino position looks for one player: the search's leaf score.

A card on the stand is worth what the placements it still needs make it (``VALUE``):
the fewest pawns that would make it match at its best reading (N3.2), less the
placements the player to act still owes this turn (N4.1, N4.2), each such placement
discounted a little, since owed pawns cannot serve every card at once. A completed card
is worth 1. The score compares the player's total with the best other player's.

It reads the whole state; the search agents call it on determinised states
(``Game.sample``), so what they learn from it is no more than their view.
"""

from __future__ import annotations

import functools

from tabletop_quartino.cards import RING, deck
from tabletop_quartino.rules import State

Need = tuple[tuple[int, int], ...]  # (field, colour) pairs a card shows at one reading

# A card on the stand by the placements it still needs: 0 (matches now) … 4.
VALUE = (0.8, 0.45, 0.25, 0.12, 0.05)
# The same, steeper: a card far from matching is worth little, since the board changes
# before the player's next turn (level 5's reading; it beats VALUE in the arena).
STEEP = (0.8, 0.2, 0.06, 0.02, 0.01)
SPARE = 0.97  # discount per owed placement a card counts on


@functools.cache
def needs(card: int, mirror: bool, ring: int = RING) -> tuple[tuple[int, Need], ...]:
    """Every (k, reading) of ``card`` (N3.2): the plain one per k, then mirrored ones; on a
    ring of fewer fields (option ring, N1.1) only the readings that lie on it."""
    d = deck()
    out: list[tuple[int, Need]] = []
    for k in range(len(d.plain)):
        ways = (d.plain[k], d.mirror[k]) if mirror else (d.plain[k],)
        for fields in ways:
            if max(fields) > ring:
                continue
            pairs = ((0, d.centre[card]), *zip(fields, d.ring[card], strict=True))
            out.append((k, pairs))
    return tuple(out)


def tops_of(state: State) -> list[int]:
    """Top colour per field, -1 where empty (N3.1)."""
    return [stack[-1] if stack else -1 for stack in state.board]


def missing(tops: list[int], card: int, mirror: bool, ring: int = RING) -> int:
    """The fewest pawns ``card`` still needs to match at some reading (0 = matches)."""
    least = 4
    for _, need in needs(card, mirror, ring):
        n = 0
        for f, c in need:
            if tops[f] != c:
                n += 1
        if n < least:
            least = n
            if not n:
                break
    return least


def progress(
    state: State,
    player: int,
    tops: list[int] | None = None,
    value: tuple[float, ...] = VALUE,
) -> float:
    """``player``'s cards, 0 … 4: 1 per completed card, ``VALUE`` per card on the stand."""
    tops = tops_of(state) if tops is None else tops
    mirror, ring = state.cfg.mirror, state.cfg.ring
    spare = state.owed if state.to_act == player else 0
    total = float(len(state.done[player - 1]))
    for card in state.stands[player - 1]:
        total += card_value(missing(tops, card, mirror, ring), spare, value)
    return total


def card_value(n: int, spare: int, value: tuple[float, ...] = VALUE) -> float:
    """A card on the stand that needs ``n`` pawns, with ``spare`` placements owed."""
    used = min(n, spare)
    return value[n - used] * SPARE**used


def expected_progress(
    state: State,
    player: int,
    unseen: list[int],
    tops: list[int],
    value: tuple[float, ...] = VALUE,
) -> float:
    """``player``'s progress as another player sees it: their stand's cards are unknown, so
    each counts as the mean of the ``unseen`` cards (N7)."""
    size = len(state.stands[player - 1])
    total = float(len(state.done[player - 1]))
    if not size or not unseen:
        return total
    spare = state.owed if state.to_act == player else 0
    mirror, ring = state.cfg.mirror, state.cfg.ring
    mean = sum(card_value(missing(tops, u, mirror, ring), spare, value) for u in unseen)
    mean /= len(unseen)
    return total + size * mean


def evaluate(state: State, player: int) -> float:
    """0 (lost) … 1 (won): 1/2 plus the lead of ``player``'s progress over the best other
    player's, scaled into 0…1 (a draw is 1/2)."""
    if not state.to_act:
        return 0.5 if not state.winner else float(state.winner == player)
    tops = tops_of(state)
    mine = progress(state, player, tops)
    others = max(progress(state, p, tops) for p in range(1, len(state.stands) + 1) if p != player)
    return 0.5 + (mine - others) / 8

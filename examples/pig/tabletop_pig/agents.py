"""Pig's computer players (the agents facet): how a position looks to a player, and how
far the generic search plays out.

The generic search plays random rolls and holds to the end of the game in every playout;
in a race to 100 that is a hundred steps, so 4,000 playouts never fit in the 2 s a move
and levels 4 and 5 played alike. ``PLAYOUT_LIMIT`` stops each playout after 12 steps,
scored by :func:`evaluate`, so each level gets the playouts it names.
"""

from __future__ import annotations

from tabletop_pig.rules import State

PLAYOUT_LIMIT = 12  # steps of a playout (rolls, holds and the die's outcomes) before scoring


def evaluate(state: State, player: int) -> float:
    """The lead in banked points (plus one's own turn total) over the best other."""
    mine = state.scores[player - 1] + (state.total if state.turn == player else 0)
    others = max(s for i, s in enumerate(state.scores, start=1) if i != player)
    return min(1.0, max(0.0, 0.5 + (mine - others) / (2 * state.winscore)))

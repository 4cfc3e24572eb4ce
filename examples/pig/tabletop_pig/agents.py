"""Pig's computer players' judgement (the agents facet): how a position looks to a player."""

from __future__ import annotations

from tabletop_pig.rules import State


def evaluate(state: State, player: int) -> float:
    """The lead in banked points (plus one's own turn total) over the best other."""
    mine = state.scores[player - 1] + (state.total if state.turn == player else 0)
    others = max(s for i, s in enumerate(state.scores, start=1) if i != player)
    return min(1.0, max(0.0, 0.5 + (mine - others) / (2 * state.winscore)))

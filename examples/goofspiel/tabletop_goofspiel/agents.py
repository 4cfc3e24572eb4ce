"""Goofspiel's computer players' judgement (the agents facet): how a position looks."""

from __future__ import annotations

from tabletop_goofspiel.rules import State


def evaluate(state: State, player: int) -> float:
    """The lead in points against the best other player, as a share of all prizes."""
    others = [p for i, p in enumerate(state.points, start=1) if i != player]
    total = state.cards * (state.cards + 1) // 2
    lead = state.points[player - 1] - max(others)
    return min(1.0, max(0.0, 0.5 + lead / total))

"""Goofspiel's computer players (the agents facet): how a position looks, and the search
budgets of its levels.

Levels 3-5 are the generic search (each sealed round searched by decoupled UCT with a
mixed choice) with budgets of Goofspiel's own: 50, 200 and 1000 playouts a move instead of
the generic 200, 1000 and 4000. More than 1000 buys nothing here: with 8 cards the generic
level 5 (4000) won 47% (40%-55%, 200 games) against level 4 (1000): both play close to the
mixed equilibrium of a symmetric sealed-bid game, where a stronger search has nothing
left to exploit. Each of these budgets is measurably stronger than the one below it.
"""

from __future__ import annotations

from tabletop.agents.levels import search_levels
from tabletop_goofspiel.rules import State


def evaluate(state: State, player: int) -> float:
    """The lead in points against the best other player, as a share of all prizes."""
    others = [p for i, p in enumerate(state.points, start=1) if i != player]
    total = state.cards * (state.cards + 1) // 2
    lead = state.points[player - 1] - max(others)
    return min(1.0, max(0.0, 0.5 + lead / total))


LEVELS = search_levels({"3": 50, "4": 200, "5": 1000})  # described in the core's words

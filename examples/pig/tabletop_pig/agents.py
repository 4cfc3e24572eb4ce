"""Pig's computer players (the agents facet): how a position looks to a player, and the
levels 3-5 that search with short playouts.

The generic search plays random rolls and holds to the end of the game in every playout;
in a race to 100 that is a hundred steps, so 4,000 playouts never fit in the 2 s a move
and levels 4 and 5 play alike. Here a playout stops after :data:`PLAYOUT_PLIES` steps and
the position is scored by :func:`evaluate`, so each level gets the playouts it names.
"""

from __future__ import annotations

from tabletop.agents.base import Budget, Level
from tabletop.agents.search import SearchAgent
from tabletop.game import Domain
from tabletop_pig.rules import State

_ = Domain("tabletop_pig")

PLAYOUT_PLIES = 12  # steps of a playout (rolls, holds and the die's outcomes) before scoring


def evaluate(state: State, player: int) -> float:
    """The lead in banked points (plus one's own turn total) over the best other."""
    mine = state.scores[player - 1] + (state.total if state.turn == player else 0)
    others = max(s for i, s in enumerate(state.scores, start=1) if i != player)
    return min(1.0, max(0.0, 0.5 + (mine - others) / (2 * state.winscore)))


def short_search() -> SearchAgent:
    """MCTS whose playouts stop after :data:`PLAYOUT_PLIES` steps, scored by the lead."""
    return SearchAgent(playout_limit=PLAYOUT_PLIES)


LEVELS = {
    name: Level(
        name,
        _(
            "MCTS, playouts of {plies} steps scored by the lead, {n} playouts a move (≤ 2 s)",
            plies=PLAYOUT_PLIES,
            n=n,
        ),
        short_search,
        Budget(iterations=n, seconds=2.0),
    )
    for name, n in (("3", 200), ("4", 1000), ("5", 4000))
}

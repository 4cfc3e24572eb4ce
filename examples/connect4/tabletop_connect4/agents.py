"""Connect Four's levels 3-5: tabletop's generic tree search, scoring leaves with ``evaluate``.

The generic levels 3-5 finish every playout with random drops; in Connect Four random
play is so far from real play that they lose to level 2 (greedy with the evaluation).
The same search stopping at the new leaf and asking the evaluation instead
(``playout_limit=0``) beats greedy clearly; these levels replace the generic ones.
"""

from __future__ import annotations

from tabletop.agents.base import Budget, Level
from tabletop.agents.search import SearchAgent


def leaf_search() -> SearchAgent:
    """MCTS whose playouts stop at once: the leaf is scored by ``ConnectFourGame.evaluate``."""
    return SearchAgent(playout_limit=0)


LEVELS = {
    name: Level(
        name,
        f"MCTS with the open-line evaluation at the leaves, {n} playouts a move (≤ 2 s)",
        leaf_search,
        Budget(iterations=n, seconds=2.0),
    )
    for name, n in (("3", 200), ("4", 1000), ("5", 4000))
}

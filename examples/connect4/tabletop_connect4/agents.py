"""Connect Four's levels 3-5: tabletop's generic tree search, scoring leaves with ``evaluate``.

The generic levels 3-5 finish every playout with random drops; in Connect Four random
play is so far from real play that they lose to level 2 (greedy with the evaluation).
The same search stopping at the new leaf and asking the evaluation instead
(``playout_limit=0``) beats greedy clearly; these levels replace the generic ones.

The exploration constant is lowered to ``EXPLORATION`` (the generic search's is 0.7, set
for rewards of 0 and 1): an evaluation lies between 0.1 and 0.9 and moves differ by a few
hundredths, so at 0.7 the search spreads its playouts almost evenly, and 1000 of them
played no better than 200 (level 4 won 51% of the decided games against level 3).
"""

from __future__ import annotations

from tabletop.agents.base import Budget, Level
from tabletop.agents.search import SearchAgent

EXPLORATION = 0.3


def leaf_search() -> SearchAgent:
    """MCTS whose playouts stop at once: the leaf is scored by ``ConnectFourGame.evaluate``."""
    return SearchAgent(exploration=EXPLORATION, playout_limit=0)


LEVELS = {
    name: Level(
        name,
        f"MCTS with the open-line evaluation at the leaves, {n} playouts a move (≤ 2 s)",
        leaf_search,
        Budget(iterations=n, seconds=2.0),
    )
    for name, n in (("3", 200), ("4", 1000), ("5", 4000))
}

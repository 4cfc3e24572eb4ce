"""Čtverák's AI levels 3-5, replacing the generic tree-search ones.

Levels 1 (random) and 2 (greedy: one ply with :func:`strategy.evaluate`) are the
generic ones. Above them the ladder is a line of ever better habits, each level beating
the one below in the arena (``python -m bench.ladder ctverak``): the novice takes a
pile top only for a joker or an open meld, the basic agent also takes tops that make a
pair and does not feed the next player, and the expert also spends jokers to lay lone
cards, counts cards before discarding and plans each refill as a whole, pile cards below
the tops included (:func:`~tabletop_ctverak.agents.plan_draw`).

The generic information-set search is not used: in this game of chance its random
playouts are meaningless (most random games end blocked, K5.2), and simulations that
follow the expert over a few turns proved too noisy within 2 s a move to beat the
expert itself; each level here decides in a few milliseconds at most.

With more players the piles decide more (taking pile tops is most of basic's edge over
the novice), so the refill plan is the expert's main edge over basic there: 5 vs 4 won
59% of the decided games with 2 players (1000 games), 56% with 3, 60% with 4 and 59%
with 6 (600 games each); without the plan it was 51-55%. Measured and dropped for not
helping: weighing every later player's open meld when discarding or covering, denying
pile tops, card counting in the draw, holding cards or jokers back, and a flat Monte
Carlo (common samples, the expert playing one round, :func:`strategy.evaluate`) over
the discard or the draw.
"""

from __future__ import annotations

from collections.abc import Mapping

from tabletop.agents.base import Level
from tabletop.agents.search import SearchAgent
from tabletop.core.i18n.text import Domain
from tabletop_ctverak.agents import BasicAgent, ExpertAgent, NoviceAgent

_ = Domain("tabletop_ctverak")

LEVELS: Mapping[str, Level] = {
    "3": Level(
        "3",
        _("novice: basic, but takes a pile top only for a joker or an open meld, not a pair"),
        NoviceAgent,
    ),
    "4": Level(
        "4",
        _("basic: draws the pile tops it can use, lays pairs, never feeds the next player"),
        BasicAgent,
    ),
    "5": Level(
        "5",
        _(
            "expert: basic, plus jokers laid with lone cards (more draws), card counting "
            "for discards and refills planned over the cards below the pile tops"
        ),
        ExpertAgent,
    ),
}


def ismcts() -> SearchAgent:
    """The named agent ``ismcts``: tabletop's information-set MCTS (1000 deals a move
    unless budgeted), its leaves scored by :func:`strategy.evaluate` instead of random
    playouts. Kept for comparison; the levels above play better (see the module doc)."""
    return SearchAgent(playout_limit=0)

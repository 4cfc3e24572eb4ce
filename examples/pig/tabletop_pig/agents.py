"""Pig's computer players (the agents facet): how a position looks to a player, how far
the generic search plays out, and Pig's own ladder.

The generic search plays random rolls and holds to the end of the game in every playout;
in a race to 100 that is a hundred steps, so 4,000 playouts never fit in the 2 s a move
and levels 4 and 5 played alike. ``PLAYOUT_LIMIT`` stops each playout after 12 steps,
scored by :func:`evaluate`, so each level gets the playouts it names.

Pig's ladder is its own (``LEVELS``): the generic greedy level, which weighs a roll by
the die's chances, *is* the textbook "hold at 20", and no search does much better: the
perfect policy wins 54.0% against it (exactly, by policy evaluation; Neller and Presser
2004), so no rung above it could show in a few hundred games. The levels are therefore
real ways of playing from timid to perfect: 1 random, 2 hold at 5, 3 hold at 10, 4 greedy
(hold at 20), 5 perfect (:mod:`tabletop_pig.optimal`) for two players racing to 100 with
a six-sided die, greedy otherwise. Exact win rates of each rung, both seats averaged:
2 vs 1 97.5%, 3 vs 2 91.9%, 4 vs 3 69.6% (hold at 20 against hold at 10), 5 vs 4 54.0%.
"""

from __future__ import annotations

import functools

from tabletop.agents.base import Level, Turn
from tabletop.agents.simple import GreedyAgent
from tabletop.game import Domain
from tabletop_pig import optimal
from tabletop_pig.rules import HOLD, ROLL, State

_ = Domain("tabletop_pig")

PLAYOUT_LIMIT = 12  # steps of a playout (rolls, holds and the die's outcomes) before scoring


def evaluate(state: State, player: int) -> float:
    """The lead in banked points (plus one's own turn total) over the best other."""
    mine = state.scores[player - 1] + (state.total if state.turn == player else 0)
    others = max(s for i, s in enumerate(state.scores, start=1) if i != player)
    return min(1.0, max(0.0, 0.5 + (mine - others) / (2 * state.winscore)))


def _state(turn: Turn) -> State:
    state: State = turn.game.sample(turn.view, turn.player, turn.players, turn.options, turn.rng)
    return state


class HoldAt:
    """Rolls while the turn total is below ``target``, then holds (holding is forced once
    the points reach the goal, P2.4)."""

    def __init__(self, target: int):
        self.target = target

    def act(self, turn: Turn) -> int:
        if ROLL in turn.legal and _state(turn).total < self.target:
            return ROLL
        return HOLD


class PerfectAgent:
    """The policy that maximises the chance of winning (:mod:`tabletop_pig.optimal`) where
    its table is shipped: two players, the goal and die of the table; greedy elsewhere."""

    def act(self, turn: Turn) -> int:
        state = _state(turn)
        if len(turn.legal) == 1:
            return int(turn.legal[0])
        if len(state.scores) != 2 or not optimal.has_table(state.winscore, state.faces):
            return int(GreedyAgent().act(turn))
        mine, other = state.scores[state.turn - 1], state.scores[2 - state.turn]
        rolls = optimal.rolls(state.winscore, state.faces, mine, other, state.total)
        return ROLL if rolls else HOLD


LEVELS = {
    "2": Level(
        "2", _("timid: holds once the turn total reaches {n}", n=5), functools.partial(HoldAt, 5)
    ),
    "3": Level(
        "3",
        _("careful: holds once the turn total reaches {n}", n=10),
        functools.partial(HoldAt, 10),
    ),
    "4": Level(
        "4",
        _("greedy: weighs a roll by the die's chances (the textbook: hold at 20)"),
        GreedyAgent,
    ),
    "5": Level(
        "5",
        _(
            "perfect: the policy that wins most often (Neller and Presser), two players "
            "racing to 100 with a six-sided die; greedy otherwise"
        ),
        PerfectAgent,
    ),
}

"""Quartino's own agents, its levels 2-5 and its evaluation (its computer-player facet).
The agents read ``turn.view``, ``turn.legal``, ``turn.rng`` and ``turn.budget`` only."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tabletop.agents.base import Agent, AgentFactory, Budget, Level, Turn
from tabletop.game import Domain
from tabletop_quartino.agents.evaluation import evaluate as evaluate  # the facet's
from tabletop_quartino.agents.hint import best_fit, rotations, view_tops
from tabletop_quartino.cards import deck
from tabletop_quartino.rules import CLAIM, END, PLACE, Action

_ = Domain("tabletop_quartino")


class BasicAgent:
    """Claims whenever one of its cards matches (never falsely); otherwise places the pawn
    that brings its cards closest to matching (each card scored by how many of its 4 fields
    show the right top colour at its best rotation, 4**count summed over the cards), ties
    broken by the rng; ends the turn when nothing better is left."""

    def act(self, turn: Turn) -> Any:
        legal: list[Action] = list(turn.legal)
        view = turn.view
        d = deck()
        stand = [d.index[code] for code in view.get("stand", [])]
        mirror = bool(view.get("mirror"))
        tops = view_tops(view)
        places = [a for a in legal if a.kind == PLACE]
        if places:
            return self._best_place(places, tops, stand, mirror, turn)
        offered = {(a.a, a.b) for a in legal if a.kind == CLAIM}
        for card in stand:
            for k in rotations(tops, card, mirror):
                if (card, k) in offered:
                    return next(a for a in legal if a.kind == CLAIM and (a.a, a.b) == (card, k))
        return next(a for a in legal if a.kind == END)  # no placement owed: end is legal (N4.5)

    @staticmethod
    def _best_place(
        places: list[Action], tops: list[int], stand: list[int], mirror: bool, turn: Turn
    ) -> Action:
        best: list[Action] = []
        best_score = -1
        for a in places:
            new = list(tops)
            new[a.b] = a.a
            score = sum(4 ** best_fit(new, card, mirror).hits for card in stand)
            if score > best_score:
                best, best_score = [a], score
            elif score == best_score:
                best.append(a)
        return best[turn.rng.randrange(len(best))]


def _planner() -> Agent:
    from tabletop_quartino.agents.search import QuartinoSearch

    return QuartinoSearch()


def _sharp_planner() -> Agent:
    from tabletop_quartino.agents.evaluation import STEEP
    from tabletop_quartino.agents.search import QuartinoSearch

    return QuartinoSearch(value=STEEP, sharpness=2.0)


def _level(name: int, playouts: int) -> Level:
    return Level(
        str(name),
        _(
            "turn planner: information-set MCTS over its placements and true claims, "
            "leaves scored by its lead in progress against the unseen cards, {n} "
            "playouts a move (≤ 2 s)",
            n=playouts,
        ),
        _planner,
        Budget(iterations=playouts, seconds=2.0),
    )


# The ladder (python -m bench.ladder quartino, with 2, 3 and 4 players): each level beats
# the one below. With the lead as its score the planner gains nothing from more than
# ~16 playouts; level 5 scores leaves by a softmax over every player's progress, with
# far cards worth less (STEEP), and that reading keeps gaining up to 100 playouts.
LEVELS: Mapping[str, Level] = {
    "2": Level("2", _("basic: claims what matches, places towards its closest card"), BasicAgent),
    "3": _level(3, 8),
    "4": _level(4, 16),
    "5": Level(
        "5",
        _(
            "turn planner whose leaves weigh every player's progress (a softmax), far cards "
            "counting little, 100 playouts a move (≤ 2 s)"
        ),
        _sharp_planner,
        Budget(iterations=100, seconds=2.0),
    ),
}

AGENTS: Mapping[str, AgentFactory] = {"basic": BasicAgent}

"""The levels every game gets, and every agent a game can be played against by name.

Every game has levels ``1``-``5`` (generic configurations, which a game may replace
through ``LEVELS`` of its agents module, :mod:`tabletop.agents.facet`) plus named agents:
``random``, ``greedy``, ``mcts`` (perfect-information games) or ``ismcts`` (hidden
information), and any the game adds (``AGENTS`` of its agents module).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

from tabletop.agents.base import Agent, Budget, Level
from tabletop.agents.facet import players_of
from tabletop.agents.simple import GreedyAgent, RandomAgent
from tabletop.core.i18n.text import Domain
from tabletop.game import Game

_ = Domain("tabletop")

DEFAULT_LEVEL = "3"


def _search(name: str, description: str, iterations: int, limit: int | None = None) -> Level:
    """The generic tree search with ``iterations`` playouts a move (capped at 2 s), each
    playout cut after ``limit`` steps where the game asks (its ``PLAYOUT_LIMIT``)."""
    factory = functools.partial(_search_agent, limit)
    return Level(name, description, factory, Budget(iterations=iterations, seconds=2.0))


def _search_agent(limit: int | None) -> Agent:
    """The generic search (imported when a level is chosen, not when levels are listed)."""
    from tabletop.agents.search import SearchAgent

    return SearchAgent() if limit is None else SearchAgent(playout_limit=limit)


GENERIC_BUDGETS = {"3": 200, "4": 1000, "5": 4000}  # playouts a move of levels 3-5


def search_levels(
    budgets: Mapping[str, int], hidden: bool = False, limit: int | None = None
) -> dict[str, Level]:
    """Levels of the generic search, ``budgets`` naming each level's playouts a move,
    described in the core's (translated) words: the generic levels 3-5, and a game's own
    budgets (its ``LEVELS``, as Goofspiel's)."""
    levels = {}
    for name, iterations in budgets.items():
        if hidden:
            described = _("information-set MCTS, {n} playouts a move (≤ 2 s)", n=iterations)
        else:
            described = _("MCTS (UCT), {n} playouts a move (≤ 2 s)", n=iterations)
        levels[name] = _search(name, described, iterations, limit)
    return levels


def generic_levels(game: Game[Any, Any]) -> dict[str, Level]:
    """The ladder every game gets: 1 random, 2 greedy, 3-5 tree search of growing budget."""
    hidden = game.info.hidden_information
    limit = players_of(game).playout_limit
    return {
        "1": Level("1", _("random legal actions"), RandomAgent),
        "2": Level("2", _("greedy: one ply with the game's evaluation"), GreedyAgent),
        **search_levels(GENERIC_BUDGETS, hidden, limit),
    }


def agent_levels(game: Game[Any, Any]) -> dict[str, Level]:
    """Every level and named agent a game can be played against, by name."""
    levels = generic_levels(game)
    own = players_of(game)
    levels.update(own.levels())
    named: dict[str, Level] = {
        "random": Level("random", _("random legal actions"), RandomAgent),
        "greedy": Level("greedy", _("one ply with the game's evaluation"), GreedyAgent),
    }
    search = "ismcts" if game.info.hidden_information else "mcts"
    named[search] = _search(
        search, _("the generic tree search, {n} playouts a move", n=1000), 1000, own.playout_limit
    )
    for name, factory in own.agents().items():
        named[name] = Level(
            name, _("{game}'s own agent {name}", game=game.info.name, name=repr(name)), factory
        )
    return {**levels, **named}

"""The agents of the research extra, registered through the ``tabletop_register_agents``
hook like any outside agent (entry point ``tabletop``: ``research-agents``):
``openspiel-mcts:N``, OpenSpiel's MCTS with N simulations a move
(:mod:`tabletop.bridges.mcts`, imported only when such an agent is asked for, so that
listing the agents loads no research stack)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tabletop.hookspecs import hookimpl


def openspiel_mcts(game: Any, name: str) -> Any:
    """The level ``openspiel-mcts:N`` (:func:`tabletop.bridges.mcts.level`)."""
    from tabletop.bridges.mcts import level

    return level(game, name)


@hookimpl
def tabletop_register_agents(register: Callable[[str, Callable[[Any, str], Any]], None]) -> None:
    register("openspiel-mcts", openspiel_mcts)

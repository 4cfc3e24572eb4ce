"""A game's computer-player facet: its own agents and levels, its evaluation, its solver
(issue 34).

The agents, the analysis and the coach read it through :func:`players_of`. A game gives
it in its ``agents`` module (a module or a package; :mod:`tabletop.core.facets`), each
name optional:

- ``AGENTS``: ``{name: factory}``, extra named agents beside the generic ones;
- ``LEVELS``: ``{"1".."5": Level}``, the game's own levels (each replaces the generic
  one of that name);
- ``evaluate(state, player) -> float | None``: how good ``state`` looks for ``player``,
  0 (lost) to 1 (won), None for no opinion (``greedy`` ranks by it, the search agents
  score cut playouts with it);
- ``PLAYOUT_LIMIT``: the steps after which the generic levels' playouts stop and are
  scored by ``evaluate`` (default: played out, up to
  :data:`tabletop.agents.playouts.PLAYOUT_LIMIT`), for a game whose playouts to the
  end are too long for a level's playouts to fit its 2 s;
- ``solve(state, seconds) -> JSON | None``: the exact value of ``state`` for the player
  to act (``value``, ``exact``, ``best``, ``summary``; ``tabletop solve``).

A game without the module gets the generic players only.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol

from tabletop.agents.base import AgentFactory, Level
from tabletop.core.facets import Accessor, facet_module, method, old_methods
from tabletop.game import JSON, Game

OLD = {
    "agents": "give AGENTS in the game's agents module",
    "levels": "give LEVELS in the game's agents module",
    "evaluate": "define evaluate(state, player) in the game's agents module",
    "solve": "define solve(state, seconds) in the game's agents module",
}


class Players(Protocol):
    """What the agents and the analysis need of a game besides its rules."""

    def agents(self) -> Mapping[str, AgentFactory]:
        """Extra named agents of this game (e.g. ``basic``), beside the generic ones."""

    def levels(self) -> Mapping[str, Level]:
        """This game's own levels ``1``-``5`` (each replaces the generic one)."""

    def evaluate(self, state: Any, player: int) -> float | None:
        """How good ``state`` looks for ``player``: 0 (lost) to 1 (won); None = no opinion."""

    def solve(self, state: Any, seconds: float | None) -> JSON | None:
        """The exact value of ``state`` for the player to act, or None without a solver."""

    @property
    def playout_limit(self) -> int | None:
        """The steps of the generic levels' playouts (None: played out)."""


def _no_opinion(state: Any, player: int) -> float | None:
    return None


def _no_solver(state: Any, seconds: float | None) -> JSON | None:
    return None


class Bound:
    """The players of one game: its old methods where its class still has any
    (deprecated), else its ``agents`` module, else the generic players only."""

    def __init__(self, game: Game[Any, Any]) -> None:
        old = old_methods(game, OLD)
        module: Any = None if old else facet_module(game, "agents")
        self._agents: Callable[[], Mapping[str, AgentFactory]]
        self._levels: Callable[[], Mapping[str, Level]]
        if old:
            self._agents = method(game, "agents") if "agents" in old else dict
            self._levels = method(game, "levels") if "levels" in old else dict
            self.evaluate: Callable[[Any, int], float | None] = (
                method(game, "evaluate") if "evaluate" in old else _no_opinion
            )
            self.solve: Callable[[Any, float | None], JSON | None] = (
                method(game, "solve") if "solve" in old else _no_solver
            )
            self.playout_limit: int | None = None
            return
        agents: Mapping[str, AgentFactory] = getattr(module, "AGENTS", {})
        levels: Mapping[str, Level] = getattr(module, "LEVELS", {})
        self._agents, self._levels = (lambda: agents), (lambda: levels)
        self.evaluate = getattr(module, "evaluate", _no_opinion)
        self.solve = getattr(module, "solve", _no_solver)
        self.playout_limit = getattr(module, "PLAYOUT_LIMIT", None)

    def agents(self) -> Mapping[str, AgentFactory]:
        return self._agents()

    def levels(self) -> Mapping[str, Level]:
        return self._levels()


players_of: Accessor[Players] = Accessor[Players](Bound)
"""The computer-player facet of ``game`` (:class:`Players`), built on first use and kept."""

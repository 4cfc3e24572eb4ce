"""Players that are programs: the agent protocol and the generic agents.

An agent sees only what its seat may see: the player's ``view`` (JSON) and the
actions listed for it, plus a seeded random generator. It never gets the true
state of a hidden-information game.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from tabletop.errors import UsageError
from tabletop.game import JSON, AgentFactory, Game

if TYPE_CHECKING:
    from pydantic import BaseModel


@dataclass(frozen=True)
class Turn:
    """What an agent is handed when its seat must act."""

    game: Game[Any, Any]
    player: int
    players: int
    options: BaseModel
    view: JSON
    legal: Sequence[Any]
    rng: random.Random


class Agent(Protocol):
    """Chooses one of ``turn.legal``; same turn and same rng state give the same choice."""

    def act(self, turn: Turn) -> Any: ...


class RandomAgent:
    """Uniform random choice among the legal actions."""

    def act(self, turn: Turn) -> Any:
        return turn.legal[turn.rng.randrange(len(turn.legal))]


GENERIC_AGENTS: Mapping[str, AgentFactory] = {"random": RandomAgent}


def agent_levels(game: Game[Any, Any]) -> dict[str, AgentFactory]:
    """Every agent a game can be played against: the generic ones, then the game's own."""
    levels: dict[str, AgentFactory] = dict(GENERIC_AGENTS)
    levels.update(game.agents())
    return levels


def default_level(game: Game[Any, Any]) -> str:
    """The strongest level a game names first among its own agents, else ``random``."""
    own = list(game.agents())
    return own[-1] if own else "random"


def make_agent(game: Game[Any, Any], level: str | None) -> tuple[str, Agent]:
    """The agent for ``level`` (default: :func:`default_level`); UsageError lists the known."""
    levels = agent_levels(game)
    name = level or default_level(game)
    if name not in levels:
        known = ", ".join(levels)
        raise UsageError(f"unknown AI level {name!r} for {game.info.id}; known levels: {known}")
    return name, levels[name]()

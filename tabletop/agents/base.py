"""The agent vocabulary: what an agent is handed, what it answers, how long it may think.

An agent sees only what its seat may see: the player's ``view`` (JSON) and the legal
actions, plus a budget and a seeded random generator. It never gets the true state of
a hidden-information game; search agents of such games sample states consistent with
the view (:meth:`tabletop.game.Game.sample`).

A leaf module: it imports nothing from ``tabletop`` at run time, so the contract
(:mod:`tabletop.game`) can name these types without an import cycle.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from pydantic import BaseModel

    from tabletop.game import JSON, Game


# What builds a fresh agent (a class, or a function of no arguments).
AgentFactory = Callable[[], "Agent"]


@dataclass(frozen=True)
class Budget:
    """How long an agent may think: playouts (reproducible) and/or seconds (a cap)."""

    iterations: int | None = None
    seconds: float | None = None


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
    budget: Budget = field(default_factory=Budget)


class Agent(Protocol):
    """Chooses one of ``turn.legal``; the same turn and rng state give the same choice
    (for an agent that keeps what it learnt between moves, such as the search's tree: the
    same turns before it too; a seat makes a fresh agent for every game)."""

    def act(self, turn: Turn) -> Any: ...


@dataclass(frozen=True)
class Level:
    """A named agent configuration: what to build and how long it may think."""

    name: str
    description: str
    make: AgentFactory
    budget: Budget = field(default_factory=Budget)

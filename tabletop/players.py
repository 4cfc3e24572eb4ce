"""Players that are programs: the agent protocol, budgets, levels and the generic agents.

An agent sees only what its seat may see: the player's ``view`` (JSON) and the legal
actions, plus a budget and a seeded random generator. It never gets the true state of
a hidden-information game; search agents of such games sample states consistent with
the view (:meth:`tabletop.game.Game.sample`).

Every game has levels ``1``-``5`` (generic configurations, which a game may replace
through :meth:`~tabletop.game.Game.levels`) plus named agents: ``random``, ``greedy``,
``mcts`` (perfect-information games) or ``ismcts`` (hidden information), and any the
game adds through :meth:`~tabletop.game.Game.agents`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from tabletop.core.errors import UsageError
from tabletop.game import JSON, AgentFactory, Game

if TYPE_CHECKING:
    from pydantic import BaseModel

    from tabletop.core.match import Match


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
    """Chooses one of ``turn.legal``; the same turn and rng state give the same choice."""

    def act(self, turn: Turn) -> Any: ...


@dataclass(frozen=True)
class Level:
    """A named agent configuration: what to build and how long it may think."""

    name: str
    description: str
    make: AgentFactory
    budget: Budget = field(default_factory=Budget)


class RandomAgent:
    """Uniform random choice among the legal actions."""

    def act(self, turn: Turn) -> Any:
        return turn.legal[turn.rng.randrange(len(turn.legal))]


class GreedyAgent:
    """One ply: take a winning action, else the one the game's evaluation likes best.

    Without an evaluation it still wins when it can and avoids actions that end the
    game lost; ties are broken at random.
    """

    def act(self, turn: Turn) -> Any:
        game, player = turn.game, turn.player
        state = game.sample(turn.view, player, turn.players, turn.options, turn.rng)
        best: list[Any] = []
        best_score = -1.0
        for action in turn.legal:
            after = game.apply(state, action)
            outcome = game.outcome(after)
            if outcome is not None:
                score = 2.0 if player in outcome.winners else (0.5 if not outcome.winners else -1)
            else:
                value = game.evaluate(after, player)
                score = 0.5 if value is None else value
            if score > best_score:
                best, best_score = [action], score
            elif score == best_score:
                best.append(action)
        return best[turn.rng.randrange(len(best))]


def _search(name: str, description: str, iterations: int) -> Level:
    """The generic tree search with ``iterations`` playouts a move (capped at 2 s)."""
    from tabletop.search import SearchAgent

    return Level(name, description, SearchAgent, Budget(iterations=iterations, seconds=2.0))


def generic_levels(game: Game[Any, Any]) -> dict[str, Level]:
    """The ladder every game gets: 1 random, 2 greedy, 3-5 tree search of growing budget."""
    search = "information-set MCTS" if game.info.hidden_information else "MCTS (UCT)"
    levels = {
        "1": Level("1", "random legal actions", RandomAgent),
        "2": Level("2", "greedy: one ply with the game's evaluation", GreedyAgent),
    }
    for name, iterations in (("3", 200), ("4", 1000), ("5", 4000)):
        described = f"{search}, {iterations} playouts a move (≤ 2 s)"
        levels[name] = _search(name, described, iterations)
    return levels


def agent_levels(game: Game[Any, Any]) -> dict[str, Level]:
    """Every level and named agent a game can be played against, by name."""
    levels = generic_levels(game)
    levels.update(game.levels())
    named: dict[str, Level] = {
        "random": Level("random", "random legal actions", RandomAgent),
        "greedy": Level("greedy", "one ply with the game's evaluation", GreedyAgent),
    }
    search = "ismcts" if game.info.hidden_information else "mcts"
    named[search] = _search(search, "the generic tree search, 1000 playouts a move", 1000)
    for name, factory in game.agents().items():
        named[name] = Level(name, f"{game.info.name}'s own agent {name!r}", factory)
    return {**levels, **named}


DEFAULT_LEVEL = "3"


@dataclass(frozen=True)
class Seat:
    """A computer player at the table: its level's name, the agent and its budget."""

    level: str
    agent: Agent
    budget: Budget

    def choose(
        self,
        game: Game[Any, Any],
        state: Any,
        player: int,
        players: int,
        options: BaseModel,
        rng: random.Random,
    ) -> Any:
        """The agent's action for ``player`` in ``state``, from that player's view only."""
        turn = Turn(
            game,
            player,
            players,
            options,
            game.view(state, player),
            list(game.legal(state)),
            rng,
            self.budget,
        )
        return self.agent.act(turn)

    def move(self, match: Match) -> Any:
        """The agent's action for the player to act in ``match``, with a generator seeded
        by the match's seed, that player and the move number: the same move whether the
        match is played at the terminal or in the arena."""
        player = match.to_act()
        assert player is not None, "the game is over: nobody is to act"
        rng = random.Random(f"{match.seed}:{player}:{len(match.actions)}")
        return self.choose(match.game, match.state, player, match.players, match.options, rng)


def make_seat(game: Game[Any, Any], level: str | None) -> Seat:
    """The computer player for ``level`` (default 3); UsageError lists the known levels."""
    if level and level.lower().startswith("openspiel-mcts:"):  # the research extra
        from tabletop.bridges.mcts import seat

        return seat(game, level)
    levels = agent_levels(game)
    name = level or DEFAULT_LEVEL
    if name not in levels:
        known = ", ".join(levels)
        raise UsageError(f"unknown AI level {name!r} for {game.info.id}; known levels: {known}")
    chosen = levels[name]
    return Seat(name, chosen.make(), chosen.budget)

"""A computer player at the table: a level's agent, its budget, and the view it acts on."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from tabletop.agents.base import Agent, Budget, Turn
from tabletop.agents.levels import DEFAULT_LEVEL, agent_levels
from tabletop.core.errors import UsageError
from tabletop.core.i18n.text import Domain
from tabletop.core.registry import registry
from tabletop.game import Game

if TYPE_CHECKING:
    from pydantic import BaseModel

    from tabletop.core.match import Match

_ = Domain("tabletop")


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
        """The agent's action for ``player`` in ``state``, from that player's view only
        (at a simultaneous step: among that player's own choices, before anyone's is
        applied)."""
        turn = Turn(
            game,
            player,
            players,
            options,
            game.view(state, player),
            list(game.choices(state, player)),
            rng,
            self.budget,
        )
        return self.agent.act(turn)

    def move(self, match: Match, player: int | None = None) -> Any:
        """The agent's action for ``player`` (default: the first awaited) in ``match``,
        with a generator seeded by the match's seed, that player and the move number: the
        same move whether the match is played at the terminal or in the arena."""
        choosers = match.choosers()
        assert choosers, "the game is over: nobody is to act"
        who = choosers[0] if player is None else player
        rng = random.Random(f"{match.seed}:{who}:{len(match.actions)}")
        return self.choose(match.game, match.state, who, match.players, match.options, rng)


def make_seat(game: Game[Any, Any], level: str | None) -> Seat:
    """The computer player for ``level`` (default 3); UsageError lists the known levels.

    ``PREFIX:ARGS`` is an agent a plugin registered (``tabletop_register_agents``), e.g.
    ``openspiel-mcts:N``, OpenSpiel's MCTS with N simulations a move (the research extra).
    """
    name = level or DEFAULT_LEVEL
    prefix, colon, _args = name.lower().partition(":")
    outside = registry().agents() if colon else {}
    if prefix in outside:  # the plugin imports its stack when the agent is asked for
        chosen = outside[prefix](game, name)
        return Seat(name, chosen.make(), chosen.budget)
    levels = agent_levels(game)
    if name not in levels:
        known = ", ".join(levels)
        raise UsageError(
            _(
                "unknown AI level {name} for {game}; known levels: {known}",
                name=repr(name),
                game=game.info.id,
                known=known,
            )
        )
    chosen = levels[name]
    return Seat(name, chosen.make(), chosen.budget)

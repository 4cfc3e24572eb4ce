"""``openspiel-mcts:N``: OpenSpiel's own MCTS (``MCTSBot``) as a tabletop computer player.

N simulations a move, UCT constant 2, one random rollout per leaf, ``solve=True`` (proven
wins and losses back up exactly), as in OpenSpiel's examples. It searches a state the
game samples from the player's view (:meth:`~tabletop.game.Game.sample`: for a
perfect-information game the position itself; with hidden cards one determinisation),
through :mod:`tabletop.bridges.openspiel`, so it never sees what its seat may not. Its
random numbers come from the turn's generator: the same arena seed gives the same games.
OpenSpiel is imported only when such an agent is made.

:class:`BotAgent` seats any OpenSpiel bot the same way: ``BotAgent(make)`` with
``make(spiel_game, numpy_random_state)`` returning the bot; at each move it gets a fresh
bot and a state sampled from the seat's view, so it cannot see what the seat may not.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tabletop.agents.base import Budget, Level, Turn
from tabletop.bridges.facet import encodes, encoding_of
from tabletop.core.errors import UsageError
from tabletop.core.i18n.text import Domain
from tabletop.core.numbers import parse_int, quote
from tabletop.game import Game

_ = Domain("tabletop")

PREFIX = "openspiel-mcts:"
UCT_C = 2.0
MOST = 1_000_000


def is_name(level: str | None) -> bool:
    """Whether ``level`` names this agent (``openspiel-mcts:N``)."""
    return bool(level) and str(level).lower().startswith(PREFIX)


class BotAgent:
    """Any OpenSpiel bot as a tabletop agent: ``make(spiel_game, rng)`` makes the bot for
    each move (``rng`` a ``numpy.random.RandomState`` from the turn's generator), which
    acts on a state the game samples from the seat's view (:meth:`Game.sample`)."""

    def __init__(self, make: Callable[[Any, Any], Any]) -> None:
        self.make = make
        self._games: dict[tuple[str, int, str], Any] = {}

    def act(self, turn: Turn) -> Any:
        import numpy as np

        from tabletop.bridges import openspiel

        game = turn.game
        key = (game.info.id, turn.players, turn.options.model_dump_json())
        if key not in self._games:
            self._games[key] = openspiel.load(game.info.id, turn.players, turn.options)
        spiel = self._games[key]
        state = game.sample(turn.view, turn.player, turn.players, turn.options, turn.rng)
        bot = self.make(spiel, np.random.RandomState(turn.rng.randrange(2**31)))
        action_id = int(bot.step(spiel.state_of(state)))
        encoding = encoding_of(game)
        assert encoding is not None  # openspiel.load refuses a game without one
        return encoding.action_of(state, action_id)


class OpenSpielMCTS(BotAgent):
    """The agent: one fresh MCTSBot search per move."""

    def __init__(self, simulations: int) -> None:
        super().__init__(self._bot)
        self.simulations = simulations

    def _bot(self, spiel: Any, rng: Any) -> Any:
        from open_spiel.python.algorithms import mcts

        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
        return mcts.MCTSBot(spiel, UCT_C, self.simulations, evaluator, solve=True, random_state=rng)


def level(game: Game[Any, Any], level: str) -> Level:
    """The level ``openspiel-mcts:N`` (``make_seat`` seats it); UsageError for a bad N or a
    missing extra."""
    text = level[len(PREFIX) :]
    simulations = parse_int(text, 1, MOST)
    if simulations is None:
        raise UsageError(
            _(
                "bad agent {agent}: write openspiel-mcts:N with N simulations a move, "
                "1-{most}, e.g. openspiel-mcts:1000",
                agent=quote(level),
                most=MOST,
            )
        )
    try:
        import open_spiel  # noqa: F401
        import pyspiel  # noqa: F401
    except ImportError:
        raise UsageError(
            _(
                "{agent} needs OpenSpiel: pip install 'tabletop[research]' (the research extra)",
                agent=level,
            )
        ) from None
    if encodes(game, game.info.min_players, game.info.options()) is None:
        raise UsageError(
            _("{game} has no action ids, so OpenSpiel cannot play it", game=game.info.id)
        )
    return Level(
        level,
        _("OpenSpiel's MCTSBot, {count} simulations a move", count=simulations),
        lambda: OpenSpielMCTS(simulations),
        Budget(iterations=simulations),
    )

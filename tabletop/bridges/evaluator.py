"""The game's own judgement as an OpenSpiel evaluator, for ``MCTSBot`` and ``ISMCTSBot``.

    from open_spiel.python.algorithms import ismcts
    from tabletop.bridges.evaluator import GameEvaluator

    evaluator = GameEvaluator(game)  # game: a tabletop pyspiel game
    bot = ismcts.ISMCTSBot(game, evaluator, 2.0, 200, random_state=rng)

OpenSpiel's searchers score a leaf with an ``Evaluator``: ``evaluate(state)`` (a value
per player) and ``prior(state)`` (a probability per legal action). The documented
``RandomRolloutEvaluator`` plays random actions to the end, which in these games ends
drawn or blocked nearly always, so the search learns nothing. :class:`GameEvaluator`
asks the game instead:

- where the game judges positions (:meth:`~tabletop.game.Game.evaluate`, 0 lost .. 1
  won, as Quartino, Čtverák and Connect Four do), each player's value is
  ``2 * evaluate(state, seat) - 1``, the scale of the ``win`` returns (+1 won, -1 lost);
- where it does not (Quarto), the position is played out to the end by the game's own
  level ``level`` (default ``2``: Quarto's "wins when it can, never hands over a winning
  piece") at every seat, and the value is that end's returns, ``rollouts`` times averaged;
- an end is its returns; before the deal, the shuffle is drawn at random first.

The prior is uniform over the legal actions (the chance outcomes at a chance node). The
evaluator reads the state it is given: under ``ISMCTSBot`` (or :class:`~.openspiel.SampledBot`)
that is a state resampled from the acting player's view, so it judges a determinisation,
never the real hidden cards.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from open_spiel.python.algorithms import mcts

from tabletop.agents.facet import players_of
from tabletop.bridges.common import end_returns
from tabletop.core.match import draw
from tabletop.game import CHANCE

DEFAULT_LEVEL = "2"


class GameEvaluator(mcts.Evaluator):  # type: ignore[misc]
    """An OpenSpiel ``Evaluator`` (``evaluate``/``prior``) from the game's own
    evaluation, or its level ``level``'s play-outs where it has none (module docstring)."""

    def __init__(
        self, game: Any, level: str = DEFAULT_LEVEL, rollouts: int = 1, seed: int = 0
    ) -> None:
        self.config = game.config
        self.reward = game.reward
        self.level = level
        self.rollouts = max(1, int(rollouts))
        self.rng = random.Random(seed)
        self._seat: Any = None  # the play-out's agent, made when first needed

    def evaluate(self, state: Any) -> np.ndarray:
        if state.is_terminal():
            return np.asarray(state.returns(), dtype=float)
        if state.is_chance_node():
            state = state.clone()
            while state.is_chance_node():
                state.apply_action(draw(state.chance_outcomes(), self.rng))
        return self.values(state.tabletop)

    def values(self, position: Any) -> np.ndarray:
        """Each player's value of a tabletop ``position`` (not over), -1 .. +1."""
        c = self.config
        evaluate = players_of(c.game).evaluate
        judged = [evaluate(position, seat) for seat in range(1, c.players + 1)]
        known = [v for v in judged if v is not None]
        if len(known) == len(judged):
            return np.asarray([2.0 * v - 1.0 for v in known], dtype=float)
        total = np.zeros(c.players)
        for _ in range(self.rollouts):
            total += self.play_out(position)
        result: np.ndarray = total / self.rollouts
        return result

    def play_out(self, position: Any) -> np.ndarray:
        """The returns of ``position`` played to its end by level ``level`` at every seat."""
        from tabletop.agents.seat import make_seat

        c = self.config
        if self._seat is None:
            self._seat = make_seat(c.game, self.level)
        state = position
        while (actor := c.game.to_act(state)) is not None:
            if actor == CHANCE:  # the die, by its probabilities (issue 36)
                action = draw(c.game.chance_outcomes(state), self.rng)
            elif isinstance(actor, frozenset):  # each player's own choice, applied together
                action = tuple(self._choose(state, p) for p in sorted(actor))
            else:
                action = self._choose(state, actor)
            state = c.game.apply(state, action)
        return np.asarray(end_returns(c, state, self.reward), dtype=float)

    def _choose(self, state: Any, player: int) -> Any:
        c = self.config
        return self._seat.choose(c.game, state, player, c.players, c.options, self.rng)

    def prior(self, state: Any) -> list[tuple[int, float]]:
        if state.is_chance_node():
            outcomes: list[tuple[int, float]] = state.chance_outcomes()
            return outcomes
        legal = state.legal_actions(state.current_player())
        return [(action, 1.0 / len(legal)) for action in legal]

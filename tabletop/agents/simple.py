"""The agents that do not search: uniform random, and greedy over one ply."""

from __future__ import annotations

from typing import Any

from tabletop.agents.base import Turn
from tabletop.agents.facet import players_of


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
        evaluate = players_of(game).evaluate
        for action in turn.legal:
            after = game.apply(state, action)
            outcome = game.outcome(after)
            if outcome is not None:
                score = 2.0 if player in outcome.winners else (0.5 if not outcome.winners else -1)
            else:
                value = evaluate(after, player)
                score = 0.5 if value is None else value
            if score > best_score:
                best, best_score = [action], score
            elif score == best_score:
                best.append(action)
        return best[turn.rng.randrange(len(best))]

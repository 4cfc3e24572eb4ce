"""The agents that do not search: uniform random, and greedy over one ply."""

from __future__ import annotations

from typing import Any

from tabletop.agents.base import Turn
from tabletop.agents.facet import players_of


class RandomAgent:
    """Uniform random choice among the legal actions."""

    def act(self, turn: Turn) -> Any:
        return turn.legal[turn.rng.randrange(len(turn.legal))]


SEALED_SAMPLES = 8  # the others' choices sampled per own choice at a simultaneous step


class GreedyAgent:
    """One ply: take a winning action, else the one the game's evaluation likes best.

    Without an evaluation it still wins when it can and avoids actions that end the
    game lost; ties are broken at random.
    """

    def act(self, turn: Turn) -> Any:
        game, player = turn.game, turn.player
        state = game.sample(turn.view, player, turn.players, turn.options, turn.rng)
        acting = game.to_act(state)
        best: list[Any] = []
        best_score = -1.0
        for action in turn.legal:
            if isinstance(acting, frozenset):  # a sealed step: against others' random choices
                joints = [self._joint(turn, state, acting, action) for _ in range(SEALED_SAMPLES)]
                score = sum(self._score(game, game.apply(state, j), player) for j in joints)
                score /= SEALED_SAMPLES
            else:
                score = self._score(game, game.apply(state, action), player)
            if score > best_score:
                best, best_score = [action], score
            elif score == best_score:
                best.append(action)
        return best[turn.rng.randrange(len(best))]

    @staticmethod
    def _score(game: Any, after: Any, player: int) -> float:
        outcome = game.outcome(after)
        if outcome is not None:
            return 2.0 if player in outcome.winners else (0.5 if not outcome.winners else -1)
        value = players_of(game).evaluate(after, player)
        return 0.5 if value is None else float(value)

    @staticmethod
    def _joint(turn: Turn, state: Any, acting: frozenset[int], action: Any) -> tuple[Any, ...]:
        """``action`` for the turn's player, a random choice for each other chooser."""
        game, rng = turn.game, turn.rng
        picks = []
        for p in sorted(acting):
            options = game.choices(state, p)
            picks.append(action if p == turn.player else options[rng.randrange(len(options))])
        return tuple(picks)

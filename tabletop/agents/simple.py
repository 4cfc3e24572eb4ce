"""The agents that do not search: uniform random, and greedy over one ply."""

from __future__ import annotations

from typing import Any

from tabletop.agents.base import Turn
from tabletop.agents.facet import players_of
from tabletop.core.shapes import draw
from tabletop.game import CHANCE, Game


class RandomAgent:
    """Uniform random choice among the legal actions."""

    def act(self, turn: Turn) -> Any:
        return turn.legal[turn.rng.randrange(len(turn.legal))]


SEALED_SAMPLES = 8  # the others' choices sampled per own choice at a simultaneous step
CHANCE_EXACT = 64  # a chance step right after an action with at most this many outcomes is
# judged by its expectation; more outcomes, and every chance step after it, are sampled
CHANCE_SAMPLES = 16


class GreedyAgent:
    """One ply: take a winning action, else the one the game's evaluation likes best.

    An action that chance follows (a roll, a draw) is judged by what chance may bring:
    the expectation over the outcomes by their probabilities (sampled when they are
    many). Without an evaluation it still wins when it can and avoids actions that end
    the game lost; ties are broken at random.
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
                score = sum(self._judged(turn, game.apply(state, j)) for j in joints)
                score /= SEALED_SAMPLES
            else:
                score = self._judged(turn, game.apply(state, action))
            if score > best_score:
                best, best_score = [action], score
            elif score == best_score:
                best.append(action)
        return best[turn.rng.randrange(len(best))]

    def _judged(self, turn: Turn, after: Any) -> float:
        """The score of ``after``; at a chance step, the expected score over its outcomes
        (:data:`CHANCE_EXACT`), each chance step after those drawn with the turn's rng."""
        game, player = turn.game, turn.player
        if game.to_act(after) != CHANCE:
            return self._score(game, after, player)
        outcomes = game.chance_outcomes(after)
        if len(outcomes) <= CHANCE_EXACT:
            weighted = [(o, float(p)) for o, p in outcomes]
        else:
            share = 1 / CHANCE_SAMPLES
            weighted = [(draw(outcomes, turn.rng), share) for _ in range(CHANCE_SAMPLES)]
        return sum(p * self._score(game, _settled(game, game.apply(after, o), turn), player)
                   for o, p in weighted)  # fmt: skip

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


def _settled(game: Game[Any, Any], state: Any, turn: Turn) -> Any:
    """``state`` with every chance step due drawn with the turn's rng."""
    while game.to_act(state) == CHANCE:
        state = game.apply(state, draw(game.chance_outcomes(state), turn.rng))
    return state

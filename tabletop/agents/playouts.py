"""What a playout is, for :mod:`tabletop.agents.search`: the moves searched in the tree, how
a playout finishes from a new leaf (:class:`RandomPlayouts`: random legal moves up to
:data:`PLAYOUT_LIMIT`, chance drawn by its probabilities), and the rewards it scores (1
for a win, 0 for a loss, 1/N for a draw among N players; the game's ``evaluate`` where a
playout is cut short)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Protocol

from tabletop.agents.facet import players_of
from tabletop.core.shapes import draw
from tabletop.game import CHANCE, Game, has_shapes

PLAYOUT_LIMIT = 400


def nature(game: Game[Any, Any], state: Any, actor: Any, rng: random.Random) -> Any:
    """A chance outcome drawn by its probability, or a joint action of uniformly random
    choices (one per player choosing at once)."""
    if isinstance(actor, frozenset):
        picks = [game.choices(state, p) for p in sorted(actor)]
        return tuple(options[rng.randrange(len(options))] for options in picks)
    return draw(game.chance_outcomes(state), rng)


def rewards(game: Game[Any, Any], state: Any, players: int) -> list[float]:
    """Reward per player (index 0 unused) of a finished or cut-off state."""
    outcome = game.outcome(state)
    if outcome is None:
        values = [0.0]
        evaluate = players_of(game).evaluate
        for player in range(1, players + 1):
            value = evaluate(state, player)
            values.append(1.0 / players if value is None else value)
        return values
    if not outcome.winners:
        return [0.0] + [1.0 / players] * players
    share = 1.0 / len(outcome.winners)
    return [0.0] + [share if p in outcome.winners else 0.0 for p in range(1, players + 1)]


class Playouts(Protocol):
    """What a playout is, for one move's search."""

    def moves(self, state: Any) -> Sequence[Any]:
        """The actions searched in the tree at ``state``; none: the tree stops here."""
        ...

    def finish(self, state: Any, rng: random.Random) -> Any:
        """The state a playout from the new leaf ``state`` ends in."""
        ...

    def rewards(self, state: Any) -> Sequence[float]:
        """Reward per player (index 0 unused) of the state a playout ended in."""
        ...


class RandomPlayouts:
    """The default: every legal action in the tree, random actions for at most ``limit``
    plies after it, scored by the outcome or else by the game's ``evaluate``."""

    def __init__(self, game: Game[Any, Any], players: int, limit: int = PLAYOUT_LIMIT):
        self.game, self.players, self.limit = game, players, limit
        self.moves = game.legal
        self.shaped = has_shapes(game)

    def finish(self, state: Any, rng: random.Random) -> Any:
        game = self.game
        legal, apply = game.legal, game.apply
        to_act = game.to_act if self.shaped else None  # turn by turn: no look, as before
        for _ in range(self.limit):
            if to_act is not None:
                actor = to_act(state)
                if actor == CHANCE or isinstance(actor, frozenset):
                    state = apply(state, nature(game, state, actor, rng))
                    continue
            actions = legal(state)
            if not actions:
                break
            state = apply(state, actions[rng.randrange(len(actions))])
        return state

    def rewards(self, state: Any) -> list[float]:
        return rewards(self.game, state, self.players)

"""Stepping through a game of any shape in generic tests (issue 35): a chance step is drawn
by its probabilities, and at a simultaneous step one player of those choosing acts on
their own choices (``Game.choices``), the joint actions being ``Game.legal``'s."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from tabletop.core.match import draw
from tabletop.game import CHANCE, Game, player_of


def past_chance(game: Game[Any, Any], state: Any, rng: random.Random) -> Any:
    """``state`` with every chance step now due drawn."""
    while game.to_act(state) == CHANCE:
        state = game.apply(state, draw(game.chance_outcomes(state), rng))
    return state


def chooser(game: Game[Any, Any], state: Any) -> int | None:
    """The player to act, the first of those choosing at a simultaneous step; None at
    chance and at the end."""
    actor = game.to_act(state)
    return min(actor) if isinstance(actor, frozenset) else player_of(actor)


def own_actions(game: Game[Any, Any], state: Any, player: int) -> Sequence[Any]:
    """What ``player`` may choose: their choices at a simultaneous step, else the legal
    actions."""
    if isinstance(game.to_act(state), frozenset):
        return game.choices(state, player)
    return game.legal(state)


def random_step(game: Game[Any, Any], state: Any, rng: random.Random) -> Any:
    """``state`` after a random legal action (a joint one at a simultaneous step), then
    the chance steps it brings."""
    legal = game.legal(state)
    return past_chance(game, game.apply(state, legal[rng.randrange(len(legal))]), rng)

"""Who acts in a state, beside one player: chance, or several players at once.

:data:`CHANCE` and :data:`Actor` live in the core (the match and the table read them) and
are part of the rules contract through :mod:`tabletop.game`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Final

CHANCE: Final = -1
"""What ``Game.to_act`` returns when chance acts next (a die is rolled, a card is drawn):
the outcomes and their probabilities are ``Game.chance_outcomes``, and the core draws one
from the match's seed. -1 is OpenSpiel's chance player id."""

Actor = int | frozenset[int] | None
"""Who acts in a state: one player (1..N), :data:`CHANCE`, a frozenset of players who
choose at once (a simultaneous step), or None once the game is over."""


def player_of(actor: Actor) -> int | None:
    """The one player in ``actor`` (a value of ``to_act``): itself for a player; None
    for chance, a simultaneous step or the end."""
    return actor if isinstance(actor, int) and actor >= 1 else None


def actor_json(actor: Actor) -> int | list[int] | None:
    """``to_act`` as JSON: a player, CHANCE (-1), the players of a simultaneous step as a
    sorted list, or null."""
    return sorted(actor) if isinstance(actor, frozenset) else actor


def draw(outcomes: Sequence[tuple[Any, Any]], rng: random.Random) -> Any:
    """One outcome of a chance step, drawn with ``rng`` by the outcomes' probabilities
    (what the match does at every chance step, seeding ``rng`` by its seed and the step)."""
    point = rng.random()
    total = 0.0
    for outcome, p in outcomes:
        # float(p) for a Fraction, exactly, without its call (a third of the time)
        total += p if type(p) is float else p.numerator / p.denominator
        if point < total:
            return outcome
    return outcomes[-1][0]


def chance_rng(seed: int, step: int) -> random.Random:
    """The generator of a match's chance step ``step`` (its number of actions before it):
    the seed and the step alone, so a replay, an undo and a redo draw the same."""
    return random.Random(f"tabletop-chance:{seed}:{step}")

"""Chance and simultaneous steps in the environments (issue 36): what the PettingZoo and
Gymnasium environments share.

Chance is resolved inside an environment the way a :class:`~tabletop.core.match.Match`
resolves it: the outcome of the chance step reached after ``k`` actions of the game
``seed`` is drawn (:func:`tabletop.core.match.draw`, by the outcomes' probabilities) with
``random.Random(f"tabletop-chance:{seed}:{k}")``, ``k`` counting every action as a record
counts them (each chance outcome, each player's choice of a simultaneous step), so an
environment game and a match of the same seed and the same choices are the same game.
At a simultaneous step each acting player chooses among their own ``choices`` (ids of
the encoding's ``action_id``), sealed: nobody's observation shows another's choice until
all have chosen and the joint action is applied.
"""

from __future__ import annotations

import random
from _random import Random as _CRandom
from collections.abc import Callable, Sequence
from hashlib import sha512
from typing import Any

from tabletop.bridges.common import Setup
from tabletop.core.match import draw
from tabletop.game import CHANCE

KEPT = 4096  # the most sets of choices whose ids a lister keeps


def chance_rng(seed: int, count: int) -> random.Random:
    """The generator of the chance step reached after ``count`` actions of game ``seed``
    (the match's)."""
    return random.Random(f"tabletop-chance:{seed}:{count}")


_SEED = _CRandom.seed  # the C seeding under random.Random.seed's Python wrapper


def reseed(rng: random.Random, seed: int, count: int) -> random.Random:
    """``rng`` seeded as :func:`chance_rng` seeds a new generator (``random.Random.seed``
    of a str, version 2: the int of its bytes and their SHA-512), so it draws the same
    ``random()``s; reused, without the wrapper and a new object (a fifth of a draw)."""
    key = f"tabletop-chance:{seed}:{count}".encode()
    _SEED(rng, int.from_bytes(key + sha512(key).digest()))
    return rng


def settle(game: Any, state: Any, seed: int, count: int) -> tuple[Any, int]:
    """``state`` with every chance step due drawn (the match's way), and the actions
    counted since the start."""
    state, count, _ = settled(game, state, seed, count, random.Random(0))
    return state, count


def settled(
    game: Any, state: Any, seed: int, count: int, rng: random.Random
) -> tuple[Any, int, Any]:
    """:func:`settle` with a generator to reseed at each draw (:func:`reseed`), and
    ``to_act`` of the state reached too (asked once a state)."""
    to_act = game.to_act
    actor = to_act(state)
    while actor == CHANCE:
        outcome = draw(game.chance_outcomes(state), reseed(rng, seed, count))
        state = game.apply(state, outcome)
        count += 1
        actor = to_act(state)
    return state, count, actor


def own_ids(config: Setup, state: Any, seat: int, actor: Any = False) -> list[int]:
    """The action ids ``seat`` may take now: their legal actions' ids at their turn,
    their own choices' at a simultaneous step, none otherwise (``actor``: ``to_act`` of
    ``state`` where known)."""
    game, action_id = config.game, config.encoding.action_id
    if actor is False:
        actor = game.to_act(state)
    if isinstance(actor, frozenset):
        if seat not in actor:
            return []
        return [action_id(state, choice) for choice in game.choices(state, seat)]
    if actor != seat:
        return []
    return [action_id(state, action) for action in game.legal(state)]


Chosen = tuple[Sequence[int], dict[int, Any]]  # a seat's choices' ids, and each id's choice


def choice_lister(config: Setup) -> Callable[[Any, int], Chosen]:
    """``ids(state, seat)``: the ids of ``seat``'s own choices at a simultaneous step and
    the choice of each id, kept by the choices (an id names the same action in every
    state, :mod:`.facet`) as the same sets recur (a hand bidding); unhashable choices are
    listed each time."""
    choices, action_id = config.game.choices, config.encoding.action_id
    kept: dict[Any, Chosen] = {}

    def ids(state: Any, seat: int) -> Chosen:
        mine = choices(state, seat)
        try:
            found = kept.get(mine)
        except TypeError:
            by_id = {action_id(state, choice): choice for choice in mine}
            return list(by_id), by_id
        if found is None:
            by_id = {action_id(state, choice): choice for choice in mine}
            found = (tuple(by_id), by_id)
            if len(kept) < KEPT:
                kept[mine] = found
        return found

    return ids


def acts(actor: Any, seat: int) -> bool:
    """Whether ``seat`` is among those to act (``actor`` a value of ``to_act``)."""
    return actor == seat if not isinstance(actor, frozenset) else seat in actor


def next_chooser(actor: Any, sealed: Sequence[int] | dict[int, Any]) -> int:
    """The seat to act next: the one player, or the first of a simultaneous step's set who
    has not chosen yet (0: nobody, the game is over)."""
    if isinstance(actor, frozenset):
        left = sorted(actor.difference(sealed))
        return left[0] if left else 0
    return actor if isinstance(actor, int) and actor >= 1 else 0

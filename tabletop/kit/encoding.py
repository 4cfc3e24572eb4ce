"""The conformance kit's ``encoding`` check: action ids and observations, where a game
provides them (an encoding facet, :mod:`tabletop.bridges.facet`).

At each position it checks that every legal action has an id in ``0 .. n-1``, distinct
actions have distinct ids, ``action_of(action_id(a)) == a``, and that each player's
observation has the declared shape, is made of finite numbers and depends on the view
only: a state sampled from the same view (:meth:`~tabletop.game.Game.sample`, other
hidden cards) gives the same observation. The fast paths must agree with the slow ones:
the encoding's ``id_lister`` gives the ids of the legal actions in order, and
its ``observer``, which reads the state itself, writes exactly the
observation of the view, at the position and at the resampled one (so a plugin's fast
path cannot carry what the view hides). At a chance step the outcomes' ids (the
encoding's ``chance_id``/``chance_of``, else its action ids) are checked the same way; at
a simultaneous step each acting player's own choices' (issue 36).
"""

from __future__ import annotations

import math
import random
from array import array
from typing import Any

from pydantic import BaseModel

from tabletop.bridges.facet import Encoding, encodes, encoding_of
from tabletop.core.i18n.text import Domain
from tabletop.game import CHANCE, Game

_ = Domain("tabletop")

NAME = "encoding"
DESCRIPTION = _(
    "action ids round-trip and are distinct; observations fit and read the view only; "
    "the fast paths agree"
)


class EncodingFailure(Exception):
    """The encoding check failed (the message says how)."""


def provided(game: Game[Any, Any]) -> bool:
    """Whether ``game`` has the optional encodings (asked for its default configuration)."""
    return encodes(game, game.info.min_players, game.info.options()) is not None


def check(
    game: Game[Any, Any], players: int, options: BaseModel, state: Any, rng: random.Random
) -> None:
    """Every condition of the module docstring at ``state``; EncodingFailure says which."""
    enc = encoding_of(game)
    count = None if enc is None else enc.action_ids(players, options)
    if enc is None or count is None:
        raise EncodingFailure(_("action_ids is None in this configuration but not in another"))
    actor = game.to_act(state)
    if actor == CHANCE:  # the chance outcomes' ids (chance_id, else the action ids)
        outcomes = [outcome for outcome, _p in game.chance_outcomes(state)]
        top = enc.chance_ids(players, options) or 0
        _ids(game, state, outcomes, enc.chance_id, enc.chance_of, top)
    elif isinstance(actor, frozenset):  # each player's own choices (issue 36)
        for player in sorted(actor):
            _ids(game, state, game.choices(state, player), enc.action_id, enc.action_of, count)
    else:
        seen = _ids(game, state, game.legal(state), enc.action_id, enc.action_of, count)
        fast_ids = enc.id_lister(players, options)(state)
        if list(fast_ids) != list(seen):
            raise EncodingFailure(
                _(
                    "id_lister gives {fast}, not the ids of the legal actions {ids}",
                    fast=repr(fast_ids),
                    ids=repr(list(seen)),
                )
            )
    shape = enc.observation_shape(players, options)
    size = math.prod(shape)
    observe = enc.observer(players, options)
    for player in range(1, players + 1):
        view = game.view(state, player)
        seen_obs = _observe(enc, view, player, players, options, size)
        if not game.info.hidden_information or game.outcome(state) is not None:
            _same_fast(observe, state, player, seen_obs, "")
            continue
        other = game.sample(view, player, players, options, rng)
        again = _observe(enc, game.view(other, player), player, players, options, size)
        if again != seen_obs:
            raise EncodingFailure(
                _(
                    "player {player}'s observation changes when only what they cannot see does",
                    player=player,
                )
            )
        _same_fast(observe, state, player, seen_obs, "")
        resampled = _(" of a state resampled from their view")
        _same_fast(observe, other, player, seen_obs, resampled)


def _ids(
    game: Game[Any, Any],
    state: Any,
    actions: Any,
    number_of: Any,
    back_of: Any,
    count: int,
) -> dict[int, Any]:
    """The ids of ``actions`` by ``number_of``: each in ``0 .. count-1``, distinct, read
    back by ``back_of``; EncodingFailure says which is not."""
    seen: dict[int, Any] = {}
    for action in actions:
        text = game.format(state, action)
        number = number_of(state, action)
        if type(number) is not int or not 0 <= number < count:
            raise EncodingFailure(
                _(
                    "{text} has id {number}, not one of 0-{top}",
                    text=repr(text),
                    number=repr(number),
                    top=count - 1,
                )
            )
        if number in seen:
            other = game.format(state, seen[number])
            raise EncodingFailure(
                _(
                    "{text} and {other} share the action id {number}",
                    text=repr(text),
                    other=repr(other),
                    number=number,
                )
            )
        seen[number] = action
        back = back_of(state, number)
        if back != action:
            raise EncodingFailure(
                _(
                    "id {number} of {text} reads back as {back}",
                    number=number,
                    text=repr(text),
                    back=repr(back),
                )
            )
    return seen


def _same_fast(observe: Any, state: Any, player: int, slow: list[float], where: str) -> None:
    """EncodingFailure unless ``observe`` writes ``slow`` (as float32, what the bridges keep)."""
    out = array("f", bytes(4 * len(slow)))
    observe(state, player, out)
    expected = array("f", slow)
    if out != expected:
        at = next(i for i, (a, b) in enumerate(zip(out, expected, strict=True)) if a != b)
        raise EncodingFailure(
            _(
                "player {player}'s fast observation (Game.observer){where} differs from the "
                "observation of their view at index {at}: {got}, not {expected}",
                player=player,
                where=where,
                at=at,
                got=repr(out[at]),
                expected=repr(expected[at]),
            )
        )


def _observe(
    enc: Encoding, view: Any, player: int, players: int, options: BaseModel, size: int
) -> list[float]:
    values = list(enc.observation(view, player, players, options))
    if len(values) != size:
        raise EncodingFailure(
            _(
                "player {player}'s observation has {count} numbers, not {size} (its shape)",
                player=player,
                count=len(values),
                size=size,
            )
        )
    for value in values:
        if (
            isinstance(value, bool)
            or not isinstance(value, int | float)
            or not math.isfinite(value)
        ):
            raise EncodingFailure(
                _(
                    "player {player}'s observation holds {value}, not a number",
                    player=player,
                    value=repr(value),
                )
            )
    return values

"""A game's encoding facet: action ids and observations for learning frameworks (issue 34).

The bridges (OpenSpiel, PettingZoo, Gymnasium) and the kit's encoding checks read it
through :func:`encoding_of`, None for a game without one. A game gives it in its
``encoding`` module (:mod:`tabletop.core.facets`), these names with these signatures:

- ``action_ids(players, options) -> int | None``: how many distinct ids (``0 .. n-1``);
  None for no encoding in this configuration;
- ``action_id(state, action) -> int``: the id of a legal action; an id names the same
  action in every state where it is legal, distinct legal actions distinct ids;
- ``action_of(state, action_id)``: the action an id names (the inverse on legal
  actions; for another id any action ``apply`` would refuse, or ValueError);
- ``observation_shape(players, options) -> tuple[int, ...]``;
- ``observation(view, player, players, options) -> list[float]``: the player's view
  as a flat list of numbers of that shape (built from the view: nothing hidden);
- optional ``observer(players, options)``: the fast path, ``observe(state, player,
  out)`` writing exactly that observation into a zero-filled float buffer ``out``
  (default: the slow path copied in);
- optional ``id_lister(players, options)``: the fast path of the mask, a function
  giving the ids of ``legal(state)`` in its order (default: ``action_id`` of each);
- optional, for a game with chance steps: ``chance_ids(players, options) -> int``,
  ``chance_id(state, outcome) -> int`` and ``chance_of(state, chance_id)``, the ids of
  the chance outcomes (OpenSpiel numbers them apart from the players' actions: a die's
  faces 0-5); default: the action ids (``action_ids``, ``action_id``, ``action_of``).

At a simultaneous step (issue 36) ``action_id``/``action_of`` name one player's own
choice (one of ``choices(state, player)``), not the joint action ``legal`` lists there.

The conformance kit checks all of them (:mod:`tabletop.kit.encoding`). This module
imports no numpy: the kit and the server read it without the research extra.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, MutableSequence
from typing import TYPE_CHECKING, Any, Protocol

from tabletop.core.facets import Accessor, facet_module, method, old_methods
from tabletop.game import JSON, Game, IdLister, Observer

if TYPE_CHECKING:
    from pydantic import BaseModel

_IN = "define {} in the game's encoding module"
OLD = {
    name: _IN.format(signature)
    for name, signature in (
        ("action_ids", "action_ids(players, options)"),
        ("action_id", "action_id(state, action)"),
        ("action_of", "action_of(state, action_id)"),
        ("observation_shape", "observation_shape(players, options)"),
        ("observation", "observation(view, player, players, options)"),
        ("observer", "observer(players, options)"),
        ("id_lister", "id_lister(players, options)"),
    )
}
REQUIRED = ("action_ids", "action_id", "action_of", "observation_shape", "observation")


class Encoding(Protocol):
    """What the bridges need of a game besides its rules (see the module's doc)."""

    def action_ids(self, players: int, options: BaseModel) -> int | None: ...

    def action_id(self, state: Any, action: Any) -> int: ...

    def action_of(self, state: Any, action_id: int) -> Any: ...

    def observation_shape(self, players: int, options: BaseModel) -> tuple[int, ...]: ...

    def observation(
        self, view: JSON, player: int, players: int, options: BaseModel
    ) -> list[float]: ...

    def observer(self, players: int, options: BaseModel) -> Observer: ...

    def id_lister(self, players: int, options: BaseModel) -> IdLister: ...

    def chance_ids(self, players: int, options: BaseModel) -> int | None: ...

    def chance_id(self, state: Any, outcome: Any) -> int: ...

    def chance_of(self, state: Any, chance_id: int) -> Any: ...


class Bound:
    """The encoding of one game, from its old methods (deprecated) or its module; the
    fast paths it lacks built from the slow ones."""

    def __init__(self, game: Game[Any, Any], source: Any) -> None:
        self.game = game
        self.action_ids: Callable[[int, BaseModel], int | None] = source.action_ids
        self.action_id: Callable[[Any, Any], int] = source.action_id
        self.action_of: Callable[[Any, int], Any] = source.action_of
        self.observation_shape: Callable[[int, BaseModel], tuple[int, ...]] = (
            source.observation_shape
        )
        self.observation: Callable[[JSON, int, int, BaseModel], list[float]] = source.observation
        self._observer = getattr(source, "observer", None)
        self._id_lister = getattr(source, "id_lister", None)
        # optional: the ids of chance outcomes, by default the action ids (module's doc)
        self.chance_ids: Callable[[int, BaseModel], int | None] = (
            getattr(source, "chance_ids", None) or source.action_ids
        )
        self.chance_id: Callable[[Any, Any], int] = (
            getattr(source, "chance_id", None) or source.action_id
        )
        self.chance_of: Callable[[Any, int], Any] = (
            getattr(source, "chance_of", None) or source.action_of
        )
        # optional: the observation's named blocks, (name, size) pairs in order
        self.observation_blocks: Callable[[int, BaseModel], Any] | None = getattr(
            source, "observation_blocks", None
        )

    def observer(self, players: int, options: BaseModel) -> Observer:
        if self._observer is not None:
            found: Observer = self._observer(players, options)
            return found
        return slow_observer(self.game, self, players, options)

    def id_lister(self, players: int, options: BaseModel) -> IdLister:
        if self._id_lister is not None:
            found: IdLister = self._id_lister(players, options)
            return found
        return slow_id_lister(self.game, self)


def slow_observer(
    game: Game[Any, Any], encoding: Encoding | Bound, players: int, options: BaseModel
) -> Observer:
    """The default ``observer``: ``encoding.observation`` of ``game.view``, copied in."""
    observation, view = encoding.observation, game.view

    def observe(state: Any, player: int, out: MutableSequence[float]) -> None:
        values = observation(view(state, player), player, players, options)
        for i, value in enumerate(values):
            out[i] = value

    return observe


def slow_id_lister(game: Game[Any, Any], encoding: Encoding | Bound) -> IdLister:
    """The default ``id_lister``: ``encoding.action_id`` of each legal action."""
    legal, action_id = game.legal, encoding.action_id

    def ids(state: Any) -> list[int]:
        return [action_id(state, action) for action in legal(state)]

    return ids


def _build(game: Game[Any, Any]) -> Encoding | None:
    old = old_methods(game, OLD)
    if old:
        if "action_ids" not in old:
            return None
        return Bound(game, _OldShape(game, old))
    module = facet_module(game, "encoding")
    if module is None or not all(hasattr(module, name) for name in REQUIRED):
        return None
    return Bound(game, module)


class _OldShape:
    """A game of the old shape seen as an encoding module: its own methods."""

    def __init__(self, game: Game[Any, Any], old: list[str]) -> None:
        for name in REQUIRED:
            setattr(self, name, functools.partial(_missing, game, name))
        for name in old:
            setattr(self, name, method(game, name))


def _missing(game: Game[Any, Any], name: str, *args: Any) -> Any:
    raise NotImplementedError(f"{game.info.id} has no {name} in its encoding")


_encodings: Accessor[Encoding | None] = Accessor[Encoding | None](_build)


def encoding_of(game: Game[Any, Any]) -> Encoding | None:
    """The encoding facet of ``game`` (:class:`Encoding`), or None when the game has
    none; built on first use and kept."""
    return _encodings(game)


def encodes(game: Game[Any, Any], players: int, options: BaseModel) -> Encoding | None:
    """The encoding of ``game`` if it gives action ids for ``(players, options)``."""
    found = encoding_of(game)
    return None if found is None or found.action_ids(players, options) is None else found

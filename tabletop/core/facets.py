"""Where a game's facets live, found once and kept (issue 34).

A :class:`~tabletop.game.Game` holds the rules only. What other packages need of a game
besides its rules is a *facet*, each owned by the package that uses it, with a Protocol
and an accessor there:

========== ======================= ==================================================
facet      plugin module           accessor
========== ======================= ==================================================
encoding   ``<package>.encoding``  :func:`tabletop.bridges.facet.encoding_of`
agents     ``<package>.agents``    :func:`tabletop.agents.facet.players_of`
coach      ``<package>.coach``     :func:`tabletop.coach.facet.coaching_of`
render     ``<package>.render``    :func:`tabletop.core.presentation.presentation_of`
legacy     ``<package>.legacy``    :func:`tabletop.core.legacy.seeded_chance_of`
========== ======================= ==================================================

``<package>`` is the package of the game's class (``tabletop_quarto`` for
``tabletop_quarto.game.QuartoGame``). A class attribute ``facets`` may name another
module for a facet, or ``None`` for none: ``facets = {"coach": None, "encoding":
"my_game.ids"}`` (or give the module, or any object with its names, itself). The module
is imported on first use and kept per class.

A game of the old shape (a plugin written before issue 34, whose class still defines the
facet's methods, e.g. ``action_ids`` or ``hint``) keeps working: the accessor reads those
methods, with a :class:`DeprecationWarning` naming each method's new place
(:func:`old_methods`).
"""

from __future__ import annotations

import importlib
import warnings
import weakref
from collections.abc import Callable, Mapping
from types import ModuleType
from typing import Any, Generic, TypeVar

from tabletop.game import Game

F = TypeVar("F")

_MODULES: dict[tuple[type[Any], str], ModuleType | None] = {}


def package_of(game: Game[Any, Any]) -> str:
    """The package of ``game``'s class ('' for a class defined in a top-level module)."""
    return type(game).__module__.rpartition(".")[0]


def facet_module(game: Game[Any, Any], facet: str) -> ModuleType | None:
    """The module holding ``facet`` of ``game`` (see the module's doc), or None: named by
    the class attribute ``facets`` if it names this facet, else ``<package>.<facet>`` when
    that module exists. Imported on the first call for the class, then kept."""
    key = (type(game), facet)
    if key not in _MODULES:
        _MODULES[key] = _find(game, facet)
    return _MODULES[key]


def _find(game: Game[Any, Any], facet: str) -> ModuleType | None:
    named: Mapping[str, Any] = type(game).facets
    if facet in named:
        target = named[facet]
        if target is None or not isinstance(target, str):  # none, or the module itself
            return target
        return importlib.import_module(target)
    package = package_of(game)
    if not package:
        return None
    name = f"{package}.{facet}"
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name != name:  # the module exists but imports something missing: say so
            raise
        return None


def old_methods(game: Game[Any, Any], names: Mapping[str, str]) -> list[str]:
    """Which of ``names`` (method -> its new place) the class of ``game`` defines itself,
    the facet methods of the old contract; each found gives one DeprecationWarning naming
    its new place."""
    own = [k for k in type(game).__mro__ if k not in Game.__mro__]
    found = [name for name in names if any(name in vars(k) for k in own)]
    for name in found:
        warnings.warn(
            f"{type(game).__name__}.{name} is deprecated (issue 34): {names[name]}",
            DeprecationWarning,
            stacklevel=4,
        )
    return found


def method(game: Game[Any, Any], name: str) -> Any:
    """``game``'s own method ``name`` (of the old shape, found by :func:`old_methods`)."""
    return getattr(game, name)


class Accessor(Generic[F]):
    """One facet of every game, built on first use by ``build(game)`` and kept as long
    as the game lives."""

    def __init__(self, build: Callable[[Game[Any, Any]], F]) -> None:
        self.build = build
        self.kept: weakref.WeakKeyDictionary[Game[Any, Any], F] = weakref.WeakKeyDictionary()

    def __call__(self, game: Game[Any, Any]) -> F:
        try:
            return self.kept[game]
        except KeyError:
            built = self.kept[game] = self.build(game)
            return built
        except TypeError:  # a game that cannot be weakly referenced or hashed: not kept
            return self.build(game)

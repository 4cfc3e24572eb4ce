"""A game's coaching facet: its own coach and its own one-line advice, and the one path
by which the terminal (``hint`` in ``tabletop play``) and the browser (``GET
/api/matches/{id}/hint``) give a hint (issue 34).

A game gives it in its ``coach`` module (:mod:`tabletop.core.facets`), each name
optional:

- ``coach(level) -> Coach | None``: the game's own coach for ``level`` (``1``-``5``), or
  None for the generic one (the level's tree search read out; :mod:`.choose`);
- ``hint(view, player, options) -> str | None``: a line of advice from ``player``'s own
  view (e.g. which card matches where), or None for none.

:func:`tabletop.coach.choose.hint_for` puts the game's line (when it has one) above the
coach's judgement of every legal action; both see the acting player's view only.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from tabletop.core.facets import Accessor, facet_module, method, old_methods
from tabletop.game import JSON, Game

if TYPE_CHECKING:
    from pydantic import BaseModel

    from tabletop.coach.base import Coach

OLD = {
    "coach": "define coach(level) in the game's coach module",
    "hint": "define hint(view, player, options) in the game's coach module",
}
# What Game.hint answered when a game had no advice of its own (the old shape's default).
NO_HINTS = "no hints for this game"


class Coaching(Protocol):
    """What the coach needs of a game besides its rules."""

    def coach(self, level: str) -> Coach | None:
        """The game's own coach for ``level``, or None for the generic one."""

    def hint(self, view: JSON, player: int, options: BaseModel) -> str | None:
        """The game's own line of advice from ``player``'s view, or None."""


def _generic(level: str) -> Coach | None:
    return None


def _no_advice(view: JSON, player: int, options: BaseModel) -> str | None:
    return None


class Bound:
    """The coaching of one game: its old methods where its class still has any
    (deprecated), else its ``coach`` module, else the generic coach and no advice."""

    def __init__(self, game: Game[Any, Any]) -> None:
        old = old_methods(game, OLD)
        module: Any = None if old else facet_module(game, "coach")
        self.coach: Callable[[str], Coach | None]
        self._hint: Callable[[JSON, int, BaseModel], str | None]
        if old:
            self.coach = method(game, "coach") if "coach" in old else _generic
            self._hint = method(game, "hint") if "hint" in old else _no_advice
        else:
            self.coach = getattr(module, "coach", _generic)
            self._hint = getattr(module, "hint", _no_advice)

    def hint(self, view: JSON, player: int, options: BaseModel) -> str | None:
        said = self._hint(view, player, options)
        return None if not said or said == NO_HINTS else said


coaching_of: Accessor[Coaching] = Accessor[Coaching](Bound)
"""The coaching facet of ``game`` (:class:`Coaching`), built on first use and kept."""

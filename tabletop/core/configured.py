"""A game configured once: the rules object, the player count and the options model.

Every tool that plays, checks or studies a game starts from one :class:`Configured`,
built by :meth:`Configured.of` from whatever it was given (command-line words, a save, a
scenario, JSON from the network) and then passed around, so the options are validated
once and no tool bundles ``(game, players, options)`` again::

    table = Configured.of(game, 3, {"squares": "true"})   # OptionError / UsageError
    state = table.new(seed=7)
    table.values      # {"squares": True, ...}: every option, as JSON
    table.label()     # "3 players, squares=true": the options that differ from the defaults

A game's own plain config (sizes, tables, the numbers its hot paths read) has one
spelling in every plugin, ``rules.config(players, options)`` (docs/plugins.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from random import Random
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from pydantic import BaseModel  # (core.options imports it already)

from tabletop.core import options as opts
from tabletop.core.errors import UsageError
from tabletop.core.i18n.text import Domain, Msg

if TYPE_CHECKING:
    from tabletop.game import JSON, Game

S = TypeVar("S")
A = TypeVar("A")

_ = Domain("tabletop")


def player_count(game: Game[Any, Any], players: int | None) -> int:
    """``players`` checked against the game's range (default: its minimum); UsageError
    names the range."""
    info = game.info
    count = info.min_players if players is None else players
    if not info.min_players <= count <= info.max_players:
        allowed = (
            str(info.min_players)
            if info.min_players == info.max_players
            else f"{info.min_players}-{info.max_players}"
        )
        raise UsageError(
            _(
                "{game} is for {allowed} players, not {count}",
                game=info.name,
                allowed=allowed,
                count=count,
            )
        )
    return count


def label(players: int, values: Mapping[str, Any], model: type[BaseModel]) -> Msg:
    """``3 players, size=3 k=4``: the player count and the options that differ from the
    defaults of ``model``."""
    defaults = model().model_dump(mode="json")
    words = " ".join(f"{k}={opts.as_text(v)}" for k, v in values.items() if defaults.get(k) != v)
    count = _.plural("{n} player", "{n} players", players)
    return _("{players}, {options}", players=count, options=words) if words else count


@dataclass(frozen=True)
class Configured(Generic[S, A]):
    """One game for one player count and one options model (validated): what a match,
    the kit, the arena, the bridges and the web server are handed."""

    game: Game[S, A]
    players: int
    options: BaseModel

    @classmethod
    def of(
        cls,
        game: Game[S, A],
        players: int | None = None,
        options: Mapping[str, Any] | BaseModel | None = None,
        *,
        strict: bool = False,
    ) -> Configured[S, A]:
        """``game`` configured: ``players`` checked against its range (default: its
        minimum; UsageError), ``options`` a mapping of option names to values (text as
        the command line gives it, or JSON; ``strict``: JSON from the network, see
        :func:`tabletop.core.options.build`) or the game's options model itself (kept);
        OptionError names a bad key or value and what is allowed."""
        info = game.info
        count = player_count(game, players)
        if isinstance(options, info.options):
            return cls(game, count, options)
        # a mapping as given; another model read by its values; None: the defaults
        values = opts.dump(options) if isinstance(options, BaseModel) else dict(options or {})
        return cls(game, count, opts.build(info.options, values, info.id, strict=strict))

    @cached_property
    def _dumped(self) -> dict[str, Any]:
        return opts.dump(self.options)

    @property
    def values(self) -> dict[str, Any]:
        """Every option's value, as JSON (defaults included; a new dict each time)."""
        return dict(self._dumped)

    def label(self) -> Msg:
        """``2 players, squares=true claim=manual`` (only the non-default options)."""
        return label(self.players, self.values, self.game.info.options)

    @property
    def max_actions(self) -> int:
        """The most actions one game of this configuration can take (``GameInfo``)."""
        return self.game.info.max_actions(self.players, self.options)

    @property
    def points_decide(self) -> bool:
        """Whether the points rather than the winners decide (``GameInfo``)."""
        return self.game.info.points_decide(self.options)

    def new(self, seed: int) -> S:
        """The initial state (``Game.new``); chance steps are still to be drawn."""
        return self.game.new(self.players, self.options, seed)

    def from_json(self, data: JSON, seed: int = 0) -> S:
        """The state of a position JSON (``Game.from_json``; PositionError)."""
        return self.game.from_json(data, self.players, self.options, seed)

    def sample(self, view: JSON, player: int, rng: Random) -> S:
        """A full state consistent with ``view`` (``Game.sample``)."""
        return self.game.sample(view, player, self.players, self.options, rng)

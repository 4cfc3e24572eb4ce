"""Games by id, as the installed plugins registered them."""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any

from tabletop.core.errors import TabletopError, UnknownGameError
from tabletop.core.i18n.text import Domain
from tabletop.core.numbers import quote
from tabletop.core.plugins import plugin_manager
from tabletop.game import Game

_ = Domain("tabletop")


class Registry:
    """The installed games, collected once from the ``tabletop_register_games`` hook."""

    def __init__(self, extra: list[ModuleType | object] | None = None) -> None:
        self._games: dict[str, Game[Any, Any]] = {}
        self._agents: dict[str, Callable[[Game[Any, Any], str], Any]] = {}
        pm = plugin_manager(extra)
        pm.hook.tabletop_register_games(register=self._register)
        pm.hook.tabletop_register_agents(register=self._register_agent)

    def _register_agent(self, prefix: str, level: Callable[[Game[Any, Any], str], Any]) -> None:
        # the first plugin to register a prefix keeps it (pluggy calls the latest first)
        self._agents.setdefault(prefix.lower().rstrip(":"), level)

    def agents(self) -> dict[str, Callable[[Game[Any, Any], str], Any]]:
        """The outside agents by prefix (``tabletop_register_agents``): each takes the
        game and the whole name (``openspiel-mcts:1000``) and gives a Level."""
        return dict(self._agents)

    def _register(self, game: Game[Any, Any]) -> None:
        if not isinstance(game, Game):
            raise TabletopError(
                _("plugin registered {game}, which is not a tabletop Game", game=repr(game))
            )
        gid = game.info.id
        if gid != gid.lower():
            raise TabletopError(
                _(
                    "{module} registers the game id {game}; ids are lower case "
                    "(they are looked up that way)",
                    module=type(game).__module__,
                    game=repr(gid),
                )
            )
        if gid in self._games:
            first = type(self._games[gid]).__module__
            raise TabletopError(
                _(
                    "two plugins register a game with the id {game}: {first} and {second}",
                    game=repr(gid),
                    first=first,
                    second=type(game).__module__,
                )
            )
        self._games[gid] = game

    def ids(self) -> list[str]:
        """Game ids, sorted."""
        return sorted(self._games)

    def get(self, game_id: str) -> Game[Any, Any]:
        """The game with ``game_id``; UnknownGameError lists the installed ones."""
        try:
            return self._games[game_id.lower()]
        except KeyError:
            if not self.ids():
                raise UnknownGameError(
                    _("unknown game {game}; no game is installed", game=quote(game_id))
                ) from None
            raise UnknownGameError(
                _(
                    "unknown game {game}; installed games: {games}",
                    game=quote(game_id),
                    games=", ".join(self.ids()),
                )
            ) from None


_default: Registry | None = None


def registry() -> Registry:
    """The registry of the installed games (built on first use)."""
    global _default
    if _default is None:
        _default = Registry()
    return _default

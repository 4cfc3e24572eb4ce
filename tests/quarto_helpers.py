"""Shared helpers for the Quarto tests: a game, options and matches by short names."""

from __future__ import annotations

from typing import Any

from tabletop.core import options as opts
from tabletop.core.match import Match
from tabletop.core.registry import registry
from tabletop.game import Game


def quarto() -> Game[Any, Any]:
    """The installed Quarto game."""
    return registry().get("quarto")


def quarto_match(start: dict[str, Any] | None = None, **options: str) -> Match:
    """A Quarto match with ``options`` (strings as on the command line), from ``start``."""
    game = quarto()
    built = opts.build(game.info.options, {k: str(v) for k, v in options.items()}, "quarto")
    return Match(game, 2, built, 0, start)

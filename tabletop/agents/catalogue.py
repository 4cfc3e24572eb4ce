"""The installed games as JSON (``tabletop games --json``, the web server's ``GET /api/games``):
no terminal output here, that is :mod:`tabletop.cli.games`."""

from __future__ import annotations

from typing import Any

from tabletop.agents.levels import DEFAULT_LEVEL, agent_levels
from tabletop.core import options as opts
from tabletop.core.presentation import presentation_of
from tabletop.core.registry import registry
from tabletop.game import JSON, Game


def describe_game(game: Game[Any, Any]) -> JSON:
    """One game's entry of ``tabletop games --json``."""
    info = game.info
    return {
        "id": info.id,
        "name": info.name,
        "version": info.version,
        "summary": info.summary,
        "min_players": info.min_players,
        "max_players": info.max_players,
        "players": list(range(info.min_players, info.max_players + 1)),
        "hidden_information": info.hidden_information,
        "options": opts.describe(info.options),
        "ai_levels": [
            {"name": name, "description": lv.description} for name, lv in agent_levels(game).items()
        ],
        "default_ai_level": DEFAULT_LEVEL,
        "languages": presentation_of(game).languages(),
    }


def catalogue() -> list[JSON]:
    """Every installed game, sorted by id."""
    reg = registry()
    return [describe_game(reg.get(gid)) for gid in reg.ids()]

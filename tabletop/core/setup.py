"""Building a match from words: game, players, options, seed, start position (pure core:
the seats and their computer players are the CLI's, :mod:`tabletop.cli.seats`)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tabletop.core import options as opts
from tabletop.core import reading
from tabletop.core.configured import Configured
from tabletop.core.configured import player_count as player_count  # its old place
from tabletop.core.errors import PositionError, UsageError
from tabletop.core.i18n.text import Domain, message_of
from tabletop.core.match import Match
from tabletop.core.registry import registry
from tabletop.game import JSON, Game

_ = Domain("tabletop")


def resolve(game_id: str) -> Game[Any, Any]:
    """The installed game ``game_id`` (UnknownGameError lists the installed ones)."""
    return registry().get(game_id)


def read_position(path: Path) -> JSON:
    """A position JSON file (or a ``run --json --reveal`` output, whose ``state`` is used),
    bounded in size, depth and numbers (:mod:`tabletop.core.reading`)."""
    data = reading.read_json(path, _("position file"), PositionError, UsageError)
    if isinstance(data, dict) and isinstance(data.get("state"), dict) and "game" in data:
        data = data["state"]
    if not isinstance(data, dict):
        raise PositionError(_("{path} must hold a JSON object (the position)", path=path))
    return data


def new_match(
    game: Game[Any, Any],
    players: int | None,
    option_pairs: Sequence[str],
    seed: int | None,
    start: Path | None = None,
) -> Match:
    """A fresh match from CLI words; a random seed when none is given."""
    table = Configured.of(game, players, opts.parse_pairs(option_pairs))
    position = read_position(start) if start else None
    chosen = random.SystemRandom().randrange(2**31) if seed is None else seed
    try:
        return Match.of(table, chosen, position)
    except PositionError as exc:
        if not start:
            raise
        raise PositionError(_("{path}: {reason}", path=start, reason=message_of(exc))) from None

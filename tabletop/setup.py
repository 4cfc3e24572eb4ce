"""Building a match from command-line words: game, players, options, seed, start, seats."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tabletop.agents.seat import Seat, make_seat
from tabletop.core import options as opts
from tabletop.core.errors import PositionError, UsageError
from tabletop.core.match import Match
from tabletop.core.registry import registry
from tabletop.game import JSON, Game


def resolve(game_id: str) -> Game[Any, Any]:
    """The installed game ``game_id`` (UnknownGameError lists the installed ones)."""
    return registry().get(game_id)


def player_count(game: Game[Any, Any], players: int | None) -> int:
    """``players`` checked against the game's range (default: its minimum)."""
    info = game.info
    count = info.min_players if players is None else players
    if not info.min_players <= count <= info.max_players:
        allowed = (
            str(info.min_players)
            if info.min_players == info.max_players
            else f"{info.min_players}-{info.max_players}"
        )
        raise UsageError(f"{info.name} is for {allowed} players, not {count}")
    return count


def read_position(path: Path) -> JSON:
    """A position JSON file (or a ``run --json --reveal`` output, whose ``state`` is used)."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise UsageError(f"no such position file: {path}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"cannot read position file {path}: {exc}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise PositionError(f"{path} is not JSON (line {exc.lineno}: {exc.msg})") from None
    if isinstance(data, dict) and isinstance(data.get("state"), dict) and "game" in data:
        data = data["state"]
    if not isinstance(data, dict):
        raise PositionError(f"{path} must hold a JSON object (the position)")
    return data


def new_match(
    game: Game[Any, Any],
    players: int | None,
    option_pairs: Sequence[str],
    seed: int | None,
    start: Path | None = None,
) -> Match:
    """A fresh match from CLI words; a random seed when none is given."""
    count = player_count(game, players)
    options = opts.build(game.info.options, opts.parse_pairs(option_pairs), game.info.id)
    position = read_position(start) if start else None
    chosen = random.SystemRandom().randrange(2**31) if seed is None else seed
    try:
        return Match(game, count, options, chosen, position)
    except PositionError as exc:
        where = f"{start}: " if start else ""
        raise PositionError(f"{where}{exc}") from None


def ai_by_seat(specs: Sequence[str], players: int, seed: int = 0) -> dict[int, str | None]:
    """``--ai SEAT[:LEVEL]`` words as {seat: level or None} (levels are checked later).

    ``SEAT`` may be ``lot``: the computer takes a free seat drawn from the seed (who
    plays first is decided by lot, as several rule sets say, e.g. Quarto's Q3.1).
    """
    levels: dict[int, str | None] = {}
    by_lot: list[str | None] = []
    for spec in specs:
        seat_text, _, level = spec.partition(":")
        chosen = level.strip() or None
        if seat_text.strip().lower() == "lot":
            by_lot.append(chosen)
            continue
        if not seat_text.strip().isdigit() or not 1 <= int(seat_text) <= players:
            raise UsageError(
                f"--ai {spec!r}: the seat must be a player number 1-{players} or 'lot'"
            )
        levels[int(seat_text)] = chosen
    rng = random.Random(f"lot:{seed}")
    for chosen in by_lot:
        free = [s for s in range(1, players + 1) if s not in levels]
        if not free:
            raise UsageError("--ai lot: every seat is taken already")
        levels[rng.choice(free)] = chosen
    return levels


def parse_seats(
    game: Game[Any, Any], players: int, specs: Sequence[str], seed: int = 0
) -> dict[int, Seat]:
    """``--ai SEAT[:LEVEL]`` words as {seat number: computer player}."""
    return {
        seat: make_seat(game, level) for seat, level in ai_by_seat(specs, players, seed).items()
    }

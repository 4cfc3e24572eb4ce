"""``--ai SEAT[:LEVEL]`` words as the computer players of a match's seats."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from tabletop.core.errors import UsageError
from tabletop.core.i18n.text import Domain
from tabletop.core.numbers import parse_int, quote
from tabletop.game import Game

if TYPE_CHECKING:
    from tabletop.agents.seat import Seat

_ = Domain("tabletop")

MAX_LEVEL_CHARS = 40


def ai_by_seat(specs: Sequence[str], players: int, seed: int = 0) -> dict[int, str | None]:
    """``--ai SEAT[:LEVEL]`` words as {seat: level or None} (levels are checked later).

    ``SEAT`` may be ``lot``: the computer takes a free seat drawn from the seed (who
    plays first is decided by lot, as several rule sets say, e.g. Quarto's Q3.1).
    """
    levels: dict[int, str | None] = {}
    by_lot: list[str | None] = []
    for spec in specs:
        seat_text, _colon, level = spec.partition(":")
        chosen = level.strip() or None
        if chosen is not None and len(chosen) > MAX_LEVEL_CHARS:
            raise UsageError(
                _(
                    "--ai {spec}: a level is a short name (at most {limit} "
                    "characters); tabletop games lists them",
                    spec=quote(spec),
                    limit=MAX_LEVEL_CHARS,
                )
            )
        if seat_text.strip().lower() == "lot":
            by_lot.append(chosen)
            continue
        seat = parse_int(seat_text, 1, players)
        if seat is None:
            raise UsageError(
                _(
                    "--ai {spec}: the seat must be a player number 1-{players} or 'lot'",
                    spec=quote(spec),
                    players=players,
                )
            )
        levels[seat] = chosen
    rng = random.Random(f"lot:{seed}")
    for chosen in by_lot:
        free = [s for s in range(1, players + 1) if s not in levels]
        if not free:
            raise UsageError(_("--ai lot: every seat is taken already"))
        levels[rng.choice(free)] = chosen
    return levels


def parse_seats(
    game: Game[Any, Any], players: int, specs: Sequence[str], seed: int = 0
) -> dict[int, Seat]:
    """``--ai SEAT[:LEVEL]`` words as {seat number: computer player}."""
    return {
        seat: _seat(game, level) for seat, level in ai_by_seat(specs, players, seed).items()
    }


def _seat(game: Game[Any, Any], level: str | None) -> Seat:
    """A computer seat (the agents are imported only when a seat is asked for: ``play``
    without ``--ai`` loads no agent module)."""
    from tabletop.agents.seat import make_seat

    return make_seat(game, level)

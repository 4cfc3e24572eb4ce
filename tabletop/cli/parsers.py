"""typer parsers for the number flags: each refuses, as a usage error (exit 2), a value
outside the range :mod:`tabletop.core.flags` documents."""

from __future__ import annotations

from collections.abc import Callable

import typer

from tabletop.core.flags import (
    GAMES_MAX,
    JOBS_MAX,
    MOVE_TIME_MAX,
    MOVE_TIME_MIN,
    PLAYERS_MAX,
    SECONDS_MAX,
    SEED_MAX,
    SERIES_MAX,
    seconds,
)
from tabletop.core.i18n.text import Domain
from tabletop.core.numbers import parse_int, quote

_ = Domain("tabletop")


def whole(lo: int, hi: int) -> Callable[[str], int]:
    """A parser for a whole-number flag within ``lo``..``hi``."""

    def parse(text: str | int) -> int:
        if isinstance(text, int):  # typer hands defaults over as they are
            return text
        value = parse_int(text, lo, hi)
        if value is None:
            raise typer.BadParameter(
                _(
                    "a whole number {lo}..{hi} is allowed, not {value}",
                    lo=lo,
                    hi=hi,
                    value=quote(text),
                )
            )
        return value

    return parse


def decimal(lo: float, hi: float) -> Callable[[str], float]:
    """A parser for a seconds flag within ``lo``..``hi`` (plain decimals, no exponent)."""

    def parse(text: str | float) -> float:
        if isinstance(text, float | int):  # typer hands defaults over as they are
            return float(text)
        value = seconds(text, lo, hi)
        if value is None:
            raise typer.BadParameter(
                _(
                    "seconds {lo}..{hi} (a plain decimal) are allowed, not {value}",
                    lo=format(lo, "g"),
                    hi=format(hi, "g"),
                    value=quote(text),
                )
            )
        return value

    return parse


seed = whole(0, SEED_MAX)
players = whole(1, PLAYERS_MAX)
series = whole(1, SERIES_MAX)
games = whole(1, GAMES_MAX)
jobs = whole(1, JOBS_MAX)
move_time = decimal(MOVE_TIME_MIN, MOVE_TIME_MAX)
solve_seconds = decimal(0.0, SECONDS_MAX)

"""The documented range of every number flag, and the typer parsers that enforce them.

Whole numbers go through :func:`tabletop.core.numbers.parse_int` (ASCII digits only, so
``--players ٣`` is refused); seconds are finite decimals. A value out of range is a
usage error (exit 2) naming the flag and its range. Importing this module costs nothing
(typer is imported only to refuse a value). Saves hold the same fields and are
checked against the same ranges (:mod:`tabletop.core.records`).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable

from tabletop.core.numbers import parse_int, quote

SEED_MAX = 2**63 - 1
PLAYERS_MAX = 99
SERIES_MAX = 1000
GAMES_MAX = 1_000_000
JOBS_MAX = 64
MOVE_TIME_MIN = 1.0
MOVE_TIME_MAX = 86_400.0
SECONDS_MAX = 86_400.0
_DECIMAL = re.compile(r"[+-]?([0-9]{1,9}(\.[0-9]{0,9})?|\.[0-9]{1,9})", re.ASCII)


def whole(lo: int, hi: int) -> Callable[[str], int]:
    """A parser for a whole-number flag within ``lo``..``hi``."""

    def parse(text: str | int) -> int:
        if isinstance(text, int):  # typer hands defaults over as they are
            return text
        value = parse_int(text, lo, hi)
        if value is None:
            import typer

            raise typer.BadParameter(f"a whole number {lo}..{hi} is allowed, not {quote(text)}")
        return value

    return parse


def seconds(text: str, lo: float, hi: float) -> float | None:
    """``text`` as a finite number of seconds within ``lo``..``hi``; None otherwise."""
    word = text.strip()
    if not _DECIMAL.fullmatch(word):
        return None
    value = float(word)
    return value if math.isfinite(value) and lo <= value <= hi else None


def decimal(lo: float, hi: float) -> Callable[[str], float]:
    """A parser for a seconds flag within ``lo``..``hi`` (plain decimals, no exponent)."""

    def parse(text: str | float) -> float:
        if isinstance(text, float | int):  # typer hands defaults over as they are
            return float(text)
        value = seconds(text, lo, hi)
        if value is None:
            import typer

            raise typer.BadParameter(
                f"seconds {lo:g}..{hi:g} (a plain decimal) are allowed, not {quote(text)}"
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

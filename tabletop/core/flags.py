"""The documented range of every number flag, and how seconds are read.

Whole numbers go through :func:`tabletop.core.numbers.parse_int` (ASCII digits only, so
``--players ٣`` is refused); seconds are finite decimals. The command line enforces these
ranges (:mod:`tabletop.cli.parsers`); saves hold the same fields and are checked against
the same ranges (:mod:`tabletop.core.records`), and so is a web match's ``move_time``.
"""

from __future__ import annotations

import math
import re

SEED_MAX = 2**63 - 1
PLAYERS_MAX = 99
SERIES_MAX = 1000
GAMES_MAX = 1_000_000
JOBS_MAX = 64
MOVE_TIME_MIN = 1.0
MOVE_TIME_MAX = 86_400.0
SECONDS_MAX = 86_400.0
_DECIMAL = re.compile(r"[+-]?([0-9]{1,9}(\.[0-9]{0,9})?|\.[0-9]{1,9})", re.ASCII)


def seconds(text: str, lo: float, hi: float) -> float | None:
    """``text`` as a finite number of seconds within ``lo``..``hi``; None otherwise."""
    word = text.strip()
    if not _DECIMAL.fullmatch(word):
        return None
    value = float(word)
    return value if math.isfinite(value) and lo <= value <= hi else None

"""Strict reading of JSON values for position readers (``Game.from_json``).

A position file arrives as Python values: a number may be a bool, a float or an int of
any size (``json`` reads ``10**5000`` as an int; ``repr`` of it raises). These helpers
take exact types only and describe any value in a few safe characters for messages.
"""

from __future__ import annotations

from typing import Any

from tabletop.core.i18n.text import Domain
from tabletop.core.numbers import parse_int, quote

_ = Domain("tabletop")

HUGE_DIGITS = 30  # ints longer than this are described by their length, never printed


def describe(value: Any) -> str:
    """A short, safe description of any JSON value for a one-line message."""
    if value is None or isinstance(value, bool):
        return "null" if value is None else str(value).lower()
    if isinstance(value, int):
        if value.bit_length() > 3.33 * HUGE_DIGITS:
            return _("a number of more than 30 digits")
        return str(value)
    if isinstance(value, float):
        return _("the fraction {value}", value=repr(value))
    if isinstance(value, str):
        return quote(value)
    if isinstance(value, list):
        return _.plural("a list of {n} item", "a list of {n} items", len(value))
    if isinstance(value, dict):
        return _.plural("an object of {n} key", "an object of {n} keys", len(value))
    return f"a {type(value).__name__}"


def whole(value: Any, lo: int, hi: int) -> int | None:
    """``value`` when it is an int (not a bool) within ``lo``..``hi``; else None."""
    if isinstance(value, bool) or not isinstance(value, int):
        return None
    return value if lo <= value <= hi else None


def player_key(key: Any, players: int) -> int | None:
    """A player number written as an object key (``"1"``..``"N"``); else None."""
    number = parse_int(key, 1, players) if isinstance(key, str) else None
    return number if number is not None and key == str(number) else None

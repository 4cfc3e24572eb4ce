"""The one way to read a whole number from text: ASCII digits only, bounded in length.

``str.isdigit()`` is true for ``²`` and ``٣`` and ``int()`` refuses more than 4,300
digits; every reader of numbers (actions, options, flags, positions) goes through here.
"""

from __future__ import annotations

import re

MAX_DIGITS = 20
_INTEGER = re.compile(rf"[+-]?[0-9]{{1,{MAX_DIGITS}}}", re.ASCII)


def parse_int(text: str, lo: int | None = 0, hi: int | None = None) -> int | None:
    """``text`` as an int when it is an optionally signed run of at most 20 ASCII digits
    (surrounding spaces allowed) within ``lo``..``hi``; otherwise None. ``lo`` is 0 unless
    given (a count, an index or a seat is never negative, so ``-1`` is refused): pass
    ``lo=None`` to read negative numbers too."""
    word = text.strip()
    if not _INTEGER.fullmatch(word):
        return None
    value = int(word)
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        return None
    return value


def quote(text: str, limit: int = 40) -> str:
    """``repr`` of user input cut to about ``limit`` characters, for messages."""
    if len(text) <= limit:
        return repr(text)
    return repr(text[:limit]) + f"… ({len(text)} characters)"


def cut(text: str, limit: int = 200) -> str:
    """``text`` cut to about ``limit`` characters (for messages that embed other text)."""
    return text if len(text) <= limit else text[:limit] + f"… ({len(text)} characters)"

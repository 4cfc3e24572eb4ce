"""The one way to read a whole number from text: ASCII digits only, bounded in length.

``str.isdigit()`` is true for ``²`` and ``٣`` and ``int()`` refuses more than 4,300
digits; every reader of numbers (actions, options, flags, positions) goes through here.
"""

from __future__ import annotations

import re

from tabletop.core.i18n.text import Domain

_ = Domain("tabletop")
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
    """``repr`` of user input cut to about ``limit`` characters, for messages (the count
    of a longer one said in the reader's language)."""
    if len(text) <= limit:
        return repr(text)
    return _cut_said(repr(text[:limit]), len(text))


def cut(text: str, limit: int = 200) -> str:
    """``text`` cut to about ``limit`` characters (for messages that embed other text)."""
    return text if len(text) <= limit else _cut_said(text[:limit], len(text))


def _cut_said(head: str, count: int) -> str:
    return _.plural("{text}… ({n} character)", "{text}… ({n} characters)", count, text=head)

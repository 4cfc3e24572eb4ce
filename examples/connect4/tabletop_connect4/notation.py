"""Connect Four's notation (C5.1): ``drop 4``, or the bare column number ``4``.

Columns are numbered from 1 on the left; input is case-insensitive.
"""

from __future__ import annotations

from tabletop.game import NotationError


def forms(columns: int) -> str:
    """The allowed forms, for error messages."""
    return f"drop <column>, or the column alone, with a column 1-{columns} (C5.1)"


def parse(text: str, columns: int) -> int:
    """The column (from 0) that ``text`` names; NotationError saying what is allowed."""
    words = text.lower().split()
    if words and words[0] == "drop":
        words = words[1:]
        if not words:
            raise NotationError(f"drop needs a column, e.g. drop 4; actions are {forms(columns)}")
    if len(words) != 1:
        shown = text.strip()[:40]
        raise NotationError(f"unknown action {shown!r}; actions are {forms(columns)}")
    word = words[0]
    if not word.isascii() or not word.isdigit():
        raise NotationError(f"{word[:20]!r} is not a column number; actions are {forms(columns)}")
    number = int(word)
    if not 1 <= number <= columns:
        raise NotationError(f"there is no column {number}: columns are 1-{columns} (C1.1)")
    return number - 1


def format_action(column: int) -> str:
    """The canonical text of dropping into ``column`` (from 0)."""
    return f"drop {column + 1}"

"""Connect Four's notation (C5.1): ``drop 4``, or the bare column number ``4``.

Columns are numbered from 1 on the left; input is case-insensitive.
"""

from __future__ import annotations

from tabletop.game import Domain, NotationError, parse_int, quote

_ = Domain("tabletop_connect4")


def forms(columns: int) -> str:
    """The allowed forms, for error messages."""
    return _(
        "drop <column>, or the column alone, with a column 1-{columns} (C5.1)", columns=columns
    )


def parse(text: str, columns: int) -> int:
    """The column (from 0) that ``text`` names; NotationError saying what is allowed."""
    words = text.lower().split()
    if words and words[0] == "drop":
        words = words[1:]
        if not words:
            raise NotationError(
                _("drop needs a column, e.g. drop 4; actions are {forms}", forms=forms(columns))
            )
    if len(words) != 1:
        shown = text.strip()[:40]
        raise NotationError(
            _("unknown action {text}; actions are {forms}", text=repr(shown), forms=forms(columns))
        )
    word = words[0]
    number = parse_int(word) if word[:1].isascii() and word[:1].isdigit() else None
    if number is None:
        raise NotationError(
            _(
                "{text} is not a column number; actions are {forms}",
                text=quote(word),
                forms=forms(columns),
            )
        )
    if not 1 <= number <= columns:
        raise NotationError(
            _(
                "there is no column {number}: columns are 1-{columns} (C1.1)",
                number=number,
                columns=columns,
            )
        )
    return number - 1


def format_action(column: int) -> str:
    """The canonical text of dropping into ``column`` (from 0)."""
    return f"drop {column + 1}"

"""The typed errors of tabletop: each carries a one-line message for the user.

The CLI's single error boundary prints ``str(error)`` and exits with ``exit_code``;
nothing else is shown, never a traceback.
"""

from __future__ import annotations

from tabletop.core.i18n.text import Domain
from tabletop.core.numbers import quote

_ = Domain("tabletop")


class TabletopError(Exception):
    """Base of every error a user can cause. ``str()`` is the one-line message."""

    exit_code = 1


class UsageError(TabletopError):
    """A command was called with words it does not take."""

    exit_code = 2


class UnknownGameError(TabletopError):
    """A game id that no installed plugin provides."""

    exit_code = 2


class OptionError(TabletopError):
    """An unknown option or a value the option does not allow."""

    exit_code = 2


class NotationError(TabletopError):
    """Text that is not an action of the game's notation."""


class PositionError(TabletopError):
    """A position (JSON) that cannot arise in the game."""


class RecordError(TabletopError):
    """A saved game that cannot be read: missing, truncated, edited or from another game."""


class InputError(TabletopError):
    """Text a user handed over that cannot be read: too large, not UTF-8, a line too long
    or holding control characters (:mod:`tabletop.core.reading` says the limits)."""


class ActionError(TabletopError):
    """An action of a sequence was refused: says which one, why, and what is allowed."""

    def __init__(self, number: int, text: str, reason: str) -> None:
        self.number = number
        self.text = text
        self.reason = reason
        super().__init__(
            _(
                "action {number} {text} refused: {reason}",
                number=number,
                text=quote(text),
                reason=reason,
            )
        )


def one_line(text: str) -> str:
    """Fold a message to one line."""
    return " ".join(text.split())

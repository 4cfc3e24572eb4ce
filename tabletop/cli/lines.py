"""How ``tabletop play`` and ``replay`` read a typed line: with line editing on a
terminal, bounded and checked from a pipe (:mod:`tabletop.core.reading`)."""

from __future__ import annotations

import sys
from collections.abc import Callable

from tabletop.core import reading
from tabletop.core.errors import InputError
from tabletop.core.i18n.text import Domain

_ = Domain("tabletop")

HISTORY_LENGTH = 500


def terminal_reader() -> Callable[[str], str]:
    """How ``play`` reads a line: on a terminal, ``input()`` with line editing and a
    history of earlier inputs (stdlib ``readline``: arrow keys, Home/End, Ctrl-R);
    from a pipe or file, one bounded line (:mod:`tabletop.core.reading`) after the prompt."""
    if sys.stdin.isatty():
        try:
            import readline
        except ImportError:  # a Python built without readline: plain input()
            return input
        readline.set_history_length(HISTORY_LENGTH)
        return input
    return piped_line


def piped_line(prompt: str) -> str:
    """The prompt on stdout, then one line of stdin (EOFError at its end); InputError for
    a line that is too long, not UTF-8 or holds control characters."""
    sys.stdout.write(prompt)
    sys.stdout.flush()
    limit = 4 * reading.MAX_LINE_CHARS + 2
    raw = sys.stdin.buffer.readline(limit)
    if not raw:
        raise EOFError
    where = "typed line"
    if len(raw) == limit and not raw.endswith(b"\n"):
        raise InputError(
            _(
                "{where} is longer than {limit} characters, the limit",
                where=_("typed line"),
                limit=reading.MAX_LINE_CHARS,
            )
        )
    return reading.check_line(reading.decode(raw, where, InputError), where, InputError)

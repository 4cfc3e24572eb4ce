"""The one bounded way to read what a user hands the program: files, lines and JSON.

Every file tabletop reads (positions, saves, actions, scenario files) goes through
here, so ``/dev/zero``, a 3 GB file, invalid UTF-8, JSON nested 100,000 deep or a
number of 5,000 digits each end in one line saying what was wrong and what is allowed.

Limits (documented in the README):

- a file: at most :data:`MAX_FILE_BYTES` (4 MiB), UTF-8;
- a line (an action, a typed word): at most :data:`MAX_LINE_CHARS` (1,000 characters), no
  control characters other than tab;
- JSON: nested at most :data:`MAX_JSON_DEPTH` (64) deep, whole numbers of at most 20
  digits, finite numbers only (no ``NaN`` or ``Infinity``).
"""

from __future__ import annotations

import json
import math
import re
import unicodedata
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from tabletop.core.errors import TabletopError
from tabletop.core.i18n.text import Domain
from tabletop.core.numbers import MAX_DIGITS, quote

_ = Domain("tabletop")

MAX_FILE_BYTES = 4 * 1024 * 1024
MAX_LINE_CHARS = 1000
MAX_JSON_DEPTH = 64
_CONTROL = re.compile(r"[\x00-\x08\x0a-\x1f\x7f-\x9f\u2028\u2029]")


def _size_text(count: int) -> str:
    if count >= 1024 * 1024:
        return _("{count} MiB", count=count // (1024 * 1024))
    return _.plural("{n} byte", "{n} bytes", count)


def read_bytes(
    path: Path,
    what: str,
    error: type[TabletopError] = TabletopError,
    missing: type[TabletopError] | None = None,
    limit: int = MAX_FILE_BYTES,
) -> bytes:
    """The bytes of file ``path`` (``what`` names it: "position file"), at most
    :data:`MAX_FILE_BYTES`; ``error`` is raised, with one line, for anything else
    (``missing``, when given, for a file that does not exist or is a folder)."""
    path = Path(path)
    try:
        with path.open("rb") as handle:
            data = handle.read(limit + 1)
    except FileNotFoundError:
        raise (missing or error)(_("no such {what}: {path}", what=what, path=path)) from None
    except IsADirectoryError:
        raise (missing or error)(
            _("{what} {path} is a folder; give a file", what=what, path=path)
        ) from None
    except OSError as exc:
        raise error(
            _(
                "cannot read {what} {path}: {reason}",
                what=what,
                path=path,
                reason=exc.strerror or exc,
            )
        ) from None
    if len(data) > limit:
        raise error(
            _(
                "{what} {path} is larger than {size}, the limit",
                what=what,
                path=path,
                size=_size_text(limit),
            )
        )
    return data


def decode(data: bytes, where: str, error: type[TabletopError] = TabletopError) -> str:
    """``data`` as UTF-8 text; ``error`` names ``where`` and the byte that is not UTF-8."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        byte = f"0x{data[exc.start]:02x}"
        if b"\n" in data.rstrip(b"\n"):
            raise error(
                _(
                    "{where} is not UTF-8 text (byte {byte} on line {line}); save it as UTF-8",
                    where=where,
                    byte=byte,
                    line=line,
                )
            ) from None
        raise error(
            _("{where} is not UTF-8 text (byte {byte}); save it as UTF-8", where=where, byte=byte)
        ) from None


def read_text(
    path: Path,
    what: str,
    error: type[TabletopError] = TabletopError,
    missing: type[TabletopError] | None = None,
    limit: int = MAX_FILE_BYTES,
) -> str:
    """The UTF-8 text of file ``path``, bounded (see :func:`read_bytes`)."""
    where = _("{what} {path}", what=what, path=path)
    return decode(read_bytes(path, what, error, missing, limit), where, error)


def check_line(text: str, where: str, error: type[TabletopError] = TabletopError) -> str:
    """``text`` (one line, its end stripped) if it is short and free of control characters."""
    text = text.rstrip("\r\n")
    if len(text) > MAX_LINE_CHARS:
        raise error(_too_long(where))
    found = _CONTROL.search(text)
    if found:
        name = unicodedata.name(found.group(), f"U+{ord(found.group()):04X}")
        raise error(
            _(
                "{where} holds a control character ({name}); lines are printable text",
                where=where,
                name=name,
            )
        )
    return text


def lines(
    source: IO[bytes], what: str, error: type[TabletopError] = TabletopError
) -> Iterator[str]:
    """The lines of a byte stream, read lazily (a pipe is answered line by line), each
    checked by :func:`check_line`; at most :data:`MAX_FILE_BYTES` in all."""
    total = 0
    number = 0
    limit = 4 * MAX_LINE_CHARS + 2  # a UTF-8 character is at most 4 bytes
    while True:
        raw = source.readline(limit)
        if not raw:
            return
        number += 1
        where = _("{what}, line {number}", what=what, number=number)
        if len(raw) == limit and not raw.endswith(b"\n"):
            raise error(
                _(
                    "{where}, is longer than {limit} characters, the limit",
                    where=where,
                    limit=MAX_LINE_CHARS,
                )
            )
        total += len(raw)
        if total > MAX_FILE_BYTES:
            raise error(
                _(
                    "{what} is larger than {size}, the limit",
                    what=what,
                    size=_size_text(MAX_FILE_BYTES),
                )
            )
        yield check_line(decode(raw, where, error), where, error)


class _Refused(Exception):
    """A JSON number or constant outside what tabletop reads."""


def _too_long(where: str) -> str:
    return _(
        "{where} is longer than {limit} characters, the limit", where=where, limit=MAX_LINE_CHARS
    )


def _whole(text: str) -> int:
    digits = text.lstrip("-")
    if len(digits) > MAX_DIGITS:
        raise _Refused(
            _(
                "a whole number of {count} digits (at most {limit})",
                count=len(digits),
                limit=MAX_DIGITS,
            )
        )
    return int(text)


def _real(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _Refused(
            _("the number {text}, too large to hold (finite numbers only)", text=quote(text))
        )
    return value


def _constant(text: str) -> float:
    raise _Refused(_("{text} (finite numbers only)", text=text))


def parse_json(text: str, where: str, error: type[TabletopError] = TabletopError) -> Any:
    """JSON text as Python data, bounded in depth and numbers (see the module's limits)."""
    try:
        data = json.loads(text, parse_int=_whole, parse_float=_real, parse_constant=_constant)
    except json.JSONDecodeError as exc:
        raise error(
            _(
                "{where} is not JSON (line {line}: {reason})",
                where=where,
                line=exc.lineno,
                reason=exc.msg,
            )
        ) from None
    except _Refused as exc:
        raise error(_("{where} holds {what}", where=where, what=exc.args[0])) from None
    except RecursionError:
        data = None
        depth = MAX_JSON_DEPTH + 1
    else:
        depth = json_depth(data)
    if depth > MAX_JSON_DEPTH:
        raise error(
            _(
                "{where} is nested deeper than {limit} levels, the limit",
                where=where,
                limit=MAX_JSON_DEPTH,
            )
        )
    return data


def json_depth(data: Any) -> int:
    """How deep lists and objects nest in ``data`` (a scalar: 0); iterative."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(data, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children: Any = item.values()
        elif isinstance(item, list):
            children = item
        else:
            deepest = max(deepest, depth)
            continue
        deepest = max(deepest, depth + 1)
        if depth + 1 > MAX_JSON_DEPTH:
            return depth + 1
        stack.extend((child, depth + 1) for child in children)
    return deepest


def read_json(
    path: Path,
    what: str,
    error: type[TabletopError] = TabletopError,
    missing: type[TabletopError] | None = None,
) -> Any:
    """A bounded JSON file (see the module's limits)."""
    where = _("{what} {path}", what=what, path=path)
    return parse_json(read_text(path, what, error, missing), where, error)

"""Quarto's opening book: exact values the project's own solver proved, for the positions
the solver cannot settle within a move's budget (issue 38).

An entry is a position "the player to act places ``hand`` on this board" (the PLACE
phase, Q3.3), keyed by the solver's canonical key (:class:`tabletop_quarto.symmetry.Canon`:
the board symmetries times the attribute relabellings and value flips, 12,288-fold on the
standard board), so one entry stands for every symmetric position. It holds the exact
value for the player to place (+1 win, 0 draw, -1 loss) and the placements to the end
under best play. A GIVE position's value follows from its gives' entries (the opponent
places each), so the book answers both phases: :func:`give_values`, :func:`place_values`.
Claims change nothing (a perfect player claims at once: the solver's values hold for
``claim=manual``, Q5.2); only all four attributes counted are covered.

The file (``book.bin``, built by ``python -m bench.book``): a first line
``QUARTOBOOK1 {json header}`` (the sections: variant, depth covered, entry count, and the
SHA-256 of the body), then each section's entries, 12 bytes each (key: occupancy and the
four sorted attribute lanes as five 16-bit numbers; value as a signed byte; placements),
sorted by key for a binary search. A file that fails any check is not used: one line on
stderr says why, and the solver plays on without it.
"""

from __future__ import annotations

import hashlib
import json
import struct
import sys
from bisect import bisect_left
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from tabletop.game import Domain
from tabletop_quarto.rules import GIVE, OVER, PLACE, PLACE_BASE, QUARTO, State, apply, legal
from tabletop_quarto.search import columns
from tabletop_quarto.symmetry import Canon

_ = Domain("tabletop_quarto")

PATH = Path(__file__).with_name("book.bin")
MAGIC = "QUARTOBOOK1"
RECORD = struct.Struct(">5HbB")  # occupancy, four lanes, value, placements
ALL = 15  # every attribute counted
Key = tuple[int, ...]


class BookError(ValueError):
    """A book file that cannot be used (the message says why, in one line)."""


@dataclass(frozen=True)
class Section:
    """One variant's entries: sorted keys and their (value, placements)."""

    squares: bool
    depth: int  # every PLACE position with at most this many pieces on the board it holds
    keys: tuple[bytes, ...]
    values: tuple[tuple[int, int], ...]

    def get(self, key: Key) -> tuple[int, int] | None:
        packed = struct.pack(">5H", *key)
        index = bisect_left(self.keys, packed)
        if index < len(self.keys) and self.keys[index] == packed:
            return self.values[index]
        return None


Sections = dict[bool, Section]


def encode(sections: dict[bool, tuple[int, dict[Key, tuple[int, int]]]]) -> bytes:
    """The file's bytes for ``{squares: (depth, {key: (value, placements)})}``."""
    body = b""
    header: list[dict[str, Any]] = []
    for squares, (depth, entries) in sorted(sections.items()):
        rows = sorted((struct.pack(">5H", *k), v) for k, v in entries.items())
        body += b"".join(k + struct.pack(">bB", *v) for k, v in rows)
        header.append({"squares": squares, "depth": depth, "entries": len(rows)})
    digest = hashlib.sha256(body).hexdigest()
    line = f"{MAGIC} {json.dumps({'sections': header, 'sha256': digest})}\n"
    return line.encode() + body


def decode(data: bytes) -> dict[bool, Section]:
    """The sections of a book file's bytes; BookError when anything is wrong."""
    end = data.find(b"\n")
    first = data[: max(end, 0)].decode("utf-8", "replace")
    if end < 0 or not first.startswith(MAGIC + " "):
        raise BookError(_("it is not a Quarto opening book (no {magic} line)", magic=MAGIC))
    try:
        header = json.loads(first[len(MAGIC) + 1 :])
        sections = [
            (bool(s["squares"]), int(s["depth"]), int(s["entries"])) for s in header["sections"]
        ]
        digest = str(header["sha256"])
    except (ValueError, KeyError, TypeError):
        raise BookError(_("its header is damaged")) from None
    body = data[end + 1 :]
    if len(body) != RECORD.size * sum(n for _s, _d, n in sections):
        raise BookError(_("it is truncated or too long for its header"))
    if hashlib.sha256(body).hexdigest() != digest:
        raise BookError(_("it fails its checksum"))
    found: dict[bool, Section] = {}
    offset = 0
    for squares, depth, count in sections:
        rows = [RECORD.unpack_from(body, offset + i * RECORD.size) for i in range(count)]
        offset += count * RECORD.size
        keys = tuple(struct.pack(">5H", *row[:5]) for row in rows)
        found[squares] = Section(squares, depth, keys, tuple((r[5], r[6]) for r in rows))
    return found


def load(path: Path | None = None) -> dict[bool, Section]:
    """The book at ``path`` (default :data:`PATH`); a missing or damaged one: a line on
    stderr, and no book."""
    path = PATH if path is None else path
    try:
        return decode(path.read_bytes())
    except FileNotFoundError:
        return {}
    except (OSError, BookError) as exc:
        from tabletop.game import translate

        said = _("the Quarto opening book {path} is not used: {reason}", path=path, reason=exc)
        sys.stderr.write(translate(said) + "\n")
        return {}


@cache
def book() -> dict[bool, Section]:
    """The shipped book, read once."""
    return load()


def squares_of(state: State) -> bool | None:
    """The book's variant of ``state`` (2x2 squares or not), None when not covered."""
    if state.rules.attr8 != 0xFF:
        return None
    return len(state.rules.patterns) > 10


@cache
def canon(squares: bool) -> Canon:
    return Canon(squares, ALL)


def key_of(state: State) -> Key:
    """The canonical key of a PLACE position."""
    return canon(squares_of(state) is True).key(
        state.occupied, columns(state.board, state.occupied), state.hand
    )


def lookup(state: State, sections: dict[bool, Section] | None = None) -> tuple[int, int] | None:
    """(value, placements) for the player to place in a PLACE position, from the book."""
    squares = squares_of(state)
    section = (
        (book() if sections is None else sections).get(squares) if squares is not None else None
    )
    if section is None or state.phase != PLACE:
        return None
    return section.get(key_of(state))


Result = tuple[int, int]  # (value for the player to act, placements to the end)


def better(a: Result, b: Result) -> bool:
    """A higher value; among wins the sooner, among losses the later."""
    if a[0] != b[0]:
        return a[0] > b[0]
    return a[1] < b[1] if a[0] > 0 else a[1] > b[1] if a[0] < 0 else False


def give_values(
    state: State, sections: dict[bool, Section] | None = None
) -> dict[int, Result] | None:
    """Each give's (value, placements) for the giver (from the book), None unless all
    are known."""
    values = {}
    for give in legal(state):
        if give >= PLACE_BASE:
            return None
        found = lookup(apply(state, give), sections)
        if found is None:
            return None
        values[give] = (-found[0], found[1])
    return values


def place_values(
    state: State, sections: dict[bool, Section] | None = None
) -> dict[int, Result] | None:
    """Each placement's (value, placements) for the placer with the best give after it
    (from the book; a winning placement needs none), None unless all are known."""
    values: dict[int, Result] = {}
    for place in legal(state):
        if not PLACE_BASE <= place < QUARTO:
            return None
        after = apply(state, place)
        if after.phase == OVER:
            values[place] = (1, 1) if after.player == state.player else (0, 1)
            continue
        found = solved(after, sections)
        if found is None:
            return None
        values[place] = (found[0], found[1] + 1)
    return values


def solved(state: State, sections: dict[bool, Section] | None = None) -> Result | None:
    """(value, placements) for the player to act in a PLACE or GIVE position, from the
    book; None when it does not cover the position."""
    if state.phase == PLACE:
        return lookup(state, sections)
    if state.phase != GIVE:
        return None
    gives = give_values(state, sections)
    if not gives:
        return None
    best = next(iter(gives.values()))
    for result in gives.values():
        if better(result, best):
            best = result
    return best


def choices(state: State, sections: dict[bool, Section] | None = None) -> dict[int, Result] | None:
    """Every legal action's (value, placements) for the player to act, from the book, or
    None: what the perfect player and the coach read."""
    if state.phase == GIVE:
        return give_values(state, sections)
    if state.phase == PLACE:
        return place_values(state, sections)
    return None

"""Quarto's pieces, squares and winning patterns as ints (Q1, Q2, Q4).

A piece is a number 0-15: bit 0 dark, bit 1 tall, bit 2 square, bit 3 hollow (Q2.2).
A square is 0-15: ``file + 4 * rank`` with files a-d and ranks 1-4 (``a1`` = 0, Q1.1).
On the board each piece is stored as a byte ``p | (~p & 15) << 4``: the low nibble has a
bit for every attribute value 1, the high nibble for every value 0, so the AND of the
four bytes of a line is non-zero exactly when the four share some value (Q4.2). An
AND over the raw codes alone would find only the all-1 lines (274 of the 536 sets).
"""

from __future__ import annotations

from itertools import product

from tabletop.game import Domain, Msg

_ = Domain("tabletop_quarto")

ATTRIBUTES = ("colour", "height", "shape", "top")
LETTERS = (("L", "D"), ("S", "T"), ("R", "Q"), ("F", "H"))
VALUE_NAMES = (("light", "dark"), ("short", "tall"), ("round", "square"), ("solid", "hollow"))
FILES = "abcd"


def piece_code(piece: int) -> str:
    """``DTRH`` for 3 (Q2.1): colour, height, shape, top."""
    return "".join(LETTERS[i][(piece >> i) & 1] for i in range(4))


CODES = tuple(piece_code(p) for p in range(16))


def piece_words(piece: int) -> str:
    """A piece (Q2.1) as people read it: "dark, tall, round, hollow" for ``DTRH`` (a
    message: translated where it is shown)."""
    return Msg.joined(", ", [_(VALUE_NAMES[i][(piece >> i) & 1]) for i in range(4)])


PIECE_BY_CODE = {code: p for p, code in enumerate(CODES)}


def square_name(square: int) -> str:
    """``b2`` for 5."""
    return f"{FILES[square & 3]}{(square >> 2) + 1}"


SQUARE_NAMES = tuple(square_name(s) for s in range(16))
SQUARE_BY_NAME = {name: s for s, name in enumerate(SQUARE_NAMES)}


def encode(piece: int) -> int:
    """The byte a piece is stored as on the board (see module docstring)."""
    return piece | ((~piece & 15) << 4)


LINES: tuple[tuple[int, ...], ...] = (
    *(tuple(4 * r + f for f in range(4)) for r in range(4)),  # ranks
    *(tuple(4 * r + f for r in range(4)) for f in range(4)),  # files
    (0, 5, 10, 15),
    (3, 6, 9, 12),
)
BLOCKS: tuple[tuple[int, ...], ...] = tuple(
    (4 * r + f, 4 * r + f + 1, 4 * r + f + 4, 4 * r + f + 5) for r, f in product(range(3), repeat=2)
)


def patterns(squares: bool) -> tuple[tuple[int, ...], ...]:
    """The winning patterns: 10 lines (Q4.1), plus the 9 2×2 blocks with ``squares`` (Q4.4)."""
    return LINES + BLOCKS if squares else LINES


def attribute_mask(counted: frozenset[str]) -> int:
    """The 8-bit mask of attribute values that count (Q4.5): both values of each."""
    low = sum(1 << i for i, name in enumerate(ATTRIBUTES) if name in counted)
    return low | (low << 4)


def shared_values(pieces: tuple[int, ...], mask: int) -> list[str]:
    """Names of the counted values all ``pieces`` share (``["tall"]``), empty if none."""
    both = 0xFF
    for piece in pieces:
        both &= encode(piece)
    both &= mask
    return [VALUE_NAMES[i][v] for v in (1, 0) for i in range(4) if both >> (i + 4 * (1 - v)) & 1]

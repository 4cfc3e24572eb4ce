"""The board's names and the card deck (N1), read once from ``cards.json`` and validated.

Colours are ints 0..3 (``Y B G P``); fields are ints 0..8 (``c`` is 0, ring field ``r<i>``
is ``1 + i``). A card is an int, its position in ``cards.json``. The card geometry (which
ring fields a card covers at rotation k, N3.2) comes from the data file, never from code.
"""

from __future__ import annotations

import functools
import importlib.resources
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

COLOURS = "YBGP"
COLOUR_NAMES = ("yellow", "blue", "green", "pink")
PER_COLOUR = 7  # N1.2
RING = 8  # N1.1
CENTRE = 0
FIELDS = ("c", *(f"r{i}" for i in range(RING)))
CARDS_PER_PLAYER = 4  # N2.1


class CardDataError(ValueError):
    """``cards.json`` does not describe the 24 Quartino cards (a packaging error)."""


@dataclass(frozen=True)
class Deck:
    """The 24 cards and their geometry.

    ``plain[k]`` / ``mirror[k]`` are the three ring field indices a card covers at rotation
    k, in the order of its ring colours (N3.2; ``mirror`` is the card turned over).
    """

    codes: tuple[str, ...]
    index: Mapping[str, int]
    centre: tuple[int, ...]
    ring: tuple[tuple[int, ...], ...]
    offsets: tuple[int, ...]
    plain: tuple[tuple[int, ...], ...]
    mirror: tuple[tuple[int, ...], ...]

    def __len__(self) -> int:
        return len(self.codes)


def card_colours(code: str) -> tuple[int, ...] | None:
    """The four colours of a code ``X|abc`` (centre first), or None if it is not one."""
    text = code.strip().upper()
    if len(text) != 5 or text[1] != "|":
        return None
    letters = text[0] + text[2:]
    if sorted(letters) != sorted(COLOURS):
        return None
    return tuple(COLOURS.index(ch) for ch in letters)


def load_deck(data: Mapping[str, Any]) -> Deck:
    """A validated deck from the parsed ``cards.json``; CardDataError names the problem."""
    if list(data.get("colours", [])) != list(COLOURS):
        raise CardDataError(f"cards.json: colours must be {list(COLOURS)}")
    if data.get("ring_size") != RING:
        raise CardDataError(f"cards.json: ring_size must be {RING} (N1.1)")
    geometry = data.get("geometry")
    if not isinstance(geometry, Mapping) or geometry.get("centre") != FIELDS[CENTRE]:
        raise CardDataError("cards.json: geometry must name the centre field 'c' (N1.3)")
    offsets = geometry.get("ring_offsets")
    if (
        not isinstance(offsets, list)
        or len(offsets) != 3
        or not all(isinstance(o, int) and 0 <= o < RING for o in offsets)
        or len(set(offsets)) != 3
    ):
        raise CardDataError("cards.json: ring_offsets must be 3 distinct ints in 0..7 (N1.3)")
    codes = data.get("cards")
    if not isinstance(codes, list) or not all(isinstance(c, str) for c in codes):
        raise CardDataError("cards.json: 'cards' must be a list of codes like 'P|YBG'")
    colours: list[tuple[int, ...]] = []
    for code in codes:
        parsed = card_colours(code)
        if parsed is None or code != code.strip().upper():
            raise CardDataError(f"cards.json: {code!r} is not a card X|abc of Y, B, G, P")
        colours.append(parsed)
    if len(set(colours)) != len(colours):
        dup = next(c for c in codes if codes.count(c) > 1)
        raise CardDataError(f"cards.json: card {dup} is listed twice")
    if len(colours) != 24:
        raise CardDataError(f"cards.json: {len(colours)} cards; there are 24 (N1.3)")
    offs = tuple(offsets)
    return Deck(
        codes=tuple(codes),
        index={code: i for i, code in enumerate(codes)},
        centre=tuple(c[0] for c in colours),
        ring=tuple(c[1:] for c in colours),
        offsets=offs,
        plain=tuple(tuple(1 + (k + o) % RING for o in offs) for k in range(RING)),
        mirror=tuple(tuple(1 + (k - o) % RING for o in offs) for k in range(RING)),
    )


@functools.cache
def deck() -> Deck:
    """The deck of this package (read and validated on first use, then cached)."""
    text = importlib.resources.files("tabletop_quartino").joinpath("cards.json").read_text("utf-8")
    return load_deck(json.loads(text))

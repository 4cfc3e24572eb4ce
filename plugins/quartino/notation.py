"""Quartino's action notation (N6), case-insensitive on input, canonical on output.

``place <colour> <field>`` (``place Y r3``), ``claim <card> <k>`` (``claim P|YBG 5``), ``end``.
"""

from __future__ import annotations

from tabletop.game import NotationError

from .cards import COLOURS, FIELDS, RING, card_colours, deck
from .rules import CLAIM, END, END_TURN, PLACE, Action, claim, place

FORMS = "place <colour> <field> (e.g. place Y r3), claim <card> <k> (e.g. claim P|YBG 5), end"
_FIELD_INDEX = {name: i for i, name in enumerate(FIELDS)}
_ROTATIONS = frozenset(str(k) for k in range(RING))


def parse_colour(word: str) -> int:
    """A colour letter ``Y B G P`` as an int."""
    letter = word.upper()
    if len(letter) != 1 or letter not in COLOURS:
        raise NotationError(f"unknown colour {word!r}; colours are Y, B, G, P")
    return COLOURS.index(letter)


def parse_field(word: str) -> int:
    """A field name ``c``, ``r0``…``r7`` as an int."""
    field = _FIELD_INDEX.get(word.lower())
    if field is None:
        raise NotationError(f"unknown field {word!r}; fields are c, r0…r7")
    return field


def parse_card(word: str) -> int:
    """A card code ``X|abc`` as an int."""
    if card_colours(word) is None:
        raise NotationError(
            f"unknown card {word!r}; a card is X|abc with each of Y, B, G, P once (e.g. P|YBG)"
        )
    return deck().index[word.strip().upper()]


def parse_rotation(word: str) -> int:
    """A rotation ``k`` in 0…7."""
    if word not in _ROTATIONS:
        raise NotationError(f"bad rotation {word!r}; k is 0…7")
    return int(word)


def parse(text: str) -> Action:
    """The action written as ``text``; NotationError says what is wrong and what is allowed."""
    words = text.split()
    if not words:
        raise NotationError(f"empty action; write {FORMS}")
    verb = words[0].lower()
    if verb == "end":
        if len(words) != 1:
            raise NotationError("'end' takes no arguments")
        return END_TURN
    if verb == "place":
        if len(words) != 3:
            raise NotationError("write place <colour> <field>, e.g. place Y r3")
        return place(parse_colour(words[1]), parse_field(words[2]))
    if verb == "claim":
        if len(words) != 3:
            raise NotationError("write claim <card> <k>, e.g. claim P|YBG 5")
        return claim(parse_card(words[1]), parse_rotation(words[2]))
    raise NotationError(f"unknown action {words[0]!r}; actions are {FORMS}")


def format_action(a: Action) -> str:
    """The canonical notation of ``a``."""
    if a.kind == PLACE:
        return f"place {COLOURS[a.a]} {FIELDS[a.b]}"
    if a.kind == CLAIM:
        return f"claim {deck().codes[a.a]} {a.b}"
    if a.kind == END:
        return "end"
    raise ValueError(f"not a Quartino action: {a!r}")

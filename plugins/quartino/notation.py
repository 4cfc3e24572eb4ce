"""Quartino's action notation (N6), case-insensitive on input, canonical on output.

``place <colour> <field>`` (``place Y r3``), ``claim <card> <k>`` (``claim P|YBG 5``), ``end``;
the chance outcomes (issue 35): ``deal <card>`` (``deal P|YBG``, N2.1) and ``lot <player>``
(``lot 3``, N2.2).
"""

from __future__ import annotations

from tabletop.game import Domain, NotationError, parse_int, quote
from tabletop_quartino.cards import COLOURS, FIELDS, RING, card_colours, deck
from tabletop_quartino.rules import (
    CLAIM,
    DEAL,
    DEALS,
    END,
    END_TURN,
    LOT,
    LOTS,
    PLACE,
    Action,
    claim,
    place,
)

_ = Domain("tabletop_quartino")
# The claim shouted in the players' languages, accepted as `claim`; records say `claim`.
CLAIM_WORDS = frozenset({"quartino", "квартино"})
FORMS = _(
    "place <colour> <field> (e.g. place Y r3), claim <card> <k> (e.g. claim P|YBG 5), end (N6)"
)
_FIELD_INDEX = {name: i for i, name in enumerate(FIELDS)}
_ROTATIONS_INDEX = {str(k): k for k in range(RING)}
_ROTATIONS = frozenset(_ROTATIONS_INDEX)


def parse_colour(word: str) -> int:
    """A colour letter ``Y B G P`` as an int."""
    letter = word.upper()
    if len(letter) != 1 or letter not in COLOURS:
        raise NotationError(
            _("unknown colour {word}; colours are Y, B, G, P (N6)", word=quote(word))
        )
    return COLOURS.index(letter)


def parse_field(word: str) -> int:
    """A field name ``c``, ``r0``…``r7`` as an int."""
    field = _FIELD_INDEX.get(word.lower())
    if field is None:
        raise NotationError(_("unknown field {word}; fields are c, r0…r7 (N6)", word=quote(word)))
    return field


def parse_card(word: str) -> int:
    """A card code ``X|abc`` as an int."""
    if card_colours(word) is None:
        raise NotationError(
            _(
                "unknown card {word}; "
                "a card is X|abc with each of Y, B, G, P once, e.g. P|YBG (N6)",
                word=quote(word),
            )
        )
    return deck().index[word.strip().upper()]


def parse_rotation(word: str) -> int:
    """A rotation ``k`` in 0…7."""
    if word not in _ROTATIONS:
        raise NotationError(_("bad rotation {word}; k is 0…7 (N6)", word=quote(word)))
    return _ROTATIONS_INDEX[word]


def parse(text: str) -> Action:
    """The action written as ``text``; NotationError says what is wrong and what is allowed."""
    words = text.split()
    if not words:
        raise NotationError(_("empty action; write {forms}", forms=FORMS))
    verb = words[0].lower()
    if verb.rstrip("!") in CLAIM_WORDS:  # "Quartino!" as the Polish seed shouts it
        verb = "claim"
    if verb == "end":
        if len(words) != 1:
            raise NotationError(_("'end' takes no arguments (N6)"))
        return END_TURN
    if verb == "place":
        if len(words) != 3:
            raise NotationError(_("write place <colour> <field>, e.g. place Y r3 (N6)"))
        return place(parse_colour(words[1]), parse_field(words[2]))
    if verb == "claim":
        if len(words) != 3:
            raise NotationError(_("write claim <card> <k>, e.g. claim P|YBG 5 (N6)"))
        return claim(parse_card(words[1]), parse_rotation(words[2]))
    if verb == "deal":
        if len(words) != 2:
            raise NotationError(_("write deal <card>, e.g. deal P|YBG (N2.1)"))
        return DEALS[parse_card(words[1])]
    if verb == "lot":
        player = parse_int(words[1], 1, len(LOTS) - 1) if len(words) == 2 else None
        if player is None:
            raise NotationError(_("write lot <player>, a player 1-4, e.g. lot 3 (N2.2)"))
        return LOTS[player]
    raise NotationError(
        _("unknown action {word}; actions are {forms}", word=quote(words[0]), forms=FORMS)
    )


def format_action(a: Action) -> str:
    """The canonical notation of ``a``."""
    if a.kind == PLACE:
        return f"place {COLOURS[a.a]} {FIELDS[a.b]}"
    if a.kind == CLAIM:
        return f"claim {deck().codes[a.a]} {a.b}"
    if a.kind == END:
        return "end"
    if a.kind == DEAL:
        return f"deal {deck().codes[a.a]}"
    if a.kind == LOT:
        return f"lot {a.a}"
    raise ValueError(f"not a Quartino action: {a!r}")

"""Quarto's action notation (Q2): ``give DTRH``, ``give 15``, ``place b2``, ``quarto``, ``done``.

Input is case-insensitive; a bare piece means ``give`` and a bare square ``place``.
"""

from __future__ import annotations

from tabletop.game import NotationError
from tabletop_quarto.pieces import CODES, PIECE_BY_CODE, SQUARE_BY_NAME, SQUARE_NAMES
from tabletop_quarto.rules import DONE, PLACE_BASE, QUARTO

FORMS = "give <piece>, place <square>, quarto, done"
PIECE_HELP = (
    "a piece is 4 letters colour L/D, height S/T, shape R/Q, top F/H (e.g. DTRH) "
    "or a number 0-15 (Q2.1, Q2.2)"
)


def parse_piece(word: str) -> int:
    """A piece from its letters or its number; NotationError otherwise."""
    upper = word.upper()
    if upper in PIECE_BY_CODE:
        return PIECE_BY_CODE[upper]
    if upper.isdigit() and int(upper) < 16:
        return int(upper)
    raise NotationError(f"{word!r} is not a piece: {PIECE_HELP}")


def parse_square(word: str) -> int:
    """A square ``a1``-``d4``; NotationError otherwise."""
    try:
        return SQUARE_BY_NAME[word.lower()]
    except KeyError:
        raise NotationError(
            f"{word!r} is not a square: files a-d, ranks 1-4, e.g. b2 (Q1.1)"
        ) from None


def parse(text: str) -> int:
    """The action ``text`` names."""
    words = text.lower().split()
    if not words:
        raise NotationError(f"empty action; actions are {FORMS}")
    verb, args = words[0], words[1:]
    if len(words) == 1:
        if verb in ("quarto", "done"):
            return QUARTO if verb == "quarto" else DONE
        if verb in SQUARE_BY_NAME:
            return PLACE_BASE + SQUARE_BY_NAME[verb]
        if verb.upper() in PIECE_BY_CODE or (verb.isdigit() and int(verb) < 16):
            return parse_piece(verb)
        if verb in ("give", "place"):
            what = "piece" if verb == "give" else "square"
            raise NotationError(
                f"{verb} needs a {what}, e.g. {verb} {'DTRH' if what == 'piece' else 'b2'}"
            )
        raise NotationError(f"unknown action {text.strip()!r}; actions are {FORMS} (Q2.3)")
    if verb == "give" and len(args) == 1:
        return parse_piece(args[0])
    if verb == "place" and len(args) == 1:
        return PLACE_BASE + parse_square(args[0])
    if verb in ("give", "place", "quarto", "done"):
        raise NotationError(f"{text.strip()!r} has extra words; actions are {FORMS} (Q2.3)")
    raise NotationError(f"unknown action {text.strip()!r}; actions are {FORMS} (Q2.3)")


def format_action(action: int) -> str:
    """The canonical text of an action."""
    if action < PLACE_BASE:
        return f"give {CODES[action]}"
    if action < QUARTO:
        return f"place {SQUARE_NAMES[action - PLACE_BASE]}"
    return "quarto" if action == QUARTO else "done"

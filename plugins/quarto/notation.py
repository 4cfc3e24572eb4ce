"""Quarto's action notation (Q2): ``give DTRH``, ``give 15``, ``place b2``, ``quarto``, ``done``.

Input is case-insensitive; a bare piece means ``give`` and a bare square ``place``.
"""

from __future__ import annotations

from tabletop.core.i18n.text import Domain
from tabletop.core.numbers import parse_int, quote
from tabletop.game import NotationError
from tabletop_quarto.pieces import CODES, PIECE_BY_CODE, SQUARE_BY_NAME, SQUARE_NAMES
from tabletop_quarto.rules import DONE, PLACE_BASE, QUARTO

_ = Domain("tabletop_quarto")
FORMS = _("give <piece>, place <square>, quarto, done")
PIECE_HELP = _(
    "a piece is 4 letters colour L/D, height S/T, shape R/Q, top F/H (e.g. DTRH) "
    "or a number 0-15 (Q2.1, Q2.2)"
)
# The claim in the players' languages (Czech, Polish, Russian, Bulgarian's "ЧЕТВОРКА!"):
# accepted as 'quarto', recorded as 'quarto'.
CLAIM_WORDS = frozenset({"quarto", "kvarto", "kwarto", "кварто", "четворка"})


def parse_piece(word: str) -> int:
    """A piece from its letters or its number; NotationError otherwise."""
    upper = word.upper()
    if upper in PIECE_BY_CODE:
        return PIECE_BY_CODE[upper]
    number = parse_int(word, 0, 15) if word[:1].isascii() and word[:1].isdigit() else None
    if number is not None:
        return number
    raise NotationError(_("{word} is not a piece: {help}", word=quote(word), help=PIECE_HELP))


def parse_square(word: str) -> int:
    """A square ``a1``-``d4``; NotationError otherwise."""
    try:
        return SQUARE_BY_NAME[word.lower()]
    except KeyError:
        raise NotationError(
            _("{word} is not a square: files a-d, ranks 1-4, e.g. b2 (Q1.1)", word=quote(word))
        ) from None


def parse(text: str) -> int:
    """The action ``text`` names."""
    words = text.lower().split()
    if not words:
        raise NotationError(_("empty action; actions are {forms}", forms=FORMS))
    verb, args = words[0], words[1:]
    if verb.rstrip("!") in CLAIM_WORDS:
        verb = words[0] = "quarto"
    if len(words) == 1:
        if verb in ("quarto", "done"):
            return QUARTO if verb == "quarto" else DONE
        if verb in SQUARE_BY_NAME:
            return PLACE_BASE + SQUARE_BY_NAME[verb]
        if verb.upper() in PIECE_BY_CODE or (verb[:1].isascii() and verb[:1].isdigit()):
            return parse_piece(verb)
        if verb in ("give", "place"):
            raise NotationError(
                _("give needs a piece, e.g. give DTRH")
                if verb == "give"
                else _("place needs a square, e.g. place b2")
            )
        raise NotationError(unknown_action(text))
    if verb == "give" and len(args) == 1:
        return parse_piece(args[0])
    if verb == "place" and len(args) == 1:
        return PLACE_BASE + parse_square(args[0])
    if verb in ("give", "place", "quarto", "done"):
        raise NotationError(
            _(
                "{text} has extra words; actions are {forms} (Q2.3)",
                text=quote(text.strip()),
                forms=FORMS,
            )
        )
    raise NotationError(unknown_action(text))


def unknown_action(text: str) -> str:
    """The refusal of a word that is no action."""
    return _(
        "unknown action {text}; actions are {forms} (Q2.3)", text=quote(text.strip()), forms=FORMS
    )


def format_action(action: int) -> str:
    """The canonical text of an action."""
    if action < PLACE_BASE:
        return f"give {CODES[action]}"
    if action < QUARTO:
        return f"place {SQUARE_NAMES[action - PLACE_BASE]}"
    return "quarto" if action == QUARTO else "done"

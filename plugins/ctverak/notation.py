"""Action text (K7): canonical ``format`` and a forgiving, case-insensitive ``parse``.

Canonical: ``draw stock``, ``draw 3``, ``meld 7S 7H``, ``add 1 7D``, ``discard 9C 2``,
``end``. Short forms: ``s`` (draw stock), ``1``–``4`` (draw that pile), ``m 7s 7h``,
``a 1 7d``, ``d 9c 2``, ``e``; ``10H`` for ``TH``; ``#1``–``#4`` for the card at that
position of the acting player's (sorted) hand. Chance outcomes (issue 35): ``deal 7H``
(the next card of the deal, K2.1) and ``draw 7H`` (the card a stock draw brings, K4.1).
"""

from __future__ import annotations

from tabletop.game import Domain, NotationError, parse_int, quote
from tabletop_ctverak.cards import card_code, parse_card
from tabletop_ctverak.rules import (
    ADD,
    DEAL_CARD,
    DISCARD,
    DRAW,
    END,
    MELD,
    OVER,
    STOCK,
    TAKE,
    Action,
    State,
)

_ = Domain("tabletop_ctverak")
FORMS = _(
    "actions are draw stock, draw 1-4, meld <cards>, add <meld> <cards>, "
    "discard <card> <pile>, end; short: s, 1-4, m, a, d, e (K7)"
)
MAX_MELDS = 27  # 108 cards in melds of 4 at most (K1.1, K3.2)
CARD_FORMS = _("cards are rank A23456789TJQK + suit SHDC (7H, TS), X for a joker, or #1-#4 (K7)")


def format_action(action: Action) -> str:
    """The canonical notation of ``action``."""
    kind = action[0]
    if kind == DRAW:
        return "draw stock" if action[1] == STOCK else f"draw {action[1]}"
    if kind == MELD:
        return "meld " + " ".join(card_code(c) for c in action[1:])
    if kind == ADD:
        return f"add {action[1]} " + " ".join(card_code(c) for c in action[2:])
    if kind == DISCARD:
        return f"discard {card_code(action[1])} {action[2]}"
    if kind == DEAL_CARD:
        return f"deal {card_code(action[1])}"
    if kind == TAKE:
        return f"draw {card_code(action[1])}"
    return "end"


def parse_action(state: State, text: str) -> Action:
    """The action ``text`` names; NotationError says what was wrong and what is allowed."""
    words = text.strip().lower().split()
    if not words:
        raise NotationError(_("empty action; {forms}", forms=FORMS))
    head, args = words[0], words[1:]
    if head == "draw":
        if len(args) != 1:
            raise NotationError(_("draw takes one source: draw stock or draw 1-4 (K7)"))
        card = parse_card(args[0]) if args[0] not in ("s", "stock") else None
        if card is not None:  # the chance outcome of a stock draw (K4.1)
            return (TAKE, card)
        return (DRAW, _source(args[0]))
    if head == "deal":
        if len(args) != 1 or parse_card(args[0]) is None:
            raise NotationError(_("deal takes one card, e.g. deal 7H (K2.1)"))
        return (DEAL_CARD, parse_card(args[0]) or 0)
    if head in ("s", "stock") and not args:
        return (DRAW, STOCK)
    if head in ("1", "2", "3", "4") and not args:
        return (DRAW, int(head))
    if head in ("meld", "m"):
        if not args:
            raise NotationError(_("meld needs its cards, e.g. meld 7S 7H (K7)"))
        return (MELD, *sorted(_cards(state, args)))
    if head in ("add", "a"):
        if len(args) < 2:
            raise NotationError(_("add needs a meld number and cards, e.g. add 1 7D (K7)"))
        number = parse_int(args[0], 1, MAX_MELDS) if args[0][:1].isdigit() else None
        if number is None:
            raise NotationError(
                _(
                    "bad meld number {word}; your melds are numbered 1-{max} at most (K7)",
                    word=quote(args[0]),
                    max=MAX_MELDS,
                )
            )
        return (ADD, number, *sorted(_cards(state, args[1:])))
    if head in ("discard", "d"):
        if len(args) != 2:
            raise NotationError(_("discard takes a card and a pile, e.g. discard 9C 2 (K7)"))
        card = _cards(state, args[:1])[0]
        return (DISCARD, card, _pile(args[1]))
    if head in ("end", "e") and not args:
        return (END,)
    raise NotationError(_("unknown action {text}; {forms}", text=quote(text.strip()), forms=FORMS))


def _source(word: str) -> int:
    if word in ("stock", "s"):
        return STOCK
    return _pile(word)


def _pile(word: str) -> int:
    if word in ("1", "2", "3", "4"):
        return int(word)
    raise NotationError(
        _("unknown pile {word}; piles are 1-4; draw also takes stock (K7)", word=quote(word))
    )


def _cards(state: State, words: list[str]) -> list[int]:
    cards = []
    hand = state.hands[state.player - 1] if state.step != OVER else ()
    for word in words:
        if word.startswith("#"):
            pos = parse_int(word[1:], 1, len(hand)) if word[1:2].isdigit() else None
            if pos is None:
                held = f"#1-#{len(hand)}" if hand else _("none: your hand is empty")
                shown = word if word.isprintable() and len(word) <= 20 else quote(word)
                raise NotationError(
                    _("no card {card} in your hand; positions: {held} (K7)", card=shown, held=held)
                )
            cards.append(hand[pos - 1])
            continue
        card = parse_card(word)
        if card is None:
            raise NotationError(
                _("unknown card {word}; {forms}", word=quote(word), forms=CARD_FORMS)
            )
        cards.append(card)
    return cards

"""Cards as small ints (K1): ``rank * 4 + suit`` for naturals, 52 for the joker.

Ranks ``A 2 … K`` are 0–12 and suits ``S H D C`` 0–3, so sorting cards sorts them by
rank (jokers last), and ``card >> 2`` is the rank, 13 for the joker (the "rank" of a
joker meld). A hand, meld or pile is a tuple of these ints; hands and melds are kept
sorted because they are multisets (two identical cards may exist, K1.2).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

RANKS = "A23456789TJQK"
SUITS = "SHDC"
JOKER = 52
JOKER_RANK = 13  # JOKER >> 2: the key of a joker meld


def value(key: int) -> int:
    """The scoring value of a rank (K6.2): A=1 … K=13."""
    return key + 1


def card_code(card: int) -> str:
    """The notation of a card (K1.2): ``7H``, ``TS``, ``X``."""
    if card == JOKER:
        return "X"
    return RANKS[card >> 2] + SUITS[card & 3]


def rank_code(key: int) -> str:
    """A rank as written in messages: ``7``, ``T``, or ``joker``."""
    return "joker" if key == JOKER_RANK else RANKS[key]


def parse_card(text: str) -> int | None:
    """The card written ``text`` (case-insensitive; ``10H`` is ``TH``), None if it is none."""
    word = text.strip().upper()
    if word in ("X", "JOKER", "*"):
        return JOKER
    if word.startswith("10"):
        word = "T" + word[2:]
    if len(word) != 2 or word[0] not in RANKS or word[1] not in SUITS:
        return None
    return RANKS.index(word[0]) * 4 + SUITS.index(word[1])


def deck(half: bool, ranks: int = 13, suits: int = 4) -> tuple[int, ...]:
    """The deck of K1.1, sorted: one or two French decks plus 2 or 4 jokers; a research
    deck (options ranks, suits) keeps only the first ``ranks`` ranks (A, 2, ...) and the
    first ``suits`` suits (S, H, D, C) of each French deck."""
    copies = 1 if half else 2
    naturals = [
        card for card in range(52) if card >> 2 < ranks and card & 3 < suits for _ in range(copies)
    ]
    return (*naturals, *([JOKER] * (2 if half else 4)))


def deck_counts(half: bool, ranks: int = 13, suits: int = 4) -> Counter[int]:
    """How many copies of each card the deck holds."""
    return Counter(deck(half, ranks, suits))


def insert(hand: tuple[int, ...], card: int) -> tuple[int, ...]:
    """``hand`` with ``card`` added, kept sorted."""
    i = 0
    n = len(hand)
    while i < n and hand[i] <= card:
        i += 1
    return (*hand[:i], card, *hand[i:])


def take(hand: tuple[int, ...], cards: Iterable[int]) -> tuple[int, ...]:
    """``hand`` without ``cards`` (a multiset the hand holds; ValueError if it does not)."""
    rest = list(hand)
    for card in cards:
        rest.remove(card)
    return tuple(rest)


def missing(hand: tuple[int, ...], cards: Iterable[int]) -> int | None:
    """The first of ``cards`` the hand lacks, counting copies, or None if it holds them all."""
    rest = list(hand)
    for card in cards:
        if card not in rest:
            return card
        rest.remove(card)
    return None

"""The basic Čtverák AI and the hint: both read only the player's view and the legal list.

The basic agent draws pile tops that fit its melds or pairs (else the stock), lays what
it can (completing čtverky first, jokers kept for completing), keeps jokers and pairs,
and never feeds the next player: it does not discard a card that fits the next player's
open meld, and it covers a pile top that would.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from tabletop.game import JSON
from tabletop.players import Turn
from tabletop_ctverak.cards import JOKER, JOKER_RANK, RANKS, card_code, parse_card
from tabletop_ctverak.rules import ADD, DISCARD, DRAW, END, MELD, STOCK, Action


def _cards(codes: list[str]) -> tuple[int, ...]:
    return tuple(c for c in (parse_card(code) for code in codes) if c is not None)


@dataclass(frozen=True)
class Seen:
    """The parts of a view the agent reasons about, as ints."""

    hand: tuple[int, ...]
    mine: tuple[tuple[int, ...], ...]
    tops: tuple[int | None, ...]
    next_open: frozenset[int]  # ranks of the next player's unfinished melds
    others_open: frozenset[int]  # ranks of any opponent's unfinished melds

    @classmethod
    def of(cls, view: JSON) -> Seen:
        me = int(view["player"])
        n = int(view["players"])
        melds = {int(p): tuple(_cards(m) for m in ms) for p, ms in view["melds"].items()}

        def open_ranks(players: list[int]) -> frozenset[int]:
            return frozenset(m[0] >> 2 for p in players for m in melds[p] if len(m) < 4)

        others = [p for p in range(1, n + 1) if p != me]
        return cls(
            hand=_cards(view["hand"] or []),
            mine=melds[me],
            tops=tuple((_cards(pile) or (None,))[-1] for pile in view["piles"]),
            next_open=open_ranks([me % n + 1]),
            others_open=open_ranks(others),
        )

    @property
    def my_open(self) -> frozenset[int]:
        return frozenset(m[0] >> 2 for m in self.mine if len(m) < 4)

    def wanted(self, card: int, held: bool = False) -> int:
        """How much this player wants ``card`` (``held``: one it holds): a joker, a card of
        an open meld's rank, one that pairs with another card in hand, else nothing."""
        if card == JOKER:
            return 5
        key = card >> 2
        if key in self.my_open:
            return 6
        same = sum(1 for c in self.hand if c >> 2 == key and c != JOKER) - held
        return 4 if same > 0 else 0

    def feeds_next(self, card: int) -> bool:
        """``card`` fits an unfinished meld of the next player (a joker fits any)."""
        if card == JOKER:
            return bool(self.next_open)
        return card >> 2 in self.next_open


class BasicAgent:
    """Plays sensibly from its own view: see the module docstring."""

    def act(self, turn: Turn) -> Any:
        legal: list[Action] = list(turn.legal)
        seen = Seen.of(turn.view)
        if legal[0][0] == DRAW:
            return max(legal, key=lambda a: _draw_score(seen, a))
        lays = [a for a in legal if a[0] in (MELD, ADD)]
        if lays:
            best = max(lays, key=lambda a: _lay_score(seen, a))
            if _lay_score(seen, best)[0] > 0:
                return best
        if (END,) in legal:
            return (END,)
        discards = [a for a in legal if a[0] == DISCARD]
        return min(discards, key=lambda a: _discard_cost(seen, a))


def _draw_score(seen: Seen, action: Action) -> tuple[int, int]:
    if action[1] == STOCK:
        return (1, 0)
    top = seen.tops[action[1] - 1]
    return (0 if top is None else seen.wanted(top), -action[1])


def _lay_score(seen: Seen, action: Action) -> tuple[int, int, int]:
    """Higher is better; a first field of 0 means 'rather keep the cards'."""
    cards = action[1:] if action[0] == MELD else action[2:]
    jokers = cards.count(JOKER)
    naturals = len(cards) - jokers
    size = len(cards) + (len(seen.mine[action[1] - 1]) if action[0] == ADD else 0)
    empties = len(cards) == len(seen.hand)
    if size == 4:
        level = 4  # completes a čtverka
    elif empties:
        level = 3  # a fresh hand of four at once
    elif jokers == 0:
        level = 2  # naturals only: lay them
    else:
        level = 0  # spend jokers only to complete or to empty the hand
    return (level, naturals, -jokers)


def _discard_cost(seen: Seen, action: Action) -> tuple[int, int]:
    card, pile = action[1], action[2]
    cost = seen.wanted(card, held=True) * 10
    if seen.feeds_next(card):
        cost += 100
    elif card != JOKER and card >> 2 in seen.others_open:
        cost += 20
    top = seen.tops[pile - 1]
    cover = 0
    if top is not None:
        if seen.feeds_next(top):
            cover = 10
        elif top == JOKER or top >> 2 in seen.others_open:
            cover = 3
        cover -= seen.wanted(top)
    return (cost, -cover)


def hint(view: JSON) -> str:
    """Advice from a player's own view: useful pile tops, lays, and cards not to discard."""
    if view.get("player") is None or view.get("hand") is None:
        return "no hints for a spectator"
    seen = Seen.of(view)
    notes = []
    fits = [
        f"pile {i} top {card_code(top)}"
        for i, top in enumerate(seen.tops, 1)
        if top is not None and seen.wanted(top) >= 4
    ]
    if fits:
        notes.append("useful: " + ", ".join(fits))
    counts = Counter(c >> 2 for c in seen.hand if c != JOKER)
    pairs = [RANKS[k] for k, count in sorted(counts.items()) if count >= 2]
    if pairs:
        notes.append("you can meld " + ", ".join(pairs))
    adds = [RANKS[k] for k in sorted(seen.my_open) if k != JOKER_RANK and counts.get(k)]
    if adds:
        notes.append("you can add " + ", ".join(adds) + " to your open melds")
    danger = sorted({card_code(c) for c in seen.hand if seen.feeds_next(c)})
    if danger:
        notes.append("do not discard " + " ".join(danger) + " (fits the next player's meld)")
    if view.get("discard_owed") and view.get("to_act") == view["player"] and seen.hand:
        options = [(DISCARD, c, pile) for c in dict.fromkeys(seen.hand) for pile in (1, 2, 3, 4)]
        best = min(options, key=lambda a: _discard_cost(seen, a))
        notes.append(f"if you lay nothing, discard {card_code(best[1])} {best[2]}")
    return "; ".join(notes) or "nothing stands out: draw the stock and keep pairs"

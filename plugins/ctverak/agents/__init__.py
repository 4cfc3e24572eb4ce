"""The Čtverák AIs and the hint: all read only the player's view and the legal list.

The basic agent draws pile tops that fit its melds or pairs (else the stock), lays what
it can (completing čtverky first, jokers kept for completing), keeps jokers and pairs,
and never feeds the next player: it does not discard a card that fits the next player's
open meld, and it covers a pile top that would. The novice is the basic agent that
takes no pile top to make a pair; the expert is the basic agent that spends jokers to lay lone
cards, counts the unseen copies of a rank before discarding it, and plans its refill
as a whole (:func:`plan_draw`: pile cards below the tops included). They are levels 3,
4 and 5 (:mod:`tabletop_ctverak.agents.levels`). :func:`basic_policy` and :func:`expert_policy`
play the same from a state, for the player to act (only their hand and the table). The
evaluation the levels search with is :mod:`tabletop_ctverak.agents.evaluation`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from itertools import product
from typing import Any

from tabletop.agents.base import AgentFactory, Turn
from tabletop.game import JSON, Domain, Msg
from tabletop_ctverak.cards import JOKER, JOKER_RANK, RANKS, card_code, parse_card
from tabletop_ctverak.rules import (
    ADD,
    DISCARD,
    DRAW,
    END,
    MELD,
    STOCK,
    Action,
    State,
    legal,
)

_ = Domain("tabletop_ctverak")


def _cards(codes: list[str]) -> tuple[int, ...]:
    return tuple(c for c in (parse_card(code) for code in codes) if c is not None)


def _live(groups: tuple[tuple[int, ...], ...]) -> tuple[int, ...]:
    """Per rank, 8 minus the copies in ``groups`` (what one sees): how many may still come."""
    live = [8] * 13
    for group in groups:
        for card in group:
            if card != JOKER:
                live[card >> 2] -= 1
    return tuple(live)


@dataclass(frozen=True)
class Seen:
    """The parts of a view the agent reasons about, as ints."""

    hand: tuple[int, ...]
    mine: tuple[tuple[int, ...], ...]
    tops: tuple[int | None, ...]
    piles: tuple[tuple[int, ...], ...]  # the face-up pile cards, bottom to top (K8)
    stock: int  # cards left in the stock (K8: its size is seen)
    next_open: frozenset[int]  # ranks of the next player's unfinished melds
    others_open: frozenset[int]  # ranks of any opponent's unfinished melds
    live: tuple[int, ...]  # per rank: copies this player has not seen (8 minus those seen)

    @classmethod
    def of(cls, view: JSON) -> Seen:
        me = int(view["player"])
        n = int(view["players"])
        melds = {int(p): tuple(_cards(m) for m in ms) for p, ms in view["melds"].items()}

        def open_ranks(players: list[int]) -> frozenset[int]:
            return frozenset(m[0] >> 2 for p in players for m in melds[p] if len(m) < 4)

        others = [p for p in range(1, n + 1) if p != me]
        hand = _cards(view["hand"] or [])
        piles = tuple(_cards(pile) for pile in view["piles"])
        return cls(
            hand=hand,
            mine=melds[me],
            tops=tuple((pile or (None,))[-1] for pile in piles),
            piles=piles,
            stock=int(view.get("stock") or 0),
            next_open=open_ranks([me % n + 1]),
            others_open=open_ranks(others),
            live=_live((hand, *piles, *(m for ms in melds.values() for m in ms))),
        )

    @classmethod
    def of_state(cls, state: State) -> Seen:
        """The same, read from a (sampled) state for the player to act: only their hand
        and the public table, so it is what :meth:`of` reads from their view."""
        me = state.player
        n = state.cfg.players
        melds = state.melds

        def open_ranks(players: list[int]) -> frozenset[int]:
            return frozenset(m[0] >> 2 for p in players for m in melds[p - 1] if len(m) < 4)

        return cls(
            hand=state.hands[me - 1],
            mine=melds[me - 1],
            tops=tuple(pile[-1] if pile else None for pile in state.piles),
            piles=state.piles,
            stock=len(state.stock),
            next_open=open_ranks([me % n + 1]),
            others_open=open_ranks([p for p in range(1, n + 1) if p != me]),
            live=_live((state.hands[me - 1], *state.piles, *(m for ms in melds for m in ms))),
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


class NoviceAgent:
    """The basic agent with less of an eye for the piles: it takes a pile top only when
    it is a joker or fits one of its open melds, never to make a pair (K4.1)."""

    def act(self, turn: Turn) -> Any:
        seen = Seen.of(turn.view)
        if turn.legal[0][0] == DRAW:
            return max(turn.legal, key=lambda a: _novice_draw_score(seen, a))
        return choose(seen, list(turn.legal))


def _novice_draw_score(seen: Seen, action: Action) -> tuple[int, int]:
    score = _draw_score(seen, action)
    return (0, score[1]) if 1 < score[0] < 5 else score


class BasicAgent:
    """Plays sensibly from its own view: see the module docstring."""

    def act(self, turn: Turn) -> Any:
        return choose(Seen.of(turn.view), list(turn.legal))


class ExpertAgent:
    """The basic agent with three habits of a better player: it lays a joker with any
    lone card rather than discard (two cards out of the hand are two draws next turn,
    K4.1); of the discards basic rates alike it throws the rank with the fewest copies it
    has not seen (the least likely to pair again, and to help the next player); and it
    plans its whole refill (:func:`plan_draw`), taking pile cards below the tops too."""

    def act(self, turn: Turn) -> Any:
        return choose(Seen.of(turn.view), list(turn.legal), expert=True)


def basic_policy(state: State) -> Action:
    """The basic agent's action in ``state`` (for the player to act, from what they see)."""
    return choose(Seen.of_state(state), legal(state))


def expert_policy(state: State) -> Action:
    """The expert agent's action in ``state`` (for the player to act, from what they see)."""
    return choose(Seen.of_state(state), legal(state), expert=True)


def choose(seen: Seen, actions: list[Action], expert: bool = False) -> Action:
    """The basic (or ``expert``) agent's pick among the legal ``actions``: the draw whose
    pile top it wants most (else the stock); in the meld step the best lay it is willing
    to make, else ``end``, else the cheapest discard. Deterministic: ties go to the first."""
    if actions[0][0] == DRAW:
        if expert:
            return plan_draw(seen, actions)
        return max(actions, key=lambda a: _draw_score(seen, a))
    floor = 1 if expert else 0
    lays = [a for a in actions if a[0] in (MELD, ADD)]
    if lays:
        best = max(lays, key=lambda a: _lay_score(seen, a, floor))
        if _lay_score(seen, best, floor)[0] > 0:
            return best
    if (END,) in actions:
        return (END,)
    discards = [a for a in actions if a[0] == DISCARD]
    if expert:
        return min(discards, key=lambda a: _counted_cost(seen, a))
    return min(discards, key=lambda a: _discard_cost(seen, a))


STOCK_WORTH = 0.7  # a stock card, in cards it lets one lay (0.55-0.85 measured alike)


def plan_draw(seen: Seen, actions: list[Action]) -> Action:
    """The expert's next refill draw (K4.1): the first draw of the best sequence that
    fills the hand. Every sequence of sources is tried, a pile giving its face-up cards
    top down (K8: the cards below a top are seen); the hand it ends with is worth the
    cards it could lay (:func:`_layable`) plus :data:`STOCK_WORTH` per stock card the
    stock still holds (a draw from an empty stock is legal only with ``reshuffle``, K5.2,
    and then counts too). Ties go to the stock, then the lowest pile."""
    sources = [a[1] for a in actions]
    best: tuple[float, bool, int] | None = None
    choice = actions[0]
    for plan in product(sources, repeat=max(1, 4 - len(seen.hand))):
        taken = [0, 0, 0, 0]
        drawn: list[int] = []
        stock = 0
        for source in plan:
            if source == STOCK:
                stock += 1
                continue
            pile = seen.piles[source - 1]
            if taken[source - 1] >= len(pile):
                break  # the pile is used up: the plan ends here
            taken[source - 1] += 1
            drawn.append(pile[-taken[source - 1]])
        if seen.stock:
            stock = min(stock, seen.stock)
        key = (_layable(seen, drawn) + STOCK_WORTH * stock, plan[0] == STOCK, -plan[0])
        if best is None or key > best:
            best, choice = key, (DRAW, plan[0])
    return choice


def _layable(seen: Seen, drawn: list[int]) -> int:
    """How many cards of the hand plus ``drawn`` could be laid (K4.2): those that fit an
    open meld (up to its 4 cards, K3.2), ranks held twice or more (a new meld, also once
    the open one closes, K3.3), and jokers with lone cards (or on their own)."""
    counts: dict[int, int] = {}
    jokers = 0
    for card in (*seen.hand, *drawn):
        if card == JOKER:
            jokers += 1
        else:
            counts[card >> 2] = counts.get(card >> 2, 0) + 1
    room = {m[0] >> 2: 4 - len(m) for m in seen.mine if len(m) < 4}
    laid = 0
    lone = 0
    for key, count in counts.items():
        added = min(count, room.get(key, 0))
        rest = count - added
        laid += added + (rest if rest >= 2 else 0)
        lone += rest == 1
    return laid + 2 * min(jokers, lone) + max(0, jokers - lone)


def _counted_cost(seen: Seen, action: Action) -> tuple[int, int, int]:
    cost, cover = _discard_cost(seen, action)
    card = action[1]
    return (cost, 99 if card == JOKER else seen.live[card >> 2], cover)


def _draw_score(seen: Seen, action: Action) -> tuple[int, int]:
    if action[1] == STOCK:
        return (1, 0)
    top = seen.tops[action[1] - 1]
    return (0 if top is None else seen.wanted(top), -action[1])


def _lay_score(seen: Seen, action: Action, floor: int = 0) -> tuple[int, int, int]:
    """Higher is better; a first field of 0 means 'rather keep the cards' (``floor`` 1:
    the expert lays jokers rather than keep them)."""
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
        level = floor  # basic spends jokers only to complete or to empty the hand
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
        return _("no hints for a spectator")
    seen = Seen.of(view)
    notes = []
    fits = [
        _("pile {pile} top {card}", pile=i, card=card_code(top))
        for i, top in enumerate(seen.tops, 1)
        if top is not None and seen.wanted(top) >= 4
    ]
    if fits:
        notes.append(_("useful: {tops}", tops=Msg.joined(", ", fits)))
    counts = Counter(c >> 2 for c in seen.hand if c != JOKER)
    pairs = [RANKS[k] for k, count in sorted(counts.items()) if count >= 2]
    if pairs:
        notes.append(_("you can meld {ranks}", ranks=", ".join(pairs)))
    adds = [RANKS[k] for k in sorted(seen.my_open) if k != JOKER_RANK and counts.get(k)]
    if adds:
        notes.append(_("you can add {ranks} to your open melds", ranks=", ".join(adds)))
    danger = sorted({card_code(c) for c in seen.hand if seen.feeds_next(c)})
    if danger:
        notes.append(
            _("do not discard {cards} (fits the next player's meld)", cards=" ".join(danger))
        )
    if view.get("discard_owed") and view.get("to_act") == view["player"] and seen.hand:
        piles = range(1, len(seen.piles) + 1)  # 4, or fewer with option piles
        options = [(DISCARD, c, pile) for c in dict.fromkeys(seen.hand) for pile in piles]
        best = min(options, key=lambda a: _discard_cost(seen, a))
        notes.append(
            _("if you lay nothing, discard {card} {pile}", card=card_code(best[1]), pile=best[2])
        )
    if not notes:
        return _("nothing stands out: draw the stock and keep pairs")
    return Msg.joined("; ", notes)


# The computer-player facet (tabletop.agents.facet): the levels module builds on the
# agents above, so it is imported last. The core names levels["4"] "ismcts"; here level
# 4 is the basic agent (agents/levels.py).
from tabletop_ctverak.agents.evaluation import evaluate as evaluate  # noqa: E402
from tabletop_ctverak.agents.levels import LEVELS as LEVELS  # noqa: E402
from tabletop_ctverak.agents.levels import ismcts  # noqa: E402

AGENTS: Mapping[str, AgentFactory] = {"basic": BasicAgent, "ismcts": ismcts}

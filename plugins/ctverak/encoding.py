"""Čtverák's action ids and observation vector (for learning frameworks, tabletop.bridges).

A meld is a subset of a hand, but an id must name the same action in every state (never
"the cards in slots 1 and 3", which are other cards after the next draw). A meld is
always cards of one rank plus jokers (K3.1), so it is named by its **rank and its card
multiset**: how many of each suit (0-2: two decks, K1.1) and how many jokers. An add goes
to one's own *unfinished* meld of a rank, which is unique (K3.3), so it is named by that
rank and the multiset added; the meld's number is looked up in the state. Suits never
matter to the rules, but they are part of the cards (``7S 7H`` and ``7S 7D`` are two
legal actions with different results), so they stay in the id. The same ids serve both
decks and 2-6 players (1,692 ids):

- ``0-4`` draw: the stock, piles 1-4 (K4.1); ``5-216`` discard: ``5 + 4 * card + pile - 1``
  (cards ``rank * 4 + suit``, 52 the joker, K4.3); ``217`` end;
- then melds: 13 ranks × :data:`MELD_SHAPES` (2-4 cards, at least one natural), then the
  joker melds ``X X``, ``X X X``, ``X X X X``;
- then adds: 13 ranks × :data:`ADD_SHAPES` (1-2 cards: a meld of 2+ never exceeds 4),
  then adding ``X`` or ``X X`` to the joker meld.

Chance outcomes (issue 35) have their own ids, as OpenSpiel's chance outcomes do: at a
deal or stock-draw step (``deal 7H``, ``draw 7H``) the id is the card, ``0-52``; no
player acts there, so they never meet a player's ids in one state.

The observation is read from the player's view (K8): the own hand, never another's.
"""

from __future__ import annotations

from array import array
from collections.abc import MutableSequence
from itertools import product
from typing import Any

from pydantic import BaseModel

from tabletop.game import IdLister, Observer, observation_layout
from tabletop_ctverak.cards import JOKER, JOKER_RANK, card_code
from tabletop_ctverak.rules import (
    ADD,
    CHANCE_STEPS,
    DEAL,
    DEAL_CARD,
    DISCARD,
    DRAW,
    END,
    MELD,
    MELD_STEP,
    OVER,
    REFILL,
    STEP_NAMES,
    STOCK,
    TAKE,
    Action,
    State,
    can_reshuffle,
    ctverky,
    distinct,
    lay_actions,
    owes_discard,
    points,
)

SEATS = 6
KINDS = JOKER + 1  # 52 naturals and the joker
Shape = tuple[int, int, int, int, int]  # per suit S H D C, then jokers


def _shapes(low: int, high: int) -> tuple[Shape, ...]:
    """Suit counts (0-2 each, at least one natural) and jokers, ``low``-``high`` cards."""
    found = []
    for shape in product(range(3), range(3), range(3), range(3), range(5)):
        naturals = sum(shape[:4])
        if naturals and low <= naturals + shape[4] <= high:
            found.append(shape)
    return tuple(found)


MELD_SHAPES = _shapes(2, 4)
ADD_SHAPES = (*_shapes(1, 2), (0, 0, 0, 0, 1), (0, 0, 0, 0, 2))  # jokers alone join too
END_ID = 5 + 4 * KINDS
MELD_BASE = END_ID + 1
JOKER_MELD_BASE = MELD_BASE + 13 * len(MELD_SHAPES)
ADD_BASE = JOKER_MELD_BASE + 3
JOKER_ADD_BASE = ADD_BASE + 13 * len(ADD_SHAPES)
IDS = JOKER_ADD_BASE + 2
_MELD_INDEX = {shape: i for i, shape in enumerate(MELD_SHAPES)}
_ADD_INDEX = {shape: i for i, shape in enumerate(ADD_SHAPES)}


def _shape(cards: tuple[int, ...]) -> tuple[int, Shape]:
    """The rank key (13 for jokers only) and the multiset of sorted ``cards``."""
    counts = [0, 0, 0, 0, 0]
    key = JOKER_RANK
    for card in cards:
        if card == JOKER:
            counts[4] += 1
        else:
            key = card >> 2
            counts[card & 3] += 1
    return key, (counts[0], counts[1], counts[2], counts[3], counts[4])


def _cards(key: int, shape: Shape) -> tuple[int, ...]:
    """The sorted cards of a rank key and multiset (the inverse of :func:`_shape`)."""
    naturals = [key * 4 + suit for suit in range(4) for _ in range(shape[suit])]
    return (*naturals, *(JOKER,) * shape[4])


def action_id(state: State, action: Action) -> int:
    """The id of an action (see the module docstring)."""
    kind = action[0]
    if kind in (DEAL_CARD, TAKE):
        return action[1]
    if kind == DRAW:
        return action[1]
    if kind == DISCARD:
        return 5 + 4 * action[1] + action[2] - 1
    if kind == END:
        return END_ID
    if kind == MELD:
        key, shape = _shape(action[1:])
        if key == JOKER_RANK:
            return JOKER_MELD_BASE + shape[4] - 2
        return MELD_BASE + len(MELD_SHAPES) * key + _MELD_INDEX[shape]
    meld = state.melds[state.player - 1][action[1] - 1]
    key = meld[0] >> 2
    _, shape = _shape(action[2:])
    if key == JOKER_RANK:
        return JOKER_ADD_BASE + shape[4] - 1
    return ADD_BASE + len(ADD_SHAPES) * key + _ADD_INDEX[shape]


def _action_of(action_id: int) -> Action:
    """The action of an id below :data:`ADD_BASE`, the same in every state (an add's
    meld number is the state's)."""
    if action_id < 5:
        return (DRAW, action_id)
    if action_id < END_ID:
        card, pile = divmod(action_id - 5, 4)
        return (DISCARD, card, pile + 1)
    if action_id == END_ID:
        return (END,)
    if action_id < JOKER_MELD_BASE:
        key, index = divmod(action_id - MELD_BASE, len(MELD_SHAPES))
        return (MELD, *_cards(key, MELD_SHAPES[index]))
    return (MELD, *(JOKER,) * (action_id - JOKER_MELD_BASE + 2))


_ACTIONS = tuple(_action_of(number) for number in range(ADD_BASE))  # looked up, not built


def action_of(state: State, action_id: int) -> Action:
    """The action of an id in ``state``; ValueError outside the ids, or for an add with
    no unfinished meld of that rank."""
    if state.step in CHANCE_STEPS:
        if not 0 <= action_id < KINDS:
            raise ValueError(f"Čtverák chance outcome ids are 0-{KINDS - 1}, not {action_id}")
        return (DEAL_CARD if state.step == DEAL else TAKE, action_id)
    if 0 <= action_id < ADD_BASE:
        return _ACTIONS[action_id]
    if not ADD_BASE <= action_id < IDS:
        raise ValueError(f"Čtverák action ids are 0-{IDS - 1}, not {action_id}")
    if action_id < JOKER_ADD_BASE:
        key, index = divmod(action_id - ADD_BASE, len(ADD_SHAPES))
        cards = _cards(key, ADD_SHAPES[index])
    else:
        key, cards = JOKER_RANK, (JOKER,) * (action_id - JOKER_ADD_BASE + 1)
    for number, meld in enumerate(state.melds[state.player - 1], 1):
        if len(meld) < 4 and meld[0] >> 2 == key:
            return (ADD, number, *cards)
    raise ValueError(f"action id {action_id} adds to an unfinished meld the player lacks")


LAYOUT = (
    ("hand", KINDS),
    ("melds", SEATS * KINDS),
    ("tops", 4 * KINDS),
    ("below", KINDS),
    ("pile_sizes", 4),
    ("hand_sizes", SEATS),
    ("ctverky", SEATS),
    ("points", SEATS),
    ("to_act", SEATS),
    ("me", SEATS),
    ("step", len(STEP_NAMES)),
    ("flags", 5),  # discard owed, laid, turn progress, stock exhausted, half deck
    ("counts", 3),  # stock size, idle turns, reshuffles
)
OFFSET, SIZE = observation_layout(LAYOUT)


_FLAGS = ("discard_owed", "laid", "turn_progress", "stock_exhausted")
# the step's slot: a chance step counts as the step it interrupts (the deal as the first
# turn's meld step, a stock draw as the refill), so the layout keeps its size
_SEEN_STEP = {"refill": 0, "meld": 1, "over": 2, "deal": 1, "draw": 0}
_SEEN_STEPS = (0, 1, 2, 1, 0)  # by rules step: REFILL, MELD_STEP, OVER, DEAL, DRAWING
_COUNTED = ("stock", "idle_turns", "reshuffles")
_HAND, _MELDS, _TOPS, _BELOW = OFFSET["hand"], OFFSET["melds"], OFFSET["tops"], OFFSET["below"]
_CODES = {card_code(card): card for card in range(KINDS)}  # the views' codes, read once


def observation(view: dict[str, Any], player: int, players: int, options: BaseModel) -> list[float]:
    """The view as :data:`SIZE` numbers in :data:`LAYOUT` order: card kinds are counted
    (the own hand, each seat's melds, the cards below the pile tops), the pile tops are
    one-hot, seats are 1-6 whatever the player count. The hot path of the bridges: card
    codes are looked up, not parsed."""
    out = [0.0] * SIZE
    kind = _CODES
    for code in view.get("hand") or ():
        out[_HAND + kind[code]] += 1.0
    for seat, melds in view["melds"].items():
        base = _MELDS + KINDS * (int(seat) - 1)
        for meld in melds:
            for code in meld:
                out[base + kind[code]] += 1.0
    for pile, cards in enumerate(view["piles"]):
        if cards:
            out[_TOPS + KINDS * pile + kind[cards[-1]]] += 1.0
            for code in cards[:-1]:
                out[_BELOW + kind[code]] += 1.0
        out[OFFSET["pile_sizes"] + pile] = float(len(cards))
    for key in ("hand_sizes", "ctverky", "points"):
        at = OFFSET[key] - 1
        for seat, number in view[key].items():
            out[at + int(seat)] = float(number)
    if view["to_act"]:
        out[OFFSET["to_act"] + view["to_act"] - 1] = 1.0
    out[OFFSET["me"] + player - 1] = 1.0
    out[OFFSET["step"] + _SEEN_STEP[view["step"]]] = 1.0
    for i, flag in enumerate(_FLAGS):
        out[OFFSET["flags"] + i] = float(bool(view[flag]))
    out[OFFSET["flags"] + 4] = float(view["deck"] == "half")
    for i, key in enumerate(_COUNTED):
        out[OFFSET["counts"] + i] = float(view[key])
    return out


_STEP, _FLAG, _COUNT = OFFSET["step"], OFFSET["flags"], OFFSET["counts"]
_TO_ACT, _ME, _PILE_SIZES = OFFSET["to_act"], OFFSET["me"], OFFSET["pile_sizes"]


_PILES_END = _PILE_SIZES + 4  # the pile tops, the cards below them and the pile sizes
_SIZES, _SCORED = OFFSET["hand_sizes"], OFFSET["ctverky"]  # then the points (LAYOUT)
# The last melds and the last piles seen, with their numbers, each one tuple (replaced
# whole, so a reader never mixes two): most steps change neither melds nor piles, and a
# step that changes the piles mostly puts one card on a pile or takes its top.
_LAST_MELDS: list[tuple[Any, array[float], array[float]]] = [((), array("f"), array("f"))]
_LAST_PILES: list[tuple[Any, array[float]]] = [((), array("f"))]


def _meld_numbers(all_melds: Any) -> tuple[Any, array[float], array[float]]:
    """Each seat's meld cards counted, then its čtverky and its points (K3.2, K6.2)."""
    numbers = array("f", bytes(4 * SEATS * KINDS))
    scored = array("f", bytes(8 * SEATS))
    base = 0
    for seat, melds in enumerate(all_melds):
        for meld in melds:
            for card in meld:
                numbers[base + card] += 1.0
        base += KINDS
        scored[seat] = ctverky(melds)
        scored[SEATS + seat] = points(melds)
    return all_melds, numbers, scored


def _pile_numbers(piles: Any) -> array[float]:
    """The pile tops one-hot, the cards below them counted, the pile sizes."""
    numbers = array("f", bytes(4 * (_PILES_END - _TOPS)))
    below = _BELOW - _TOPS
    for pile, cards in enumerate(piles):
        if cards:
            numbers[KINDS * pile + cards[-1]] = 1.0
            for card in cards[:-1]:
                numbers[below + card] += 1.0
        numbers[_PILE_SIZES - _TOPS + pile] = len(cards)
    return numbers


def _next_pile_numbers(before: Any, known: array[float], piles: Any) -> array[float]:
    """The numbers of ``piles`` from ``known``, those of the piles ``before``, where each
    pile that changed gained a card on top or lost its top (a discard, a draw); else
    counted anew (:func:`_pile_numbers`)."""
    numbers = known[:]
    below = _BELOW - _TOPS
    for pile in range(len(piles)):  # 4, or fewer with option piles (research variant)
        old, new = before[pile], piles[pile]
        if old is new:
            continue
        grown = len(new) - len(old)
        if grown == 1 and new[:-1] == old:  # a card put on top (K4.3)
            if old:
                top = old[-1]
                numbers[KINDS * pile + top] = 0.0
                numbers[below + top] += 1.0
            numbers[KINDS * pile + new[-1]] = 1.0
        elif grown == -1 and old[:-1] == new:  # the top taken (K4.1)
            numbers[KINDS * pile + old[-1]] = 0.0
            if new:
                top = new[-1]
                numbers[KINDS * pile + top] = 1.0
                numbers[below + top] -= 1.0
        elif old != new:
            return _pile_numbers(piles)
        numbers[_PILE_SIZES - _TOPS + pile] = len(new)
    return numbers


def observe(state: State, player: int, out: MutableSequence[float]) -> None:
    """The fast path of :func:`observation` (:meth:`tabletop.game.Game.observer`): the
    same numbers written from the state's card ints into ``out`` (zeros), no view built;
    the melds' numbers are kept from the last call while that tuple stays the same
    object, the piles' updated from the last call's for the card put on or taken off a
    pile. Of the hands it reads only ``player``'s own cards and every hand's size (K8),
    never the stock's or the bases' cards; the kit checks both paths agree, on resampled
    states too."""
    for card in state.hands[player - 1]:
        out[_HAND + card] += 1.0
    melds, piles = state.melds, state.piles
    known = _LAST_MELDS[0]
    if known[0] is not melds:
        known = _LAST_MELDS[0] = _meld_numbers(melds)
    out[_MELDS:_TOPS] = known[1]
    out[_SCORED : _SCORED + 2 * SEATS] = known[2]
    shown = _LAST_PILES[0]
    if shown[0] is not piles:
        before = shown[0]
        numbers = (
            _next_pile_numbers(before, shown[1], piles)
            if len(before) == len(piles)
            else _pile_numbers(piles)
        )
        shown = _LAST_PILES[0] = (piles, numbers)
    out[_TOPS:_PILES_END] = shown[1]
    sizes = _SIZES
    for hand in state.hands:
        out[sizes] = len(hand)
        sizes += 1
    step = state.step
    if step != OVER:
        out[_TO_ACT + state.player - 1] = 1.0
        if step == MELD_STEP and owes_discard(state):
            out[_FLAG] = 1.0
    out[_ME + player - 1] = 1.0
    out[_STEP + _SEEN_STEPS[step]] = 1.0
    if state.laid:
        out[_FLAG + 1] = 1.0
    if state.progress:
        out[_FLAG + 2] = 1.0
    if state.exhausted:
        out[_FLAG + 3] = 1.0
    if state.cfg.half:
        out[_FLAG + 4] = 1.0
    out[_COUNT] = len(state.stock)
    out[_COUNT + 1] = state.idle
    out[_COUNT + 2] = state.reshuffles


# The ids of draws, discards, ends, melds and of adds holding a natural card (whose rank
# is the meld's), filled as met; an add of jokers alone depends on the meld's rank.
_IDS: dict[Action, int] = {}


def legal_ids(state: State) -> list[int]:
    """The ids of ``rules.legal(state)`` in its order: a refill's draws and a meld step's
    discards or end written directly, the melds and adds looked up once computed."""
    step = state.step
    if step >= DEAL:  # a chance step: each card that can come, its id the card
        return distinct(state.stock)
    if step == REFILL:  # draw stock (or the reshuffle), then each pile with a face-up card
        piles = state.piles
        ids = [STOCK] if state.stock or can_reshuffle(state.cfg, piles) else []
        ids.extend(number for number, pile in enumerate(piles, 1) if pile)  # a draw's id: its pile
        return ids
    if step == OVER:
        return []
    hand = state.hands[state.player - 1]
    actions = lay_actions(state.cfg, state.melds[state.player - 1], hand)
    found: list[Any] = list(map(_IDS.get, actions))  # one C-level pass over the known ids
    if None in found:  # an action not met yet, or an add of jokers alone
        for at, number in enumerate(found):
            if number is None:
                action = actions[at]
                found[at] = number = action_id(state, action)
                if action[0] != ADD or action[2] != JOKER:  # sorted: a natural comes first
                    _IDS[action] = number
    if owes_discard(state):  # K4.3: each card held once, onto each pile
        for card in dict.fromkeys(hand):
            base = 5 + 4 * card
            found.extend(range(base, base + state.cfg.piles))
    else:
        found.append(END_ID)
    return found


def observer(players: int, options: BaseModel) -> Observer:
    return observe


def action_ids(players: int, options: BaseModel) -> int:
    """1692 ids, whatever the configuration."""
    return IDS


def observation_shape(players: int, options: BaseModel) -> tuple[int, ...]:
    return (SIZE,)


def id_lister(players: int, options: BaseModel) -> IdLister:
    return legal_ids

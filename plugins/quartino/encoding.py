"""Quartino's action ids and observation vector (for learning frameworks, tabletop.bridges).

Action ids (229 for every player count and option):

- ``0-35`` place a pawn: ``9 * colour + field`` (colours ``Y B G P`` = 0-3, fields
  ``c r0 … r7`` = 0-8, N4.2);
- ``36-227`` claim: ``36 + 8 * card + k`` (cards in the order of ``cards.json``, rotation
  k = 0-7, N4.3);
- ``228`` end the turn.

At a chance step (the deal and the lot, N2) the ids are the chance outcomes' own, as
OpenSpiel numbers chance outcomes apart from the players' actions: ``deal <card>`` is the
card's number (0-23, the order of ``cards.json``), ``lot <p>`` is ``p - 1``.

The observation is read from the player's view (N7), so it holds the own stand but never
another's; 217 numbers, laid out in :data:`LAYOUT` order: per field the pawns of each
colour and the top pawn's colour; the supply; the own stand (24 cards); the completed
cards of each of up to 4 players; each player's stand size; the player to act, the
observing player and the winner (one-hot over 4 seats); placements owed and their batch;
turns left before the N5.2 draw; the options ``situations`` and ``mirror``.

The fast path (the encoding's ``observer``) is :func:`observer`: the compiled twin
``_observe.c`` (``tabletop_quartino._observe``, an optional extension of setup.py) where
it is built, else :func:`observe` in Python; both write exactly :func:`observation`'s
numbers (tests/test_quartino_observe_c.py, and the kit).
"""

from __future__ import annotations

import importlib
from array import array
from collections.abc import MutableSequence
from typing import Any

from pydantic import BaseModel

from tabletop.game import IdLister, Observer, observation_layout

from .cards import COLOURS, FIELDS, RING, deck
from .rules import (
    CLAIM,
    CLAIMS,
    DEAL,
    DEALS,
    END_TURN,
    LOT,
    LOTS,
    NCOLOURS,
    NFIELDS,
    PLACE,
    PLACES,
    Action,
    State,
    claim,
    dealing,
    legal,
    place,
)

SEATS = 4  # the most players (the vector has the same shape for 2-4)
CARDS = 24
PLACE_IDS = NCOLOURS * NFIELDS
END_ID = PLACE_IDS + CARDS * RING
IDS = END_ID + 1

LAYOUT = (
    ("counts", NFIELDS * NCOLOURS),
    ("tops", NFIELDS * NCOLOURS),
    ("supply", NCOLOURS),
    ("stand", CARDS),
    ("done", SEATS * CARDS),
    ("stand_size", SEATS),
    ("to_act", SEATS),
    ("me", SEATS),
    ("winner", SEATS),
    ("owed", 2),
    ("turns_left", 1),
    ("options", 2),
)
OFFSET, SIZE = observation_layout(LAYOUT)


def id_of(action: Action) -> int:
    """The id of an action (see the module docstring)."""
    if action.kind == PLACE:
        return NFIELDS * action.a + action.b
    if action.kind == CLAIM:
        return PLACE_IDS + RING * action.a + action.b
    if action.kind == DEAL:  # a chance outcome: its own numbering (the module docstring)
        return action.a
    if action.kind == LOT:
        return action.a - 1
    return END_ID


def action_named(action_id: int) -> Action:
    """The action of an id; ValueError outside ``0-228``."""
    if not 0 <= action_id < IDS:
        raise ValueError(f"Quartino action ids are 0-{IDS - 1}, not {action_id}")
    if action_id < PLACE_IDS:
        return place(*divmod(action_id, NFIELDS))
    if action_id < END_ID:
        return claim(*divmod(action_id - PLACE_IDS, RING))
    return END_TURN


_COLOUR = {letter: i for i, letter in enumerate(COLOURS)}
_COUNTS, _TOPS, _SUPPLY = OFFSET["counts"], OFFSET["tops"], OFFSET["supply"]
_STAND, _DONE, _SIZES = OFFSET["stand"], OFFSET["done"], OFFSET["stand_size"]
_OWED, _LEFT = OFFSET["owed"], OFFSET["turns_left"]
_SEATS = ((OFFSET["to_act"], "to_act"), (OFFSET["winner"], "winner"))
_FIELDS = tuple(enumerate(FIELDS))


def observation(
    view: dict[str, Any], player: int, players: int, options: BaseModel
) -> list[float]:
    """The view as :data:`SIZE` numbers (see the module docstring). The hot path of the
    bridges: every index is computed once, at import."""
    out = [0.0] * SIZE
    colour = _COLOUR
    card = deck().index
    board = view["board"]
    for f, name in _FIELDS:
        stack = board.get(name)
        if stack:
            at = NCOLOURS * f
            for letter in stack:
                out[_COUNTS + at + colour[letter]] += 1.0
            out[_TOPS + at + colour[stack[-1]]] = 1.0
    for letter, count in view["supply"].items():
        out[_SUPPLY + colour[letter]] = float(count)
    for code in view.get("stand", ()):
        out[_STAND + card[code]] = 1.0
    for seat, cards in view["done"].items():
        base = _DONE + CARDS * (int(seat) - 1)
        for code in cards:
            out[base + card[code]] = 1.0
    for seat, size in view["stand_size"].items():
        out[_SIZES + int(seat) - 1] = float(size)
    for at, key in _SEATS:
        seat = view[key]
        if seat and seat > 0:  # to_act -1: a chance step (the deal, N2), no one's turn
            out[at + seat - 1] = 1.0
    out[OFFSET["me"] + player - 1] = 1.0
    out[_OWED] = float(view["owed"])
    out[_OWED + 1] = float(view["batch"])
    out[_LEFT] = float(view["max_turns"] - view["turns"])
    out[OFFSET["options"]] = float(view["situations"])
    out[OFFSET["options"] + 1] = float(view["mirror"])
    return out


_ME, _OPTIONS = OFFSET["me"], OFFSET["options"]
_TO_ACT, _WINNER = OFFSET["to_act"], OFFSET["winner"]
_ID = {action: id_of(action) for action in (*PLACES, *CLAIMS, END_TURN, *DEALS, *LOTS[1:])}


_BOARD_END = _SUPPLY + NCOLOURS  # counts, tops and supply: the first 76 numbers
_DONE_END = _DONE + SEATS * CARDS
_NO_COLOURS = array("f", bytes(4 * NCOLOURS))
# The last board and the last completed cards seen, with their numbers, each one tuple
# (replaced whole, so a reader never mixes two): a placement changes the board, a claim
# the completed cards, so most steps find one or both unchanged.
_NO_BOARD = ((None,) * NFIELDS, None, array("f", bytes(4 * _BOARD_END)))  # all to write
_LAST_BOARD: list[tuple[Any, Any, array[float]]] = [_NO_BOARD]
_LAST_DONE: list[tuple[Any, array[float]]] = [((), array("f"))]


_STACKS: dict[tuple[int, ...], tuple[array[float], int]] = {}  # a stack: counts, top


def _stack(stack: tuple[int, ...]) -> tuple[array[float], int]:
    """A field's pawns counted per colour, and the top pawn's colour, cached: a field of
    4 or more is emptied (N3.3), so few stacks occur, but a bound all the same (the
    learning variant never empties one)."""
    counts = array("f", bytes(4 * NCOLOURS))
    for c in stack:
        counts[c] += 1.0
    found = (counts, stack[-1])
    if len(_STACKS) < 50_000:
        _STACKS[stack] = found
    return found


def _board_numbers(
    board: Any, supply: Any, last: tuple[Any, Any, array[float]] = _NO_BOARD
) -> tuple[Any, Any, array[float]]:
    """The numbers of ``board`` and ``supply`` (with them, as ``_LAST_BOARD`` keeps them),
    from a copy of ``last``'s: only the fields whose stack is another object are written
    again (a step replaces one stack, or a claim's few, and keeps the others)."""
    before, had, numbers = last
    numbers = numbers[:]
    stacks = _STACKS
    at = 0
    for stack, old in zip(board, before, strict=True):
        if stack is not old:
            numbers[_TOPS + at : _TOPS + at + NCOLOURS] = _NO_COLOURS
            if stack:
                counts, top = stacks.get(stack) or _stack(stack)
                numbers[_COUNTS + at : _COUNTS + at + NCOLOURS] = counts
                numbers[_TOPS + at + top] = 1.0
            else:
                numbers[_COUNTS + at : _COUNTS + at + NCOLOURS] = _NO_COLOURS
        at += NCOLOURS
    if supply is not had:
        numbers[_SUPPLY:_BOARD_END] = array("f", supply)
    return board, supply, numbers


def _done_numbers(done: Any) -> array[float]:
    numbers = array("f", bytes(4 * SEATS * CARDS))
    base = 0
    for cards in done:
        for card in cards:
            numbers[base + card] = 1.0
        base += CARDS
    return numbers


def observe(state: State, player: int, out: MutableSequence[float]) -> None:
    """The fast path of :func:`observation` (:meth:`tabletop.game.Game.observer`): the
    same numbers written from the state into ``out`` (zeros), no view built; the board's
    and the completed cards' numbers are kept from the last call while those tuples stay
    the same objects. Of the stands it reads only ``player``'s own cards and every
    stand's size, as the view shows them (N7); the kit checks both paths agree, on
    resampled states too."""
    board, supply, done = state.board, state.supply, state.done
    last = _LAST_BOARD[0]
    if last[0] is not board or last[1] is not supply:
        last = _LAST_BOARD[0] = _board_numbers(board, supply, last)
    out[0:_BOARD_END] = last[2]
    seen = _LAST_DONE[0]
    if seen[0] is not done:
        seen = _LAST_DONE[0] = (done, _done_numbers(done))
    out[_DONE:_DONE_END] = seen[1]
    for card in state.stands[player - 1]:
        out[_STAND + card] = 1.0
    at = _SIZES
    for stand in state.stands:
        out[at] = len(stand)
        at += 1
    if state.to_act > 0:  # no one at a chance step (the deal, N2)
        out[_TO_ACT + state.to_act - 1] = 1.0
    if state.winner:
        out[_WINNER + state.winner - 1] = 1.0
    out[_ME + player - 1] = 1.0
    out[_OWED] = state.owed
    out[_OWED + 1] = state.batch
    cfg = state.cfg
    out[_LEFT] = cfg.max_turns - state.turns
    out[_OPTIONS] = cfg.situations
    out[_OPTIONS + 1] = cfg.mirror


def observer(players: int, options: BaseModel) -> Observer:
    """The observation's fastest path (:meth:`tabletop.game.Game.observer`): the compiled
    twin of :func:`observe` (``tabletop_quartino._observe``, built from ``_observe.c`` by
    ``pip install -e .`` where a C compiler is present) itself, no Python call between,
    or :func:`observe` when it is not built or was built for another :data:`LAYOUT`."""
    try:
        compiled = importlib.import_module("tabletop_quartino._observe")
    except ImportError:
        return observe
    if (*(OFFSET[name] for name, _ in LAYOUT), SIZE) != compiled.OFFSETS:
        return observe
    if getattr(compiled, "CHANCE_STEPS", 0) != 1:  # built before the deal's chance steps
        return observe
    fast: Observer = compiled.observe
    return fast


# The ids of each legal tuple met: ``rules.legal`` hands out tuples it keeps (by supply
# colours, by stand), so one entry per such tuple, found by identity and kept with it.
_IDS_OF: dict[int, tuple[tuple[Action, ...], list[int]]] = {}


def legal_ids(state: State) -> list[int]:
    """The ids of ``rules.legal(state)`` in its order (a new list each call): looked up
    once per legal tuple, then copied."""
    found = legal(state)
    if state.to_act < 0:  # the deal (N2): the chance outcomes' own ids, tuples not kept
        return list(map(_ID.__getitem__, found))
    entry = _IDS_OF.get(id(found))
    if entry is None or entry[0] is not found:
        entry = (found, list(map(_ID.__getitem__, found)))
        if len(_IDS_OF) < 100_000:  # rules.legal's tuples are few; a bound all the same
            _IDS_OF[id(found)] = entry
    return entry[1][:]


def action_id(state: State, action: Action) -> int:
    """The id of ``action``, a table look-up (the bridges call it for each legal action)."""
    return _ID[action]


def action_of(state: State, action_id: int) -> Action:
    """The action of an id; ValueError outside ``0-228`` (at a chance step: outside the
    cards ``0-23``, or the players ``0``-``players - 1`` of the lot)."""
    if state.to_act < 0:
        top = len(DEALS) if dealing(state) else len(state.stands)
        if not 0 <= action_id < top:
            raise ValueError(f"Quartino chance outcome ids are 0-{top - 1}, not {action_id}")
        return DEALS[action_id] if dealing(state) else LOTS[action_id + 1]
    return action_named(action_id)


def action_ids(players: int, options: BaseModel) -> int:
    """229 ids, whatever the configuration."""
    return IDS


def observation_shape(players: int, options: BaseModel) -> tuple[int, ...]:
    return (SIZE,)


def id_lister(players: int, options: BaseModel) -> IdLister:
    return legal_ids

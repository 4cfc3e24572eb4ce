"""Quarto's action ids and observation vector (for learning frameworks, tabletop.bridges).

Action ids are the rules' own action ints, which already name one thing each in every
state: ``0-15`` give that piece, ``16-31`` place on square ``id - 16`` (``a1`` = 16,
``d4`` = 31), ``32`` claim (``quarto``, Q5.2) and ``33`` ``done`` (Q5.4); the last two
exist with ``claim=manual`` only, so there are 32 ids with ``claim=auto`` and 34 with it.

The observation is read from the view (the position JSON, Q1.3: nothing is hidden) as
numbers (318), each 0 or 1: the board (16 squares × 16 pieces), the piece in hand (16), the
pool (16), the last placed square (16), the phase (5), the player to act (2) and the
observing player (2), then 5 for the variant: whether the 2×2 blocks win (Q4.4) and
whether colour, height, shape and top count (Q4.5), so that one network can learn them all.
"""

from __future__ import annotations

import functools
import importlib
from array import array
from collections.abc import Callable, MutableSequence, Sequence
from types import ModuleType
from typing import Any

from pydantic import BaseModel

from tabletop_quarto.pieces import ATTRIBUTES, PIECE_BY_CODE, SQUARE_BY_NAME
from tabletop_quarto.rules import PHASE_NAMES, QUARTO, QuartoOptions, State, legal

BOARD, HAND, POOL, LAST, PHASE, TO_ACT, ME = 0, 256, 272, 288, 304, 309, 311
VARIANT = 313  # 1 + 4: squares counted, then each attribute counted
SIZE = VARIANT + 1 + len(ATTRIBUTES)
# the blocks in order, as (name, size): what the bridges expose as observation_layout
LAYOUT = (
    ("board", HAND - BOARD),
    ("hand", POOL - HAND),
    ("pool", LAST - POOL),
    ("last_placed", PHASE - LAST),
    ("phase", TO_ACT - PHASE),
    ("to_act", ME - TO_ACT),
    ("me", VARIANT - ME),
    ("variant", SIZE - VARIANT),
)


def action_ids(players: int, options: BaseModel) -> int:
    """32 ids with ``claim=auto``, 34 with ``claim=manual`` (``quarto`` and ``done``)."""
    assert isinstance(options, QuartoOptions)
    return QUARTO + 2 if options.claim == "manual" else QUARTO


def action_id(state: State, action: int) -> int:
    """The action ints are the ids."""
    return action


def action_of(state: State, action_id: int) -> int:
    """The action ints are the ids."""
    return action_id


def observation_shape(players: int, options: BaseModel) -> tuple[int, ...]:
    return (SIZE,)


def id_lister(players: int, options: BaseModel) -> Callable[[State], Sequence[int]]:
    """The legal actions are their own ids."""
    return legal


_PHASE = {name: PHASE + i for i, name in enumerate(PHASE_NAMES)}
_BOARD = {  # (square, piece code): its index, for every square and piece
    (square, code): BOARD + 16 * s + p
    for square, s in SQUARE_BY_NAME.items()
    for code, p in PIECE_BY_CODE.items()
}


@functools.lru_cache(maxsize=64)
def _variant(options: QuartoOptions) -> tuple[float, ...]:
    """The variant's numbers: the 2x2 blocks (Q4.4), then each attribute counted (Q4.5)."""
    return (float(options.squares), *(float(name in options.attributes) for name in ATTRIBUTES))


def observation(view: dict[str, Any], player: int, players: int, options: BaseModel) -> list[float]:
    """The view as :data:`SIZE` numbers (see the module docstring for the layout); every
    index is looked up, none computed (the bridges' hot path)."""
    assert isinstance(options, QuartoOptions)
    out = [0.0] * VARIANT
    board = _BOARD
    for item in view["board"].items():
        out[board[item]] = 1.0
    piece = PIECE_BY_CODE
    if view["in_hand"] is not None:
        out[HAND + piece[view["in_hand"]]] = 1.0
    for code in view["pool"]:
        out[POOL + piece[code]] = 1.0
    if view["last_placed"] is not None:
        out[LAST + SQUARE_BY_NAME[view["last_placed"]]] = 1.0
    out[_PHASE[view["phase"]]] = 1.0
    if view["to_act"] in (1, 2):
        out[TO_ACT + view["to_act"] - 1] = 1.0
    out[ME + player - 1] = 1.0
    out += _variant(options)
    return out


_HALVES = tuple(array("f", [float(byte >> i & 1) for i in range(8)]) for byte in range(256))
_SQUARES = tuple(  # for the squares 0-7 and 8-15 occupied (a byte): (index, shift) each
    tuple(
        tuple((BOARD + 16 * s, 8 * s) for s in range(high, high + 8) if byte >> (s - high) & 1)
        for byte in range(256)
    )
    for high in (0, 8)
)


def _compiled() -> ModuleType | None:
    """``tabletop_quarto._observe`` where it is built, else None (the Python observer)."""
    try:
        return importlib.import_module("tabletop_quarto._observe")
    except ImportError:
        return None


def observer(
    players: int, options: BaseModel
) -> Callable[[State, int, MutableSequence[float]], None]:
    """The fast path of :func:`observation` (the encoding's ``observer``): the same
    numbers written from the state's ints into ``out`` (zeros), no view built: the pool a
    byte at a time and the phase, seats and variant (the last 14 numbers) copied from
    tables made here. Where ``tabletop_quarto._observe`` is built (``_observe.c``, an
    optional extension: setup.py) its twin in C is returned instead (0.5 us an
    observation, against 1.5 us). Nothing is hidden in Quarto (Q1.3), so the state is
    the view; the kit checks that the paths agree."""
    variant = _variant(options)
    over = PHASE_NAMES.index("over")
    tails = []  # by 9 * phase + 3 * to_act (0 once over) + player
    for phase in range(len(PHASE_NAMES)):
        for acting in range(3):
            for player in range(3):
                tail = [0.0] * (SIZE - PHASE)
                tail[phase] = 1.0
                if acting and phase != over:
                    tail[TO_ACT - PHASE + acting - 1] = 1.0
                if player:
                    tail[ME - PHASE + player - 1] = 1.0
                tail[VARIANT - PHASE :] = variant
                tails.append(array("f", tail))
    compiled = _compiled()
    if compiled is not None:
        return compiled.bind(b"".join(tail.tobytes() for tail in tails))  # type: ignore[no-any-return]
    (low, high), halves = _SQUARES, _HALVES
    middle = POOL + 8

    def observe(state: State, player: int, out: MutableSequence[float]) -> None:
        board, occupied, pool, hand, acting, phase, last, _ = state
        for at, shift in low[occupied & 255]:
            out[at + (board >> shift & 15)] = 1.0
        for at, shift in high[occupied >> 8]:
            out[at + (board >> shift & 15)] = 1.0
        if hand >= 0:
            out[HAND + hand] = 1.0
        out[POOL:middle] = halves[pool & 255]
        out[middle:LAST] = halves[pool >> 8]
        if last >= 0:
            out[LAST + last] = 1.0
        out[PHASE:] = tails[9 * phase + 3 * acting + player]

    return observe

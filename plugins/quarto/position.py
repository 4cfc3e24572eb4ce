"""Quarto's position JSON (Q8): writing it, and reading it with every impossibility named."""

from __future__ import annotations

from typing import Any

from tabletop.game import NotationError, PositionError
from tabletop_quarto.notation import parse_piece, parse_square
from tabletop_quarto.pieces import CODES, SQUARE_NAMES, encode
from tabletop_quarto.rules import (
    ANSWER,
    GIVE,
    LAST_CLAIM,
    OVER,
    PHASE_NAMES,
    PLACE,
    Rules,
    State,
    piece_at,
    wins_through,
)

KEYS = {"board", "in_hand", "to_act", "last_placed", "pool", "phase", "winners"}


def to_json(state: State) -> dict[str, Any]:
    """The position JSON: the four keys of Q8 plus ``pool``, ``phase`` and ``winners``."""
    over = state.phase == OVER
    return {
        "board": {
            SQUARE_NAMES[s]: CODES[piece_at(state, s)] for s in range(16) if state.occupied >> s & 1
        },
        "in_hand": CODES[state.hand] if state.hand >= 0 else None,
        "to_act": None if over else state.player,
        "last_placed": SQUARE_NAMES[state.last] if state.last >= 0 else None,
        "pool": [CODES[p] for p in range(16) if state.pool >> p & 1],
        "phase": PHASE_NAMES[state.phase],
        "winners": [state.player] if over and state.player else [],
    }


def _fail(message: str) -> PositionError:
    return PositionError(f"impossible Quarto position: {message}")


def _piece(value: Any, where: str) -> int:
    if isinstance(value, int) and not isinstance(value, bool):
        value = str(value)
    if not isinstance(value, str):
        raise _fail(f"{where}: {value!r} is not a piece code")
    try:
        return parse_piece(value)
    except NotationError as exc:
        raise _fail(f"{where}: {exc}") from None


def from_json(data: dict[str, Any], rules: Rules) -> State:
    """The state for a position JSON; PositionError names what cannot arise."""
    if not isinstance(data, dict):
        raise _fail("the position must be a JSON object")
    unknown = set(data) - KEYS
    if unknown:
        raise _fail(
            f"unknown key(s) {', '.join(sorted(unknown))}; keys are {', '.join(sorted(KEYS))}"
        )
    board_in = data.get("board", {})
    if not isinstance(board_in, dict):
        raise _fail('\'board\' must map squares to pieces, e.g. {"b2": "DTRH"}')
    board = occupied = 0
    seen: dict[int, str] = {}
    for name, code in board_in.items():
        try:
            square = parse_square(str(name))
        except NotationError as exc:
            raise _fail(f"board: {exc}") from None
        piece = _piece(code, f"board {name}")
        if piece in seen:
            raise _fail(f"piece {CODES[piece]} is on both {seen[piece]} and {name} (Q1.2)")
        if occupied >> square & 1:
            raise _fail(f"square {name} is given twice")
        seen[piece] = str(name)
        board |= encode(piece) << (8 * square)
        occupied |= 1 << square
    hand_in = data.get("in_hand")
    hand = -1 if hand_in is None else _piece(hand_in, "in_hand")
    if hand >= 0 and occupied == 0xFFFF:
        raise _fail("17 pieces: the board is full and a piece is in hand (Q1.2)")
    if hand >= 0 and hand in seen:
        raise _fail(f"the piece in hand {CODES[hand]} is also on {seen[hand]} (Q1.2)")
    pool = 0xFFFF & ~sum(1 << p for p in seen)
    if hand >= 0:
        pool &= ~(1 << hand)
    last_in = data.get("last_placed")
    last = -1
    if last_in is not None:
        try:
            last = parse_square(str(last_in))
        except NotationError as exc:
            raise _fail(f"last_placed: {exc}") from None
        if not occupied >> last & 1:
            raise _fail(f"last_placed {last_in} is an empty square")
    phase = _phase(data, hand, occupied, rules)
    to_act = data.get("to_act")
    if phase == OVER:
        winners = data.get("winners") or []
        if (
            not isinstance(winners, list)
            or len(winners) > 1
            or any(w not in (1, 2) for w in winners)
        ):
            raise _fail("'winners' must be [], [1] or [2]")
        return State(board, occupied, pool, hand, winners[0] if winners else 0, OVER, last, rules)
    if to_act not in (1, 2):
        raise _fail(f"'to_act' must be 1 or 2 while the game goes on, not {to_act!r} (Q2.4)")
    state = State(board, occupied, pool, hand, to_act, phase, last, rules)
    if not rules.manual:
        for square in range(16):
            if occupied >> square & 1 and wins_through(board, occupied, square, rules):
                raise _fail(
                    f"a winning pattern through {SQUARE_NAMES[square]} is already on the board; "
                    "with claim=auto the game would have ended (Q5.1)"
                )
    return state


def _phase(data: dict[str, Any], hand: int, occupied: int, rules: Rules) -> int:
    named = data.get("phase")
    if named is None:
        if hand >= 0:
            return PLACE
        if occupied == 0xFFFF:
            return LAST_CLAIM if rules.manual else OVER
        return GIVE
    if named not in PHASE_NAMES:
        raise _fail(f"unknown phase {named!r}; phases are {', '.join(PHASE_NAMES)}")
    phase = PHASE_NAMES.index(named)
    if phase != OVER and (phase == PLACE) != (hand >= 0):
        raise _fail("a piece is in hand exactly when it is to be placed (Q3.3)")
    if phase in (LAST_CLAIM, ANSWER) and (occupied != 0xFFFF or not rules.manual):
        raise _fail(f"phase {named!r} only follows the 16th placement with claim=manual (Q5.4)")
    if phase == GIVE and occupied == 0xFFFF:
        raise _fail("no piece is left to give: the board is full (Q5.4)")
    return phase

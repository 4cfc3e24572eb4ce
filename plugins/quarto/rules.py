"""Quarto's rules as pure functions over an immutable int state (Q3-Q6).

Actions are ints: ``0-15`` give that piece, ``16-31`` place on square ``a - 16``,
``QUARTO`` claims (Q5.2), ``DONE`` ends the game after the 16th placement (Q5.4).
"""

from __future__ import annotations

from typing import NamedTuple

from tabletop_quarto.pieces import attribute_mask, encode, patterns

PLACE_BASE = 16
QUARTO = 32
DONE = 33

GIVE, PLACE, LAST_CLAIM, ANSWER, OVER = range(5)
PHASE_NAMES = ("give", "place", "claim", "answer", "over")

FULL = 0xFFFF


class Rules(NamedTuple):
    """The variant in force: patterns through each square, counted values, claim mode."""

    # For each square: (mask, shift, shift, shift, shift) of every pattern through it.
    through: tuple[tuple[tuple[int, int, int, int, int], ...], ...]
    attr8: int
    manual: bool
    patterns: tuple[tuple[int, ...], ...]


def make_rules(squares: bool, counted: frozenset[str], manual: bool) -> Rules:
    """Precompute the variant's pattern tables (Q4.1, Q4.4, Q4.5, Q5)."""
    table: list[list[tuple[int, int, int, int, int]]] = [[] for _ in range(16)]
    chosen = patterns(squares)
    for pattern in chosen:
        mask = sum(1 << s for s in pattern)
        a, b, c, d = (8 * s for s in pattern)
        for s in pattern:
            table[s].append((mask, a, b, c, d))
    return Rules(tuple(tuple(t) for t in table), attribute_mask(counted), manual, chosen)


class State(NamedTuple):
    """A Quarto position. ``board`` holds one byte per square (see ``pieces.encode``)."""

    board: int
    occupied: int  # bit per occupied square
    pool: int  # bit per piece still to be given
    hand: int  # the piece to place, or -1
    player: int  # 1 or 2: who acts (the winner, or 0 for a draw, once over)
    phase: int
    last: int  # square of the latest placement, or -1
    rules: Rules


def initial(rules: Rules) -> State:
    """Empty board, all 16 pieces in the pool, player 1 gives (Q3.1, Q3.2)."""
    return State(0, 0, FULL, -1, 1, GIVE, -1, rules)


def piece_at(state: State, square: int) -> int:
    """The piece on ``square`` (the square must be occupied)."""
    return (state.board >> (8 * square)) & 15


def wins_through(board: int, occupied: int, square: int, rules: Rules) -> bool:
    """True when a complete pattern through ``square`` shares a counted value (Q4.2)."""
    attr8 = rules.attr8
    for mask, a, b, c, d in rules.through[square]:
        if (
            occupied & mask == mask
            and (board >> a) & (board >> b) & (board >> c) & (board >> d) & attr8
        ):
            return True
    return False


def claim_is_true(state: State) -> bool:
    """Whether a ``quarto`` now would win: a pattern through the last placement (Q5.2/Q5.3)."""
    return state.last >= 0 and wins_through(state.board, state.occupied, state.last, state.rules)


def claim_moment(state: State) -> bool:
    """Whether a claim may be made now, true or not (Q5.5: listing reveals nothing)."""
    return state.rules.manual and state.last >= 0 and state.phase != OVER


_GIVES: dict[int, tuple[int, ...]] = {}
_PLACES: dict[int, tuple[int, ...]] = {}


def gives(pool: int) -> tuple[int, ...]:
    """Give actions for the pieces in ``pool``."""
    try:
        return _GIVES[pool]
    except KeyError:
        acts = _GIVES[pool] = tuple(p for p in range(16) if pool >> p & 1)
        return acts


def places(occupied: int) -> tuple[int, ...]:
    """Place actions for the empty squares."""
    try:
        return _PLACES[occupied]
    except KeyError:
        acts = _PLACES[occupied] = tuple(PLACE_BASE + s for s in range(16) if not occupied >> s & 1)
        return acts


def legal(state: State) -> tuple[int, ...]:
    """Every action ``apply`` accepts; a false claim is not among them (Q5.5)."""
    phase = state.phase
    if phase == PLACE:
        acts = places(state.occupied)
    elif phase == GIVE:
        acts = gives(state.pool)
    elif phase == OVER:
        return ()
    else:
        acts = (DONE,)
    if state.rules.manual and state.last >= 0 and claim_is_true(state):
        return (QUARTO, *acts)
    return acts


def listing(state: State) -> tuple[int, ...]:
    """Legal actions plus ``quarto`` whenever a claim may be made, true or not (Q5.5)."""
    acts = legal(state)
    if claim_moment(state) and QUARTO not in acts:
        return (QUARTO, *acts)
    return acts


def apply(state: State, action: int) -> State:
    """The state after a legal ``action``; ``state`` is not changed."""
    board, occupied, pool, hand, player, phase, last, rules = state
    if action >= PLACE_BASE:
        if action < QUARTO:  # Q3.3 place the piece in hand
            square = action - PLACE_BASE
            board |= (hand | ((~hand & 15) << 4)) << (8 * square)
            occupied |= 1 << square
            if rules.manual:  # Q5.2: only a claim wins; Q5.4 after the 16th placement
                return State(
                    board, occupied, pool, -1, player, GIVE if pool else LAST_CLAIM, square, rules
                )
            if wins_through(board, occupied, square, rules):  # Q5.1
                return State(board, occupied, pool, -1, player, OVER, square, rules)
            if not pool:  # Q6.1: all 16 placed, no win
                return State(board, occupied, 0, -1, 0, OVER, square, rules)
            return State(board, occupied, pool, -1, player, GIVE, square, rules)
        if action == QUARTO:  # Q5.2/Q5.3: a true claim wins for the claimant
            return State(board, occupied, pool, hand, player, OVER, last, rules)
        if phase == LAST_CLAIM:  # Q5.4: done; the opponent may still claim
            return State(board, occupied, pool, hand, 3 - player, ANSWER, last, rules)
        return State(board, occupied, pool, hand, 0, OVER, last, rules)  # both done: draw
    # Q3.2 give a piece from the pool to the opponent
    return State(board, occupied, pool & ~(1 << action), action, 3 - player, PLACE, last, rules)


__all__ = ["DONE", "GIVE", "OVER", "PLACE", "QUARTO", "Rules", "State", "encode", "make_rules"]

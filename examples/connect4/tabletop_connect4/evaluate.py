"""How good a position looks, for the generic agents (``greedy``, and search cut-offs).

Open-line counting: every line of ``connect`` cells that holds discs of one player only is
worth more the fuller it is; a cell that would complete a line (a threat) is worth most.
Immediate tactics come first: the player to act wins if they have a playable threat, and
loses if the other player has two they cannot both block.
"""

from __future__ import annotations

import math

from tabletop_connect4.board import State, playable, threats

WIN_NEXT = 0.98  # the player to act completes a line now
DOUBLE_THREAT = 0.04  # the player to act faces two playable threats
SCALE = 24.0  # how many points make a position clearly better


def evaluate(state: State, player: int) -> float:
    """From 0 (lost) to 1 (won) for ``player``; 0.5 is even."""
    geo = state.geo
    if state.winner:
        return 1.0 if state.winner == player else 0.0
    if state.moves == geo.cells:
        return 0.5
    mine, theirs = (state.x, state.o) if player == 1 else (state.o, state.x)
    my_threats, their_threats = threats(mine, theirs, geo), threats(theirs, mine, geo)
    next_cells = playable(state)
    mover_is_me = (state.moves & 1) == player - 1
    mover_threats, other_threats = (
        (my_threats, their_threats) if mover_is_me else (their_threats, my_threats)
    )
    mover_value: float | None = None
    if mover_threats & next_cells:
        mover_value = WIN_NEXT
    elif (other_threats & next_cells).bit_count() >= 2:
        mover_value = DOUBLE_THREAT
    if mover_value is not None:
        return mover_value if mover_is_me else 1.0 - mover_value
    score = 8.0 * (my_threats.bit_count() - their_threats.bit_count())
    need = geo.connect
    for window in geo.windows:
        a, b = window & mine, window & theirs
        if a and not b:
            n = a.bit_count()
            score += 4.0 if n == need - 1 else 1.0 + (n > 1)
        elif b and not a:
            n = b.bit_count()
            score -= 4.0 if n == need - 1 else 1.0 + (n > 1)
    value = 1.0 / (1.0 + math.exp(-score / SCALE))
    return min(0.9, max(0.1, value))

"""Connect Four's agents: the evaluation, the levels 3-5 searching with it, and the hint.

**Evaluation** (``evaluate``, for the generic agents: ``greedy``, and search cut-offs).
Open-line counting: every line of ``connect`` cells that holds discs of one player only is
worth more the fuller it is; a cell that would complete a line (a threat) is worth most.
Immediate tactics come first: the player to act wins if they have a playable threat, and
loses if the other player has two they cannot both block.

**Levels 3-5**: tabletop's generic tree search, scoring leaves with ``evaluate``.
The generic levels 3-5 finish every playout with random drops; in Connect Four random
play is so far from real play that they lose to level 2 (greedy with the evaluation).
The same search stopping at the new leaf and asking the evaluation instead
(``playout_limit=0``) beats greedy clearly; these levels replace the generic ones.

The exploration constant is lowered to ``EXPLORATION`` (the generic search's is 0.7, set
for rewards of 0 and 1): an evaluation lies between 0.1 and 0.9 and moves differ by a few
hundredths, so at 0.7 the search spreads its playouts almost evenly, and 1000 of them
played no better than 200 (level 4 won 51% of the decided games against level 3).

**Hint** (``hint``): wins, blocks and drops that hand the opponent a win.
"""

from __future__ import annotations

import math

from tabletop_connect4.rules import MARKS, Geometry, State, apply, legal, playable, threats

from tabletop.agents.base import Budget, Level
from tabletop.agents.search import SearchAgent
from tabletop.game import Domain, and_joined

_ = Domain("tabletop_connect4")

WIN_NEXT = 0.98  # the player to act completes a line now
DOUBLE_THREAT = 0.04  # the player to act faces two playable threats
SCALE = 24.0  # how many points make a position clearly better
EXPLORATION = 0.3


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


def leaf_search() -> SearchAgent:
    """MCTS whose playouts stop at once: the leaf is scored by ``ConnectFourGame.evaluate``."""
    return SearchAgent(exploration=EXPLORATION, playout_limit=0)


LEVELS = {
    name: Level(
        name,
        _("MCTS with the open-line evaluation at the leaves, {n} playouts a move (≤ 2 s)", n=n),
        leaf_search,
        Budget(iterations=n, seconds=2.0),
    )
    for name, n in (("3", 200), ("4", 1000), ("5", 4000))
}


def _columns(cells: int, geo: Geometry) -> list[int]:
    """Column numbers (from 1) of the cells of a board."""
    return sorted({c + 1 for c in range(geo.columns) if cells & geo.column_masks[c]})


def hint(state: State, player: int) -> str:
    """Advice for ``player`` to act in ``state`` (built from their view)."""
    geo = state.geo
    if not legal(state):
        return _("the game is over")
    mine, theirs = (state.x, state.o) if player == 1 else (state.o, state.x)
    other = MARKS[3 - player]
    next_cells = playable(state)
    wins = _columns(threats(mine, theirs, geo) & next_cells, geo)
    if wins:
        action = f"drop {wins[0]}"  # the notation
        return _(
            "{action} connects {connect} and wins now (C3.1)", action=action, connect=geo.connect
        )
    blocks = _columns(threats(theirs, mine, geo) & next_cells, geo)
    if len(blocks) > 1:
        return _(
            "{mark} threatens to connect in columns {columns}: you can block only one",
            mark=other,
            columns=and_joined(str(c) for c in blocks),
        )
    if blocks:
        return _(
            "{mark} threatens to connect {connect} in column {column}: drop there",
            mark=other,
            connect=geo.connect,
            column=blocks[0],
        )
    unsafe = []
    for column in legal(state):
        after = apply(state, column)
        mine_after, theirs_after = (after.x, after.o) if player == 1 else (after.o, after.x)
        if threats(theirs_after, mine_after, geo) & playable(after):
            unsafe.append(column + 1)
    if unsafe:
        listed = ", ".join(str(c) for c in unsafe)
        return _(
            "no threat now; avoid column {columns}: {mark} would win on top of your disc",
            columns=listed,
            mark=other,
        )
    return _("no threat now: build lines that stay open, the middle columns are worth most")

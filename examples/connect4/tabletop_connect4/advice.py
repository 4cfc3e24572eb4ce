"""The ``hint`` command: wins, blocks and drops that hand the opponent a win."""

from __future__ import annotations

from tabletop_connect4.board import MARKS, Geometry, State, apply, legal, playable, threats


def _columns(cells: int, geo: Geometry) -> list[int]:
    """Column numbers (from 1) of the cells of a board."""
    return sorted({c + 1 for c in range(geo.columns) if cells & geo.column_masks[c]})


def hint(state: State, player: int) -> str:
    """Advice for ``player`` to act in ``state`` (built from their view)."""
    geo = state.geo
    if not legal(state):
        return "the game is over"
    mine, theirs = (state.x, state.o) if player == 1 else (state.o, state.x)
    other = MARKS[3 - player]
    next_cells = playable(state)
    wins = _columns(threats(mine, theirs, geo) & next_cells, geo)
    if wins:
        return f"drop {wins[0]} connects {geo.connect} and wins now (C3.1)"
    blocks = _columns(threats(theirs, mine, geo) & next_cells, geo)
    if len(blocks) > 1:
        listed = " and ".join(str(c) for c in blocks)
        return f"{other} threatens to connect in columns {listed}: you can block only one"
    if blocks:
        return f"{other} threatens to connect {geo.connect} in column {blocks[0]}: drop there"
    unsafe = []
    for column in legal(state):
        after = apply(state, column)
        mine_after, theirs_after = (after.x, after.o) if player == 1 else (after.o, after.x)
        if threats(theirs_after, mine_after, geo) & playable(after):
            unsafe.append(column + 1)
    if unsafe:
        listed = ", ".join(str(c) for c in unsafe)
        return f"no threat now; avoid column {listed}: {other} would win on top of your disc"
    return "no threat now: build lines that stay open, the middle columns are worth most"

"""The position JSON (the rules' own picture of a board) and its strict reading.

``{"board": [...], "to_act": 1}``: ``board`` is the rows from the top down, one string
per row, a character per column: ``X`` (player 1), ``O`` (player 2) or ``.`` (empty).
"""

from __future__ import annotations

import json
from typing import Any

from tabletop.game import JSON, Domain, PositionError, describe

from tabletop_connect4.rules import MARKS, Geometry, State, has_line, to_act, winning_line

KEYS = ("board", "to_act", "connect", "line")  # the last two are the view's extras
EMPTY = "."
_ = Domain("tabletop_connect4")


def board_rows(state: State) -> list[str]:
    """The board as strings, top row first."""
    geo = state.geo
    rows = []
    for r in range(geo.rows - 1, -1, -1):
        line = []
        for c in range(geo.columns):
            bit = geo.bit(c, r)
            line.append("X" if state.x & bit else "O" if state.o & bit else EMPTY)
        rows.append("".join(line))
    return rows


def to_json(state: State) -> JSON:
    """The full position: the board and the player to act (null once the game is over)."""
    return {"board": board_rows(state), "to_act": to_act(state)}


def line_cells(state: State) -> list[list[int]]:
    """The winning line as [column, row] pairs numbered from 1, or [] (for views)."""
    if not state.winner:
        return []
    discs = state.x if state.winner == 1 else state.o
    return [[c + 1, r + 1] for c, r in winning_line(discs, state.geo)]


def from_json(data: Any, geo: Geometry) -> State:
    """The state a position JSON describes; PositionError naming what cannot arise."""
    if not isinstance(data, dict):
        raise PositionError(_("a position is an object with 'board' (rows, top first)"))
    for key in data:
        if key not in KEYS:
            raise PositionError(
                _("unknown key {key} in the position; keys are board, to_act", key=describe(key))
            )
    x, o = _discs(data.get("board"), geo)
    nx, no = x.bit_count(), o.bit_count()
    if nx - no not in (0, 1):
        raise PositionError(
            _.plural(
                "X has {n} disc and O {other}: players alternate and X drops first (C2.1)",
                "X has {n} discs and O {other}: players alternate and X drops first (C2.1)",
                nx,
                other=no,
            )
        )
    winner = _winner(x, o, geo, nx, no)
    state = State(x, o, nx + no, winner, geo)
    due = to_act(state)
    if "to_act" in data and not _exactly(data["to_act"], due):
        raise PositionError(
            _(
                "to_act must be {due} in this position, not {value} (C2.1)",
                due=json.dumps(due),
                value=describe(data["to_act"]),
            )
        )
    if "connect" in data and not _exactly(data["connect"], geo.connect):
        raise PositionError(
            _("connect must be {connect}, the game's option (C6.1)", connect=geo.connect)
        )
    if "line" in data and not _exactly(data["line"], line_cells(state)):
        raise PositionError(
            _("line must be {line}, the line on the board (C3.1)", line=str(line_cells(state)))
        )
    return state


def _exactly(value: Any, expected: Any) -> bool:
    """``value == expected`` with the same JSON types (``true`` and ``1.0`` are not ``1``)."""
    return json.dumps(value) == json.dumps(expected) if _small(value) else False


def _small(value: Any, depth: int = 0) -> bool:
    """A JSON value that can be compared as text: shallow, short, no huge numbers."""
    if isinstance(value, list):
        return depth < 3 and len(value) <= 64 and all(_small(v, depth + 1) for v in value)
    if isinstance(value, int) and not isinstance(value, bool):
        return abs(value) < 10**6
    return value is None or (isinstance(value, bool | float | str) and len(str(value)) < 64)


def _discs(board: Any, geo: Geometry) -> tuple[int, int]:
    """Both players' bitboards from the rows; checks the size, the marks and gravity."""
    if not isinstance(board, list) or len(board) != geo.rows:
        raise PositionError(
            _("board must be a list of {rows} rows, top row first (C1.1)", rows=geo.rows)
        )
    x = o = 0
    for index, row in enumerate(board):
        r = geo.rows - 1 - index
        if not isinstance(row, str) or len(row) != geo.columns:
            raise PositionError(
                _(
                    "row {row} must be a string of {columns} characters X, O or . (C1.1)",
                    row=r + 1,
                    columns=geo.columns,
                )
            )
        for c, char in enumerate(row):
            if char == "X":
                x |= geo.bit(c, r)
            elif char == "O":
                o |= geo.bit(c, r)
            elif char != EMPTY:
                raise PositionError(
                    _(
                        "row {row} column {column}: {char} is not X, O or . (C1.2)",
                        row=r + 1,
                        column=c + 1,
                        char=repr(char),
                    )
                )
    occupied = x | o
    for c in range(geo.columns):
        for r in range(1, geo.rows):
            if occupied & geo.bit(c, r) and not occupied & geo.bit(c, r - 1):
                raise PositionError(
                    _(
                        "column {column}: the disc in row {row} floats above an empty cell (C2.2)",
                        column=c + 1,
                        row=r + 1,
                    )
                )
    return x, o


def _winner(x: int, o: int, geo: Geometry, nx: int, no: int) -> int:
    """The player with a line, checking that one last disc made every line (C3.1)."""
    x_line, o_line = has_line(x, geo), has_line(o, geo)
    if x_line and o_line:
        raise PositionError(_("X and O both have a line: the game ends at the first (C3.1)"))
    if not (x_line or o_line):
        return 0
    player = 1 if x_line else 2
    if (player == 1) != (nx > no):
        raise PositionError(
            _(
                "{mark} has a line, but the other player dropped after it (C3.1)",
                mark=MARKS[player],
            )
        )
    discs = x if player == 1 else o
    occupied = x | o
    for c in range(geo.columns):
        column = occupied & geo.column_masks[c]
        if column:
            top = 1 << (column.bit_length() - 1)
            if discs & top and not has_line(discs & ~top, geo):
                return player
    raise PositionError(
        _(
            "{mark}'s lines were not all made by one last disc: "
            "the game would have ended earlier (C3.1)",
            mark=MARKS[player],
        )
    )

"""Connect Four's action ids and observation vector (for learning frameworks).

The action id is the action itself: the column from 0 (``columns`` ids, C2.2). The
observation reads the view's board (rows from the top, ``X``/``O``/``.``): for every cell,
top row first, whether it holds an ``X``, then the same for ``O``; then the player to act
and the observing player, one-hot over the two seats.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, MutableSequence
from typing import Any

from pydantic import BaseModel

from tabletop_connect4.rules import (
    ConnectFourOptions,
    State,
    config,
    geometry,
    legal,
    to_act,
)


def action_ids(players: int, options: BaseModel) -> int:
    """One id per column (C2.2)."""
    return config(players, options).columns


def action_id(state: State, action: int) -> int:
    """The column is the id."""
    return action


def action_of(state: State, action_id: int) -> int:
    """The column is the id."""
    return action_id


def observation_shape(players: int, options: BaseModel) -> tuple[int, ...]:
    return (size(options),)


def id_lister(players: int, options: BaseModel) -> Callable[[State], list[int]]:
    """The legal columns are their own ids."""

    def ids(state: State) -> list[int]:
        return list(legal(state))

    return ids


def size(options: BaseModel) -> int:
    """The length of the observation: two planes of cells plus 4."""
    assert isinstance(options, ConnectFourOptions)
    return 2 * options.columns * options.rows + 4


def observation(view: dict[str, Any], player: int, players: int, options: BaseModel) -> list[float]:
    """The view as :func:`size` numbers (see the module docstring)."""
    out = [0.0] * size(options)
    cells = len(out) // 2 - 2
    for i, mark in enumerate("".join(view["board"])):
        if mark == "X":
            out[i] = 1.0
        elif mark == "O":
            out[cells + i] = 1.0
    if view["to_act"]:
        out[2 * cells + view["to_act"] - 1] = 1.0
    out[2 * cells + 2 + player - 1] = 1.0
    return out


def observer(
    players: int, options: BaseModel
) -> Callable[[State, int, MutableSequence[float]], None]:
    """The fast path of :func:`observation` (the encoding's ``observer``): the
    same numbers written from the bitboards into ``out`` (zeros), no view built (nothing
    is hidden: the position is the view). The two planes of the last position seen are
    kept: a position that only adds discs to it (the next move, the usual case) copies
    them and marks the new discs."""
    assert isinstance(options, ConnectFourOptions)
    geo = geometry(options.columns, options.rows, options.connect)
    cells = geo.cells
    index = [0] * (geo.columns * geo.height)  # bit number: the cell's place, top row first
    for c in range(geo.columns):
        for r in range(geo.rows):
            index[c * geo.height + r] = (geo.rows - 1 - r) * geo.columns + c
    seats = 2 * cells - 1
    planes = 2 * cells
    # (x, o, their planes), replaced whole: a reader never mixes two; never changed once kept
    last: list[tuple[int, int, array[float]]] = [(0, 0, array("f", bytes(4 * planes)))]

    def mark(numbers: MutableSequence[float], discs: int, base: int) -> None:
        while discs:
            low = discs & -discs
            numbers[base + index[low.bit_length() - 1]] = 1.0
            discs ^= low

    def observe(state: State, player: int, out: MutableSequence[float]) -> None:
        x, o = state.x, state.o
        seen_x, seen_o, seen = last[0]
        if x != seen_x or o != seen_o:
            if x & seen_x == seen_x and o & seen_o == seen_o:  # discs added
                numbers = array("f", seen)
                mark(numbers, x ^ seen_x, 0)
                mark(numbers, o ^ seen_o, cells)
            else:
                numbers = array("f", bytes(4 * planes))
                mark(numbers, x, 0)
                mark(numbers, o, cells)
            seen = numbers
            last[0] = (x, o, numbers)
        out[0:planes] = seen
        seat = to_act(state)
        if seat:
            out[seats + seat] = 1.0
        out[seats + 2 + player] = 1.0

    return observe


def observation_blocks(players: int, options: BaseModel) -> list[tuple[str, int]]:
    """The observation's named blocks in order (the bridges' ``observation_layout``)."""
    cells = (size(options) - 4) // 2
    return [("x", cells), ("o", cells), ("to_act", 2), ("me", 2)]

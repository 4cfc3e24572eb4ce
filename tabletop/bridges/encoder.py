"""One configured game's encodings bound once, as numpy: the bridges' hot path.

:class:`Encoder` binds the game's fast paths (``observer``, ``id_lister`` of its encoding,
:mod:`tabletop.bridges.facet`) to the configuration once. Observations and masks
are rows of zero-filled numpy blocks allocated :data:`ROWS` at a time: each call takes
the next unused row and the game writes into it, a compiled observer (a built-in
function) into the numpy row itself, a Python one through a memoryview (plain-Python
writes, no numpy call per number). The action mask is marked from the legal ids in one
pass, in C where ``tabletop.bridges._mask`` is built (``_mask.c``, optional: setup.py),
else in Python, where a long list of ids is copied whole from the same list's mask made
before. No view JSON, pydantic or lookup by name on the way, and no attribute lookup
either: the two calls are closures over their blocks. Every row is handed out once, so
an observation kept (in a replay buffer, say) never changes.
"""

from __future__ import annotations

import importlib
import types
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np

from tabletop.bridges.common import Setup

ROWS = 256  # rows allocated at a time (a block is freed once no row of it is held)
MANY = 4  # legal ids from which a mask is copied from the masks already made (cheaper)
KEPT = 4096  # the most masks kept per encoder

Vector = np.ndarray[Any, np.dtype[np.float32]]
Mask = np.ndarray[Any, np.dtype[np.int8]]


class Encoder:
    """The observation vector and action mask of one :class:`~tabletop.bridges.common.Setup`:
    ``observation(state, seat)`` (a new float32 array of the declared shape) and
    ``mask(legal_ids)`` (a new int8 array, 1 at each of ``legal_ids``; None: all zeros)."""

    def __init__(self, config: Setup):
        encoding = config.encoding
        self.shape = config.shape
        self.ids = config.ids
        self.legal_ids = encoding.id_lister(config.players, config.options)
        self.observation = _observations(
            encoding.observer(config.players, config.options), config.shape
        )
        self.mask = _masks(config.ids)


def _observations(observe: Any, shape: tuple[int, ...]) -> Callable[[Any, int], Vector]:
    """The observation call: ``observe`` writes each new row of the current block, a
    compiled observer (a built-in function) the numpy row itself, a Python one through a
    memoryview of the block (plain-Python writes, no numpy call per number)."""
    size = 1
    for n in shape:
        size *= n
    written = (
        _rows_written_in_c(observe, size)
        if isinstance(observe, types.BuiltinFunctionType)
        else _rows_written_in_python(observe, size)
    )
    if len(shape) == 1:
        return written
    return lambda state, seat: written(state, seat).reshape(shape)


def _rows_written_in_c(observe: Any, size: int) -> Callable[[Any, int], Vector]:
    rows: Iterator[Vector] = iter(())  # the current block's unused rows

    def observation(state: Any, seat: int) -> Vector:
        nonlocal rows
        vector = next(rows, None)
        if vector is None:
            rows = iter(np.zeros((ROWS, size), np.float32))
            vector = next(rows)
        observe(state, seat, vector)
        return vector

    return observation


def _rows_written_in_python(observe: Any, size: int) -> Callable[[Any, int], Vector]:
    block: Any = None
    writes: Any = None  # the block's memoryview
    row = ROWS  # the next unused row

    def observation(state: Any, seat: int) -> Vector:
        nonlocal block, writes, row
        if row == ROWS:
            block = np.zeros((ROWS, size), np.float32)
            writes = memoryview(block).cast("B").cast("f")
            row = 0
        at = row * size
        observe(state, seat, writes[at : at + size])
        vector: Vector = block[row]
        row += 1
        return vector

    return observation


def _compiled_mark() -> Callable[[Any, Sequence[int]], None] | None:
    """``tabletop.bridges._mask.mark`` where it is built (``_mask.c``, an optional
    extension: setup.py), else None (the Python loop)."""
    try:
        module = importlib.import_module("tabletop.bridges._mask")
    except ImportError:
        return None
    mark: Callable[[Any, Sequence[int]], None] = module.mark
    return mark


def _masks(ids: int) -> Callable[[Sequence[int] | None], Mask]:
    """The mask call: each mask a new row of the current block, its ids marked in C where
    ``_mask`` is built, else in Python (:func:`_masks_in_python`)."""
    mark = _compiled_mark()
    return _masks_in_python(ids) if mark is None else _compiled_masks(ids, mark)


def _masks_in_python(ids: int) -> Callable[[Sequence[int] | None], Mask]:
    """The mask call without ``_mask``: the ids marked one by one, or a mask of many
    copied whole from an earlier one of the same ids."""
    block: Any = None
    marks: Any = None  # the block's memoryview
    row = ROWS
    seen: dict[tuple[int, ...], bytes] = {}  # legal ids: their mask's bytes

    def mask(legal_ids: Sequence[int] | None) -> Mask:
        nonlocal block, marks, row
        if row == ROWS:
            block = np.zeros((ROWS, ids), np.int8)
            marks = memoryview(block).cast("B")
            row = 0
        at = row * ids
        if legal_ids:
            key = None
            if len(legal_ids) >= MANY:  # many ids: the same sets recur, copied whole
                key = legal_ids if type(legal_ids) is tuple else tuple(legal_ids)
                whole = seen.get(key)
            if key is not None and whole is not None:
                marks[at : at + ids] = whole
            else:
                for i in legal_ids:
                    marks[at + i] = 1
                if key is not None and len(seen) < KEPT:
                    seen[key] = bytes(marks[at : at + ids])
        made: Mask = block[row]
        row += 1
        return made

    return mask


def _compiled_masks(
    ids: int, mark: Callable[[Any, Sequence[int]], None]
) -> Callable[[Sequence[int] | None], Mask]:
    """The mask call with the compiled ``mark``: the next row of the block, marked."""
    rows: Iterator[Mask] = iter(())  # the current block's unused rows

    def mask(legal_ids: Sequence[int] | None) -> Mask:
        nonlocal rows
        made = next(rows, None)
        if made is None:
            rows = iter(np.zeros((ROWS, ids), np.int8))
            made = next(rows)
        if legal_ids:
            mark(made, legal_ids)
        return made

    return mask

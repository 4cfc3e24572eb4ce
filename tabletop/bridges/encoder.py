"""One configured game's encodings bound once, as numpy: the bridges' hot path.

:class:`Encoder` binds the game's fast paths (:meth:`~tabletop.game.Game.observer`,
:meth:`~tabletop.game.Game.id_lister`) to the configuration once. Observations and masks
are rows of zero-filled numpy blocks allocated :data:`ROWS` at a time: each call takes
the next unused row and the game writes into it through a memoryview (plain-Python
writes, no numpy call per number); the action mask is set from the legal ids in one
pass, or, for a long list of ids, copied whole from the same list's mask made before. No
view JSON, pydantic or lookup by name on the way. Every row is handed out once, so an
observation kept (in a replay buffer, say) never changes.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tabletop.bridges.common import Setup

ROWS = 256  # rows allocated at a time (a block is freed once no row of it is held)
MANY = 4  # legal ids from which a mask is copied from the masks already made (cheaper)
KEPT = 4096  # the most masks kept per encoder


class Encoder:
    """The observation vector and action mask of one :class:`~tabletop.bridges.common.Setup`."""

    def __init__(self, config: Setup):
        game = config.game
        self.shape = config.shape
        self.ids = config.ids
        self.legal_ids = game.id_lister(config.players, config.options)
        self._observe = game.observer(config.players, config.options)
        size = 1
        for n in config.shape:
            size *= n
        self._size = size
        self._flat = len(config.shape) == 1
        self._rows: Any = None  # the current block of observations, its memoryview
        self._flat_rows: Any = None
        self._masks: Any = None
        self._flat_masks: Any = None
        self._row = self._mask_row = ROWS  # the next unused row of each block
        self._seen: dict[tuple[int, ...], bytes] = {}  # legal ids: their mask's bytes

    def observation(self, state: Any, seat: int) -> np.ndarray[Any, np.dtype[np.float32]]:
        """``seat``'s observation of ``state`` (a new float32 array of the declared shape)."""
        row, size = self._row, self._size
        if row == ROWS:
            self._rows = np.zeros((ROWS, size), np.float32)
            self._flat_rows = memoryview(self._rows).cast("B").cast("f")
            row = 0
        self._row = row + 1
        self._observe(state, seat, self._flat_rows[row * size : row * size + size])
        vector: np.ndarray[Any, np.dtype[np.float32]] = self._rows[row]
        return vector if self._flat else vector.reshape(self.shape)

    def mask(self, legal_ids: list[int] | None) -> np.ndarray[Any, np.dtype[np.int8]]:
        """The int8 mask with a 1 at each of ``legal_ids`` (None: all zeros)."""
        row, ids = self._mask_row, self.ids
        if row == ROWS:
            self._masks = np.zeros((ROWS, ids), np.int8)
            self._flat_masks = memoryview(self._masks).cast("B")
            row = 0
        self._mask_row = row + 1
        if legal_ids:
            marks = self._flat_masks
            at = row * ids
            key = tuple(legal_ids) if len(legal_ids) >= MANY else None
            whole = self._seen.get(key) if key is not None else None
            if whole is not None:  # many ids: the same sets recur, copied whole
                marks[at : at + ids] = whole
            else:
                for i in legal_ids:
                    marks[at + i] = 1
                if key is not None and len(self._seen) < KEPT:
                    self._seen[key] = bytes(marks[at : at + ids])
        mask: np.ndarray[Any, np.dtype[np.int8]] = self._masks[row]
        return mask

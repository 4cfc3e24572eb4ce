"""One configured game's encodings bound once, as numpy: the bridges' hot path.

:class:`Encoder` binds the game's fast paths (:meth:`~tabletop.game.Game.observer`,
:meth:`~tabletop.game.Game.id_lister`) to the configuration once. An observation is
written by the game into a fresh zero-filled ``array.array("f")``, which numpy then reads
without a copy; the action mask is set in a ``bytearray`` from the legal ids, one pass.
No view JSON, pydantic or lookup by name on the way.
"""

from __future__ import annotations

from array import array
from typing import Any

import numpy as np

from tabletop.bridges.common import Setup


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
        self._zeros = bytes(4 * size)
        self._flat = len(config.shape) == 1

    def observation(self, state: Any, seat: int) -> np.ndarray[Any, np.dtype[np.float32]]:
        """``seat``'s observation of ``state`` (a new float32 array of the declared shape)."""
        out = array("f", self._zeros)
        self._observe(state, seat, out)
        vector = np.frombuffer(out, np.float32)
        return vector if self._flat else vector.reshape(self.shape)

    def mask(self, legal_ids: list[int] | None) -> np.ndarray[Any, np.dtype[np.int8]]:
        """The int8 mask with a 1 at each of ``legal_ids`` (None: all zeros)."""
        marks = bytearray(self.ids)
        if legal_ids:
            for i in legal_ids:
                marks[i] = 1
        return np.frombuffer(marks, np.int8)

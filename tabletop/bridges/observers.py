"""OpenSpiel observers of tabletop games that honour ``pyspiel.IIGObservationType``.

What each kind holds, from the game's own views (:meth:`~tabletop.game.Game.view`), so
that nothing reaches an observer that its kind may not see:

- **public** only (``private_info=NONE``): the spectator's view (``view(state, None)``),
  its string and the game's observation of it; it holds no one's hand;
- **private** only (``public_info=False``, ``SINGLE_PLAYER``): what the player's view adds
  to the spectator's (the string: the view's top-level keys that differ; the tensor: the
  player's observation minus the public one, zero wherever the spectator sees the same);
- **both** (the default, ``observation_string``/``_tensor``): the player's own view;
- ``ALL_PLAYERS``: every seat's view (or private part), seat after seat;
- **perfect recall** (``information_state_string``/``_tensor``): the string is the player,
  the digest of their record (:mod:`.recall`: every change of what this kind shows them
  and, with private information, each of their own actions) and what it shows now; the
  tensor is what it shows now, then the most of every number it has ever shown, then how
  often the player took each action id: a fixed-size summary of the record (the string,
  not the tensor, is exact: two orders of the same things seen sum the same).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import numpy as np
import pyspiel

from tabletop.bridges.common import Setup
from tabletop.bridges.recall import Looks, Step, record

PRIVATE = pyspiel.PrivateInfoType
BEFORE = "the shuffle is due"

Vector = Callable[[Any, int], np.ndarray]


def _text(data: Any) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _private(view: dict[str, Any], public: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in view.items() if public.get(key) != value}


class Kind:
    """One observation kind of one configured game: its strings and vectors."""

    def __init__(self, config: Setup, iig: Any) -> None:
        self.config = config
        self.public = bool(iig.public_info)
        self.private = iig.private_info
        self.recall = bool(iig.perfect_recall)
        self.own = self.private != PRIVATE.NONE
        self.name = f"{int(self.public)}{int(self.private)}"
        self.width = int(np.prod(config.shape))
        seats = config.players if self.private == PRIVATE.ALL_PLAYERS else 1
        self.base = 0 if not (self.public or self.own) else self.width * seats
        self.size = self.base * 2 + config.ids if self.recall else self.base
        self.looks = Looks(self.name, self.string, self.own)

    # what the kind shows of one tabletop state
    def string(self, state: Any, player: int) -> str:
        game = self.config.game
        if not (self.public or self.own):
            return ""
        if self.private == PRIVATE.NONE:
            return _text(game.view(state, None))
        if self.private == PRIVATE.ALL_PLAYERS:
            seats = range(self.config.players)
            return _text({str(s + 1): self._seat_view(state, s) for s in seats})
        return _text(self._seat_view(state, player))

    def _seat_view(self, state: Any, player: int) -> dict[str, Any]:
        game = self.config.game
        view: dict[str, Any] = game.view(state, player + 1)
        return view if self.public else _private(view, game.view(state, None))

    def vector(self, state: Any, player: int) -> np.ndarray:
        c = self.config
        if not self.base:
            return np.zeros(0, np.float32)
        if self.private == PRIVATE.NONE:
            return self._observe(c.game.view(state, None), player)
        if self.private == PRIVATE.ALL_PLAYERS:
            return np.concatenate([self._seat_vector(state, s) for s in range(c.players)])
        return self._seat_vector(state, player)

    def _observe(self, view: Any, player: int) -> np.ndarray:
        c = self.config
        vector: np.ndarray = np.asarray(
            c.encoding.observation(view, player + 1, c.players, c.options), np.float32
        )
        return vector

    def _seat_vector(self, state: Any, player: int) -> np.ndarray:
        mine = self._observe(self.config.game.view(state, player + 1), player)
        if self.public:
            return mine
        public = self._observe(self.config.game.view(state, None), player)
        difference: np.ndarray = mine - public
        return difference


class Observer:
    """The PyObserver of one kind: ``tensor``/``dict`` filled by :meth:`set_from`, the
    string by :meth:`string_from` (pyspiel calls both for the observation and the
    information state)."""

    def __init__(self, config: Setup, iig: Any, params: dict[str, Any] | None = None) -> None:
        if params:
            raise ValueError(f"the tabletop observers take no parameters, not {sorted(params)}")
        self.kind = Kind(config, iig)
        self.tensor = np.zeros(self.kind.size, np.float32)
        k = self.kind
        pieces = [("observation", k.base)]
        if k.recall:
            pieces += [("seen", k.base), ("own_actions", config.ids)]
        self.dict: dict[str, np.ndarray] = {}
        at = 0
        for name, size in pieces:
            self.dict[name] = self.tensor[at : at + size]
            at += size

    def set_from(self, state: Any, player: int) -> None:
        step = state.step
        self.tensor.fill(0.0)
        if step is None:
            return
        k = self.kind
        self.dict["observation"][:] = k.vector(step.state, player)
        if k.recall:
            seen, counts = summary(step, player, k)
            self.dict["seen"][:] = seen
            self.dict["own_actions"][:] = counts

    def string_from(self, state: Any, player: int) -> str:
        step = state.step
        if step is None:
            return BEFORE
        k = self.kind
        now = k.string(step.state, player)
        if not k.recall:
            return now
        digest, _ = record(step, player, k.looks)
        return f"player {player} record {digest.hex()} now {now}"


def summary(step: Step, player: int, kind: Kind) -> tuple[np.ndarray, np.ndarray]:
    """The most of every number ``kind`` has shown ``player`` and their action counts,
    remembered on each step (like :func:`~tabletop.bridges.recall.record`)."""
    key = ("#" + kind.name, player)
    pending: list[Step] = []
    node: Step | None = step
    while node is not None and key not in node.arrays:
        pending.append(node)
        node = node.parent
    if node is not None:
        seen, counts = node.arrays[key]
    else:
        seen = np.full(kind.base, -np.inf, np.float32)
        counts = np.zeros(kind.config.ids, np.float32)
    for link in reversed(pending):
        if link.parent is None and key in link.inherited_arrays:
            seen, counts = link.inherited_arrays[key]
        seen = np.maximum(seen, kind.vector(link.state, player))
        done = link.did(player) if kind.own else None
        if done is not None:
            counts = counts.copy()
            counts[done] += 1.0
        link.arrays[key] = (seen, counts)
    found: tuple[np.ndarray, np.ndarray] = step.arrays[key]
    return found

"""The garbage collector's policy for a server holding thousands of open connections.

Each websocket keeps a few hundred objects alive (its protocol, tasks, coroutines,
buffers), and CPython's full collection walks every one of them: with 2,000 spectators
that is 300,000 objects and a pause of 100-700 ms on a small machine, felt by every
person whose action is waiting. Measured with ``python -m bench.bench_abuse spectators``
(see docs/web.md).

So the survivors of each full collection are frozen (``gc.freeze``): they move to the
permanent generation, and the next full collection walks only what arrived since. Objects
freed by their reference count go as before; only garbage *cycles* among frozen objects
wait, until the permanent generation is thawed, once every :data:`THAW_EVERY` seconds,
and one full collection walks everything again.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable
from typing import Any

THAW_EVERY = 1800.0  # seconds between two collections of everything


class Freezer:
    """The callback (``gc.callbacks``) that freezes after full collections and thaws
    every ``thaw_every`` seconds; ``clock`` is injectable for tests."""

    def __init__(
        self, thaw_every: float = THAW_EVERY, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.thaw_every = thaw_every
        self.clock = clock
        self.thawed_at = clock()
        self.thaws = 0

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        if phase != "stop" or info.get("generation") != 2:
            return
        if self.clock() - self.thawed_at >= self.thaw_every:
            gc.unfreeze()  # the next full collection walks everything once
            self.thawed_at = self.clock()
            self.thaws += 1
        else:
            gc.freeze()


def install(freezer: Freezer | None = None) -> Freezer:
    """Put the policy in place for this process (once; a second call returns the first)."""
    for callback in gc.callbacks:
        if isinstance(callback, Freezer):
            return callback
    freezer = freezer or Freezer()
    gc.callbacks.append(freezer)
    return freezer


def uninstall() -> None:
    """Take the policy out again and thaw (tests)."""
    gc.callbacks[:] = [c for c in gc.callbacks if not isinstance(c, Freezer)]
    gc.unfreeze()

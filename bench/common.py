"""What the benchmarks share: one uniform random game through a game's own API."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any


def random_playout(
    legal: Callable[[Any], Sequence[Any]],
    apply: Callable[[Any, Any], Any],
    state: Any,
    rand: Callable[[], float],
) -> tuple[Any, int]:
    """Play uniformly random legal actions to the end: the final state and the count."""
    actions = 0
    while True:
        acts = legal(state)
        if not acts:
            return state, actions
        state = apply(state, acts[int(rand() * len(acts))])
        actions += 1

"""Drawing a chance step's outcome: by the outcomes' probabilities, with a generator the
caller seeds (a match seeds it with its seed and the step's number, so a record replays
exactly)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any


def draw(outcomes: Sequence[tuple[Any, Any]], rng: random.Random) -> Any:
    """One outcome of a chance step, drawn with ``rng`` by the outcomes' probabilities."""
    point = rng.random()
    total = 0.0
    for outcome, probability in outcomes:
        total += float(probability)
        if point < total:
            return outcome
    return outcomes[-1][0]

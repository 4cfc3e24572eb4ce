"""A pairwise (covering) sample of combinations: every pair of values of two axes appears
in at least one chosen combination, in far fewer combinations than the full product.

Greedy (in the manner of AETG): start from the given first combination (the defaults),
then repeatedly add the candidate that covers the most pairs not yet covered, candidates
being built value by value from a seeded random order. Deterministic for a seed.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Sequence
from typing import Any

Pair = tuple[int, int, int, int]  # axis i, value index a, axis j, value index b
CANDIDATES = 20


def _pairs(combo: Sequence[int]) -> set[Pair]:
    return {
        (i, combo[i], j, combo[j]) for i, j in itertools.combinations(range(len(combo)), 2)
    }


def pairwise(
    axes: Sequence[Sequence[Any]],
    seed: int = 0,
    allowed: Callable[[tuple[Any, ...]], bool] = lambda combo: True,
    missed: list[tuple[int, Any, int, Any]] | None = None,
) -> list[tuple[Any, ...]]:
    """Combinations (value tuples, one value per axis) covering every allowed pair of
    values; the first is every axis's first value. ``allowed`` refuses combinations
    (a refused one is never chosen); the pairs that only refused combinations hold are
    appended to ``missed`` as (axis, value, axis, value)."""
    sizes = [len(axis) for axis in axes]
    if not sizes or 0 in sizes:
        return []
    rng = random.Random(seed)

    def values(index: Sequence[int]) -> tuple[Any, ...]:
        return tuple(axes[i][v] for i, v in enumerate(index))

    uncovered = {
        (i, a, j, b)
        for i, j in itertools.combinations(range(len(sizes)), 2)
        for a in range(sizes[i])
        for b in range(sizes[j])
    }
    chosen: list[tuple[int, ...]] = []
    first = tuple(0 for _ in sizes)
    if allowed(values(first)):
        chosen.append(first)
        uncovered -= _pairs(first)
    while uncovered:
        best: tuple[int, ...] | None = None
        best_gain = 0
        for _ in range(CANDIDATES):
            combo = _candidate(sizes, uncovered, rng)
            gain = len(_pairs(combo) & uncovered)
            if gain > best_gain and combo not in chosen and allowed(values(combo)):
                best, best_gain = combo, gain
        if best is None:  # cover one open pair on purpose, or drop it if nothing allows it
            i, a, j, b = pair = min(uncovered)
            uncovered.discard(pair)
            for _ in range(5 * CANDIDATES):
                combo = tuple(rng.randrange(size) for size in sizes)
                combo = tuple(a if k == i else b if k == j else v for k, v in enumerate(combo))
                if combo not in chosen and allowed(values(combo)):
                    best = combo
                    break
            if best is None:
                if missed is not None:
                    missed.append((i, axes[i][a], j, axes[j][b]))
                continue
        chosen.append(best)
        uncovered -= _pairs(best)
    return [values(c) for c in chosen]


def _candidate(sizes: list[int], uncovered: set[Pair], rng: random.Random) -> tuple[int, ...]:
    """A combination grown axis by axis, each value the one covering most open pairs."""
    order = list(range(len(sizes)))
    rng.shuffle(order)
    combo: dict[int, int] = {}
    for axis in order:
        scores = []
        for value in range(sizes[axis]):
            gain = sum(
                1
                for other, v in combo.items()
                if (min(axis, other), value if axis < other else v,
                    max(axis, other), v if axis < other else value) in uncovered
            )  # fmt: skip
            scores.append((gain, rng.random(), value))
        combo[axis] = max(scores)[2]
    return tuple(combo[i] for i in range(len(sizes)))

"""Perfect two-player Pig: the policy that maximises the chance of winning (Neller and
Presser, "Optimal Play of the Dice Game Pig", 2004), solved by value iteration.

``P[i, j, k]`` is the chance that the player to act wins with ``i`` banked points, the
other player ``j``, and ``k`` in the turn total: holding is worth ``1 - P[j, i + k, 0]``,
rolling ``(1 - P[j, i, 0]) / F + sum over faces f >= 2 of P[i, j, k + f] / F`` (a 1 passes
the turn, P2.2); a total reaching the goal wins (P3.1). Iterated until no value moves by
1e-9 (344 sweeps for a race to 100 with a six-sided die; 20 s with numpy).

The shipped table ``optimal-100-6.bin`` (the default rules) holds one bit for every
``(i, j, k)``, 1 where rolling is better, zlib-compressed; it is read at first use and
looked up with ints. ``python -m tabletop_pig.optimal [GOAL FACES]`` builds it again
(numpy needed; the tests rebuild it and compare).
"""

from __future__ import annotations

import functools
import sys
import zlib
from pathlib import Path

HERE = Path(__file__).parent


def table_path(goal: int, faces: int) -> Path:
    return HERE / f"optimal-{goal}-{faces}.bin"


def solve(goal: int, faces: int, tolerance: float = 1e-9) -> bytes:
    """The roll bits of every ``(i, j, k)`` (``i, j, k < goal``, row-major, most
    significant bit first), uncompressed."""
    import numpy as np

    grid = np.arange(goal)
    i, j, k = np.meshgrid(grid, grid, grid, indexing="ij")
    live = i + k < goal
    value = np.zeros((goal, goal, goal))
    while True:
        reached = i + k
        hold = np.where(reached >= goal, 1.0, 1 - value[j, np.minimum(reached, goal - 1), 0])
        roll = (1 - value[j, i, 0]) / faces
        for face in range(2, faces + 1):
            total = k + face
            after = value[i, j, np.minimum(total, goal - 1)]
            roll = roll + np.where(i + total >= goal, 1.0, after) / faces
        new = np.where(live, np.maximum(roll, hold), 1.0)
        moved = float(np.abs(new - value).max())
        value = new
        if moved < tolerance:
            return bytes(np.packbits((roll > hold) & live))


@functools.cache
def _table(goal: int, faces: int) -> bytes | None:
    path = table_path(goal, faces)
    try:
        return zlib.decompress(path.read_bytes())
    except (OSError, zlib.error):
        return None


def has_table(goal: int, faces: int) -> bool:
    """Whether the perfect policy of a race to ``goal`` with ``faces`` is shipped."""
    return _table(goal, faces) is not None


def rolls(goal: int, faces: int, mine: int, other: int, total: int) -> bool:
    """Whether perfect play rolls with ``mine`` banked, ``other`` for the opponent and
    ``total`` in the turn (the table must be shipped: :func:`has_table`)."""
    table = _table(goal, faces)
    assert table is not None
    if mine + total >= goal:
        return False  # holding wins (P2.4)
    bit = (mine * goal + other) * goal + total
    return bool(table[bit >> 3] >> (7 - (bit & 7)) & 1)


def main(argv: list[str]) -> None:
    goal, faces = (int(argv[0]), int(argv[1])) if argv else (100, 6)
    data = zlib.compress(solve(goal, faces), 9)
    table_path(goal, faces).write_bytes(data)
    print(f"{table_path(goal, faces).name}: {len(data)} bytes")


if __name__ == "__main__":
    main(sys.argv[1:])

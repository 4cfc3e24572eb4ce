"""The symmetries of Quarto used by the solver, and the canonical key of a position.

Board symmetries are the permutations of the 16 squares that map the set of winning
patterns onto itself: 32 for the 10 lines (Q4.1), 8 when the nine 2×2 blocks also count
(Q4.4). They are found by search over the patterns, not typed in, so the count is a fact
the tests check.

Piece symmetries keep "the four pieces share a value" (Q4.2) for every counted attribute:

- a value flip (XOR of a piece mask) keeps sharing for any attribute, counted or not;
- a permutation of attributes is valid among the counted ones (and among the uncounted
  ones, which never matter);
- with restricted attributes (Q4.5) pieces that differ only in uncounted attributes are
  interchangeable, so a position is the same as its *projection* (uncounted bits zeroed):
  any relabelling that keeps every piece's counted values keeps the win function.

The canonical key of a position "player to place piece ``hand`` on this board" is the
least image, over the board symmetries, of ``(occupancy, sorted columns)``: the pieces
are projected and XORed with the (projected) piece in hand, so the hand becomes 0; a
column is the set of squares whose piece has a 1 in one counted attribute, and sorting
the counted columns is the canonical choice of attribute permutation. Two positions get
the same key exactly when a symmetry maps one onto the other, so they have the same value.
"""

from __future__ import annotations

from functools import cache

from tabletop_quarto.pieces import ATTRIBUTES, patterns

Perm = tuple[int, ...]


@cache
def board_symmetries(squares: bool) -> tuple[Perm, ...]:
    """Every square permutation (image of square 0..15) that maps patterns onto patterns.

    The identity comes first; the rest are in the order the search finds them.
    """
    pats = patterns(squares)
    pattern_set = {frozenset(p) for p in pats}
    co = [[sum(1 for p in pats if a in p and b in p) for b in range(16)] for a in range(16)]
    found: list[Perm] = []
    image = [-1] * 16
    used = [False] * 16

    def extend(square: int) -> None:
        if square == 16:
            if all(frozenset(image[s] for s in p) in pattern_set for p in pats):
                found.append(tuple(image))
            return
        for target in range(16):
            if used[target] or co[square][square] != co[target][target]:
                continue
            if any(co[square][u] != co[target][image[u]] for u in range(square)):
                continue
            image[square], used[target] = target, True
            extend(square + 1)
            image[square], used[target] = -1, False

    extend(0)
    found.sort(key=lambda perm: perm != tuple(range(16)))
    return tuple(found)


def counted_mask(counted: frozenset[str]) -> int:
    """The 4-bit mask of the attributes that count (bit i = ``ATTRIBUTES[i]``)."""
    return sum(1 << i for i, name in enumerate(ATTRIBUTES) if name in counted)


def permute_bits(value: int, perm: Perm) -> int:
    """The 16-bit set ``value`` (bit per square) mapped square by square through ``perm``."""
    out = 0
    for square in range(16):
        if value >> square & 1:
            out |= 1 << perm[square]
    return out


def spread(piece: int) -> int:
    """A piece as four 16-bit lanes, lane i holding its attribute bit i (for columns)."""
    return sum(((piece >> i) & 1) << (16 * i) for i in range(4))


SPREAD = tuple(spread(p) for p in range(16))


class Canon:
    """Canonical keys for one variant: board symmetries x counted-attribute relabellings."""

    def __init__(self, squares: bool, counted: int) -> None:
        self.perms = board_symmetries(squares)
        self.counted = counted
        self.lanes = tuple(i for i in range(4) if counted >> i & 1)
        self.lane_mask = sum(0xFFFF << (16 * i) for i in self.lanes)
        self.low = tuple(tuple(permute_bits(b, p) for b in range(256)) for p in self.perms)
        self.high = tuple(tuple(permute_bits(b << 8, p) for b in range(256)) for p in self.perms)
        self._occ: dict[int, tuple[int, tuple[int, ...]]] = {}

    def occupancy(self, occ: int) -> tuple[int, tuple[int, ...]]:
        """The least image of ``occ`` and the symmetries (indices) that reach it."""
        hit = self._occ.get(occ)
        if hit is None:
            lo, hi = occ & 255, occ >> 8
            images = [low[lo] | high[hi] for low, high in zip(self.low, self.high, strict=True)]
            least = min(images)
            hit = (least, tuple(i for i, v in enumerate(images) if v == least))
            if len(self._occ) < 1 << 16:
                self._occ[occ] = hit
        return hit

    def key(self, occ: int, cols: int, hand: int) -> tuple[int, ...]:
        """The canonical key of placing ``hand`` on a board given as occupancy + columns.

        ``cols`` packs four 16-bit lanes: lane i is the set of squares whose piece has
        attribute bit i set (see :data:`SPREAD`).
        """
        least, which = self.occupancy(occ)
        cols = (cols ^ (SPREAD[hand & self.counted] * occ)) & self.lane_mask
        lanes = [(cols >> (16 * i)) & 0xFFFF for i in self.lanes]
        best: tuple[int, ...] | None = None
        for index in which:
            low, high = self.low[index], self.high[index]
            image = sorted(low[c & 255] | high[c >> 8] for c in lanes)
            cand = (least, *image)
            if best is None or cand < best:
                best = cand
        assert best is not None
        return best

"""The exact Quarto search in plain Python (the reference; ``_kernel.c`` is its twin in C).

Negamax with fail-soft alpha-beta over whole turns: place the piece in hand, then give a
piece (Q3.3). Scores are for the player to act, relative to the root of the search:
``WIN - k`` for a win at the k-th placement from the root, ``-(WIN - k)`` for a loss, 0
for a draw *or* for "not decided within the horizon" (``rem`` placements). Claims are
made at once (auto semantics, Q5.1).

Pruning and ordering:

- a *threat* is a pattern with three pieces and one empty square; the values its three
  pieces share (8 bits, see ``pieces.encode``) make every piece with one of them
  *deadly*: whoever is handed it wins at once. A turn that leaves only deadly pieces to
  give loses; a deadly piece is never given ("deadly piece" pruning);
- turns are tried with the fewest safe replies for the opponent first (pairs of a
  placement of the given piece and a piece then safe to give back; from ``ORDER_MIN``
  empty squares, below it the placements leaving the fewest safe pieces first); a turn
  that leaves the opponent no safe reply wins at once;
- two empty squares left: the opponent's last placement can only draw, no search needed;
- pieces that differ only in uncounted attributes (Q4.5) are given once;
- a transposition table keyed by :class:`symmetry.Canon` keeps lower/upper bounds with
  the horizon they were searched to (win/loss bounds hold at any horizon);
- mate-distance pruning: no win before the third placement once no immediate win exists.
"""

from __future__ import annotations

import time
from functools import cache
from operator import itemgetter

from tabletop_quarto.pieces import encode
from tabletop_quarto.rules import Rules
from tabletop_quarto.symmetry import SPREAD, Canon

clock = time.thread_time
"""The solver's clock for ``seconds`` budgets: the thinking thread's CPU seconds (the C
kernel reads the same clock), so a loaded machine or a niced worker makes a move slower
but never cuts its proof short; on an idle machine it runs as fast as the wall clock."""

WIN = 64  # a win at placement k (from the root) scores WIN - k
MATE = 32  # |score| above this is a decided game, below it a draw or undecided
INF = 100
# Tuning, measured with bench/bench_solver.py (the kernel's differ: calls cost less in C).
TT_MIN = 7  # empty squares from which positions go into the transposition table
ORDER_MIN = 7  # empty squares from which turns are ordered by the opponent's safe replies
COUNT3 = False  # settle 3-empty positions by that count instead of recursing

ENC = tuple(encode(p) for p in range(16))


class BudgetExceeded(Exception):
    """The node or time budget ran out before the search finished."""


Layout = tuple[
    tuple[tuple[int, int, int, int], ...],
    tuple[tuple[int, int, int], ...],
    tuple[tuple[int, int], ...],
]


class Config:
    """The variant's tables: patterns with byte shifts, counted values, deadly pieces."""

    def __init__(self, rules: Rules) -> None:
        self.squares = len(rules.patterns) > 10
        self.attr8 = rules.attr8
        self.counted = rules.attr8 & 15  # the counted attributes' bits (pieces.attribute_mask)
        self.squares_of = rules.patterns
        self.deadly = tuple(sum(1 << p for p in range(16) if ENC[p] & t) for t in range(256))
        self.canon = Canon(self.squares, self.counted)
        self.layouts: dict[int, Layout] = {}

    def layout(self, occ: int) -> Layout:
        """The patterns with 3 pieces (byte shifts of the pieces, empty square's bit), with
        2 (shifts, bits of the two empty squares), and the empty squares (square, bit) of
        an occupancy; cached."""
        tri: list[tuple[int, int, int, int]] = []
        duo: list[tuple[int, int, int]] = []
        for pattern in self.squares_of:
            mask = sum(1 << s for s in pattern)
            shifts = [8 * s for s in pattern if occ >> s & 1]
            if len(shifts) == 3:
                tri.append((shifts[0], shifts[1], shifts[2], mask & ~occ))
            elif len(shifts) == 2:
                duo.append((shifts[0], shifts[1], mask & ~occ))
        empties = tuple((s, 1 << s) for s in range(16) if not occ >> s & 1)
        layout = (tuple(tri), tuple(duo), empties)
        self.layouts[occ] = layout
        return layout


@cache
def search_config(rules: Rules) -> Config:
    """The (cached) tables for ``rules``."""
    return Config(rules)


first = itemgetter(0)  # sort key: the count


class Search:
    """One search context: transposition table, node counter and budget."""

    def __init__(
        self, rules: Rules, max_nodes: int | None = None, deadline: float | None = None
    ) -> None:
        self.cfg = search_config(rules)
        self.tt: dict[tuple[int, ...], tuple[int, int, int]] = {}
        self.nodes = 0
        self.max_nodes = max_nodes if max_nodes is not None else 1 << 62
        self.deadline = deadline
        self.check_at = 1024
        self.best: tuple[int, int] = (-1, -1)
        self.won: tuple[int, int] = (-1, -1)

    def _tick(self) -> None:
        self.check_at = self.nodes + 1024
        if self.nodes > self.max_nodes:
            raise BudgetExceeded
        if self.deadline is not None and clock() > self.deadline:
            raise BudgetExceeded

    def place(
        self,
        board: int,
        occ: int,
        cols: int,
        pool: int,
        hand: int,
        ply: int,
        rem: int,
        alpha: int,
        beta: int,
        root: bool = False,
    ) -> int:
        """The score of placing ``hand`` now (and giving after), ``ply`` placements in."""
        self.nodes += 1
        if self.nodes >= self.check_at:
            self._tick()
        cfg = self.cfg
        attr8 = cfg.attr8
        eh = ENC[hand]
        free = ~occ & 0xFFFF
        layout = cfg.layouts.get(occ) or cfg.layout(occ)
        threats: list[tuple[int, int]] = []
        pairs: list[tuple[int, int]] = []
        for x, y, z, q in layout[0]:
            v = (board >> x) & (board >> y) & (board >> z) & attr8
            if v:
                if v & eh:  # Q4.2: the piece in hand completes this pattern
                    if root:
                        self.best = (q.bit_length() - 1, -1)
                    return WIN - ply - 1
                threats.append((q, v))
        eh8 = eh & attr8
        for x, y, m2 in layout[1]:
            v = (board >> x) & (board >> y) & eh8
            if v:
                pairs.append((m2, v))
        empties = free.bit_count()
        if empties == 1:  # the 16th piece goes down without a win: a draw (Q6.1)
            if root:
                self.best = (free.bit_length() - 1, -1)
            return 0
        if rem <= 0:
            return 0
        best_possible = WIN - ply - 3 if empties >= 3 else 0
        worst = ply + 2 - WIN
        if best_possible <= alpha:
            return best_possible
        if worst >= beta:
            return worst
        key: tuple[int, ...] | None = None
        need = rem if rem < empties else empties
        if empties >= TT_MIN and not root:
            key = cfg.canon.key(occ, cols, hand)
            hit = self.tt.get(key)
            if hit is not None:
                lo, hi, depth = hit
                ok = depth >= need
                if lo == -INF or not (ok or lo > MATE):
                    lo = -INF
                elif lo > MATE:
                    lo -= ply
                elif lo < -MATE:
                    lo += ply
                if hi == INF or not (ok or hi < -MATE):
                    hi = INF
                elif hi > MATE:
                    hi -= ply
                elif hi < -MATE:
                    hi += ply
                if lo >= beta:
                    return lo
                if hi <= alpha:
                    return hi
                if lo == hi:
                    return lo
                if lo > alpha:
                    alpha = lo
                if hi < beta:
                    beta = hi
        deadly = cfg.deadly
        order: list[tuple[int, int, int]] = []
        losing = -1
        for s, bit in layout[2]:
            t = 0
            for q, v in threats:
                if q != bit:
                    t |= v
            for m2, v in pairs:
                if m2 & bit:
                    t |= v
            safe = pool & ~deadly[t]
            if safe:
                order.append((safe.bit_count(), s, safe))
            elif losing < 0:
                losing = s
        score = -INF
        if losing >= 0:  # every piece left to give wins for the opponent
            score = worst
            if root:
                self.best = (losing, -1)
        if order:
            order.sort(key=first)
            if empties == 2:  # the opponent places the last piece without a win: a draw
                _, s, safe = order[0]
                score = 0
                if root:
                    self.best = (s, (safe & -safe).bit_length() - 1)
            else:
                turns = self._turns(board, occ, pool, eh, order, empties)
                if turns is None:  # the opponent has no safe reply: we win at ply + 3
                    score = WIN - ply - 3
                    if root:
                        self.best = self.won
                elif empties == 3 and COUNT3:  # every reply leaves a safe piece: the last one draws
                    if score < 0:
                        score = 0
                        if root:
                            self.best = turns[0][1:]
                else:
                    score = self._children(
                        board, occ, cols, pool, hand, turns, ply, rem, alpha, beta, score, root
                    )
        if key is not None:
            self._store(key, score, alpha, beta, ply, need)
        return score

    def _turns(
        self,
        board: int,
        occ: int,
        pool: int,
        eh: int,
        order: list[tuple[int, int, int]],
        empties: int,
    ) -> list[tuple[int, int, int]] | None:
        """The turns ``(key, square, give)`` best first, or None when one wins at once.

        ``key`` counts the opponent's safe replies: pairs (a placement of the given piece,
        a piece that is then safe to give back); none means the opponent loses at once.
        Where counting does not pay, it is the number of safe pieces the placement leaves.
        """
        cfg = self.cfg
        counted, deadly, attr8 = cfg.counted, cfg.deadly, cfg.attr8
        counting = empties >= ORDER_MIN or (COUNT3 and empties == 3)
        turns: list[tuple[int, int, int]] = []
        for count, s, safe in order:
            if counting:
                occ2 = occ | 1 << s
                board2 = board | eh << (8 * s)
                tri, duo, empties2 = cfg.layouts.get(occ2) or cfg.layout(occ2)
                thr = [0] * 16
                pair = [0] * 16
                base = 0
                for x, y, z, q in tri:
                    v = (board2 >> x) & (board2 >> y) & (board2 >> z) & attr8
                    if v:
                        thr[q.bit_length() - 1] |= v
                        base |= v
                for x, y, m2 in duo:
                    v = (board2 >> x) & (board2 >> y) & attr8
                    if v:
                        pair[m2.bit_length() - 1] |= v
                        pair[(m2 & -m2).bit_length() - 1] |= v
                replies = []
                for t2, _ in empties2:
                    others = base
                    if thr[t2]:
                        others = 0
                        for u in range(16):
                            if u != t2:
                                others |= thr[u]
                    replies.append((others, pair[t2]))
            seen = 0
            while safe:
                low = safe & -safe
                safe ^= low
                g = low.bit_length() - 1
                cls = 1 << (g & counted)
                if seen & cls:
                    continue  # same counted values as a piece already tried (Q4.5)
                seen |= cls
                if counting:
                    pool2, eg = pool ^ low, ENC[g]
                    count = 0
                    for others, p in replies:
                        count += (pool2 & ~deadly[others | (p & eg)]).bit_count()
                    if not count:
                        self.won = (s, g)
                        return None
                turns.append((count, s, g))
        turns.sort(key=first)
        return turns

    def _children(
        self,
        board: int,
        occ: int,
        cols: int,
        pool: int,
        hand: int,
        turns: list[tuple[int, int, int]],
        ply: int,
        rem: int,
        alpha: int,
        beta: int,
        score: int,
        root: bool,
    ) -> int:
        """The best score over ``turns`` (fail-soft, stops at ``beta``)."""
        eh, spread_hand = ENC[hand], SPREAD[hand]
        a = alpha if alpha > score else score
        for _, s, g in turns:
            v = -self.place(
                board | eh << (8 * s),
                occ | 1 << s,
                cols | spread_hand << s,
                pool & ~(1 << g),
                g,
                ply + 1,
                rem - 1,
                -beta,
                -a,
            )
            if v > score:
                score = v
                if root:
                    self.best = (s, g)
                if v >= beta:
                    break
                if v > a:
                    a = v
        return score

    def _store(
        self, key: tuple[int, ...], score: int, alpha: int, beta: int, ply: int, need: int
    ) -> None:
        rel = score + ply if score > MATE else score - ply if score < -MATE else score
        lo, hi = (-INF, rel) if score <= alpha else (rel, INF) if score >= beta else (rel, rel)
        old = self.tt.get(key)
        if old is not None:
            if old[2] > need:
                return
            if old[2] == need:
                lo, hi = max(lo, old[0]), min(hi, old[1])
        if len(self.tt) >= 1 << 22:
            self.tt.clear()
        self.tt[key] = (lo, hi, need)

    def give(
        self, board: int, occ: int, cols: int, pool: int, rem: int, alpha: int, beta: int
    ) -> int:
        """The score of giving a piece now (the opponent places it at placement 1)."""
        self.nodes += 1
        deadly = self.deadly_now(board, occ)
        score = -INF
        self.best = (-1, -1)
        order = [g for g in range(16) if pool >> g & 1 and not deadly >> g & 1]
        order += [g for g in range(16) if pool >> g & 1 and deadly >> g & 1]
        seen = 0
        for g in order:
            cls = 1 << (g & self.cfg.counted) | (1 << 16 if deadly >> g & 1 else 0)
            if seen & cls:
                continue
            seen |= cls
            if deadly >> g & 1:
                v = 1 - WIN  # the opponent places it and wins at once
            else:
                v = -self.place(
                    board, occ, cols, pool & ~(1 << g), g, 0, rem, -beta, -max(alpha, score)
                )
            if v > score:
                score = v
                self.best = (-1, g)
                if v >= beta:
                    break
        return score

    def deadly_now(self, board: int, occ: int) -> int:
        """The pieces that would complete a pattern on this board (a 16-bit set)."""
        cfg = self.cfg
        t = 0
        for x, y, z, _ in (cfg.layouts.get(occ) or cfg.layout(occ))[0]:
            t |= (board >> x) & (board >> y) & (board >> z) & cfg.attr8
        return cfg.deadly[t]


def columns(board: int, occ: int) -> int:
    """The four attribute lanes of a board (see ``symmetry.SPREAD``)."""
    cols = 0
    for s in range(16):
        if occ >> s & 1:
            cols |= SPREAD[(board >> (8 * s)) & 15] << s
    return cols

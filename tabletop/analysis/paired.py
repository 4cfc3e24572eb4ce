"""Paired statistics for ``tabletop compare``: game ``i`` of the baseline and game ``i``
of the variant share their seed and seats, so each measure is a list of pairs.

- The **difference** is the mean of the per-game differences (variant − baseline), and
  its 95% interval is the paired t interval ``mean ± t(0.975, n−1) · sd / √n``.
- The **p-value** comes from a test suited to the measure: the exact McNemar test (an
  exact two-sided sign test on the discordant pairs) when every value is 0 or 1 (a seat
  won, a game was drawn or blocked); the Wilcoxon signed-rank test otherwise (lengths,
  lead changes, points; exact below ``EXACT_WILCOXON`` non-zero pairs, else the normal
  approximation with the tie correction). Both use only the pairs that differ, so a
  configuration compared with itself gets a difference of exactly 0, the interval
  ``[0, 0]`` and ``p = 1`` on every measure.

Small and exact on purpose (no scipy): the tests are a few lines each, and the analysis
extra stays matplotlib alone.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from typing import NamedTuple

MCNEMAR = "exact McNemar"
WILCOXON = "Wilcoxon signed-rank"
EXACT_WILCOXON = 30  # non-zero pairs up to which the signed-rank p-value is exact
Z975 = 1.959963984540054
Z80 = 0.8416212335729143  # one-sided 80% power


class Paired(NamedTuple):
    """One measure compared: the two means, their difference, its interval, the test."""

    a: float
    b: float
    difference: float
    ci: tuple[float, float]
    p: float
    test: str
    sd: float  # standard deviation of the per-game differences (for the power hint)
    pairs: int
    moved: float = 0.0  # mean |difference|: the most the change can move the mean this run
    changed: float = 0.0  # share of the pairs that differ at all


def normal_cdf(z: float) -> float:
    """P(Z <= z) for a standard normal Z."""
    return 0.5 * math.erfc(-z / math.sqrt(2))


def t_quantile(p: float, df: int) -> float:
    """The ``p`` quantile (p > 0.5) of Student's t with ``df`` degrees of freedom: exact
    for 1 and 2, the Cornish-Fisher expansion about the normal quantile above (error
    under 0.002 from 3 degrees of freedom on, at p = 0.975)."""
    if df == 1:
        return math.tan(math.pi * (p - 0.5))
    if df == 2:
        return (2 * p - 1) * math.sqrt(2 / (4 * p * (1 - p)))
    z = statistics.NormalDist().inv_cdf(p)
    v = float(df)
    return (
        z
        + (z**3 + z) / (4 * v)
        + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * v**2)
        + (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / (384 * v**3)
        + (79 * z**9 + 776 * z**7 + 1482 * z**5 - 1920 * z**3 - 945 * z) / (92160 * v**4)
    )


def mcnemar(up: int, down: int) -> float:
    """Exact two-sided McNemar p-value: ``up`` pairs went 0 → 1, ``down`` went 1 → 0;
    under no effect each discordant pair is a fair coin."""
    n = up + down
    if n == 0:
        return 1.0
    k = min(up, down)
    tail = sum(math.comb(n, i) for i in range(k + 1)) / float(2**n)
    return min(1.0, 2 * tail)


def wilcoxon(differences: Sequence[float]) -> float:
    """Two-sided Wilcoxon signed-rank p-value of paired differences (zeros dropped,
    ties given their mean rank)."""
    nonzero = [d for d in differences if d != 0]
    n = len(nonzero)
    if n == 0:
        return 1.0
    order = sorted(range(n), key=lambda i: abs(nonzero[i]))
    ranks = [0.0] * n
    start = 0
    ties = 0.0
    while start < n:
        end = start
        while end + 1 < n and abs(nonzero[order[end + 1]]) == abs(nonzero[order[start]]):
            end += 1
        for i in range(start, end + 1):
            ranks[order[i]] = (start + end) / 2 + 1
        size = end - start + 1
        ties += size**3 - size
        start = end + 1
    plus = sum(r for r, d in zip(ranks, nonzero, strict=True) if d > 0)
    total = n * (n + 1) / 2
    if n <= EXACT_WILCOXON:
        return _exact_signed_rank(ranks, plus)
    mean = total / 2
    var = n * (n + 1) * (2 * n + 1) / 24 - ties / 48
    if var <= 0:
        return 1.0
    z = (abs(plus - mean) - 0.5) / math.sqrt(var)
    return min(1.0, math.erfc(max(z, 0.0) / math.sqrt(2)))  # 2(1 − Φ(z)), exact in the tail


def _exact_signed_rank(ranks: Sequence[float], plus: float) -> float:
    """P(|W+ − mean| >= |observed − mean|) when each rank's sign is a fair coin
    (doubled ranks are whole numbers, so the distribution is counted exactly)."""
    doubled = [round(2 * r) for r in ranks]
    counts = {0: 1}
    for r in doubled:
        step: dict[int, int] = dict(counts)
        for total, ways in counts.items():
            step[total + r] = step.get(total + r, 0) + ways
        counts = step
    middle = sum(doubled) / 2
    observed = abs(round(2 * plus) - middle)
    extreme = sum(ways for total, ways in counts.items() if abs(total - middle) >= observed)
    return min(1.0, extreme / float(2 ** len(doubled)))


def compare(baseline: Sequence[float], variant: Sequence[float]) -> Paired:
    """The paired comparison of one measure (both lists in game order, same length)."""
    n = len(baseline)
    differences = [b - a for a, b in zip(baseline, variant, strict=True)]
    if n == 0:
        return Paired(0.0, 0.0, 0.0, (0.0, 0.0), 1.0, WILCOXON, 0.0, 0)
    mean = math.fsum(differences) / n
    sd = statistics.stdev(differences) if n > 1 else 0.0
    half = t_quantile(0.975, n - 1) * sd / math.sqrt(n) if n > 1 else 0.0
    binary = all(v in (0, 1) for v in (*baseline, *variant))
    if binary:
        up = sum(1 for d in differences if d > 0)
        down = sum(1 for d in differences if d < 0)
        p, test = mcnemar(up, down), MCNEMAR
    else:
        p, test = wilcoxon(differences), WILCOXON
    a = math.fsum(baseline) / n
    b = math.fsum(variant) / n
    moved = math.fsum(abs(d) for d in differences) / n
    changed = sum(1 for d in differences if d != 0) / n
    return Paired(a, b, mean, (mean - half, mean + half), p, test, sd, n, moved, changed)


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm-Bonferroni adjusted p-values, in the order given: sorted ascending, the
    ``i``-th smallest (from 0) is multiplied by ``m - i`` and the result made
    non-decreasing (capped at 1). Rejecting where the adjusted value is below ``alpha``
    keeps the chance of any false finding among the ``m`` at most ``alpha``, whatever
    the dependence between the tests (Holm 1979)."""
    m = len(p_values)
    order = sorted(range(m), key=lambda i: p_values[i])
    adjusted = [1.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p_values[i]))
        adjusted[i] = running
    return adjusted


def games_to_detect(sd: float, difference: float, tests: int = 1) -> int | None:
    """About how many paired games detect a true ``difference`` with 80% power at the
    5% level (Bonferroni's ``0.05 / tests`` when ``tests`` are corrected together),
    given the per-game differences' ``sd`` (None when either is 0)."""
    if sd <= 0 or difference == 0:
        return None
    return math.ceil(((z_two_sided(tests) + Z80) * sd / abs(difference)) ** 2)


def z_two_sided(tests: int = 1, alpha: float = 0.05) -> float:
    """The normal quantile of a two-sided test at ``alpha / tests``."""
    if tests <= 1:
        return Z975
    return statistics.NormalDist().inv_cdf(1 - alpha / (2 * tests))


def games_for_shift(result: Paired, shift: float, tests: int = 1) -> int | None:
    """About how many paired games detect a true change of ``shift`` in this measure with
    80% power, from the observed per-game differences: the change keeps the spread of the
    pairs it moves (mean square of the differences), so a change that alters only a share
    ``q`` of the games can shift the mean by at most about ``result.moved``. None when this
    run's differences cannot reach ``shift`` at all (then no number of games will show it)."""
    if shift <= 0 or result.pairs < 2 or result.moved < shift:
        return None
    n = result.pairs
    square = result.sd**2 * (n - 1) / n + result.difference**2  # mean squared difference
    spread = max(square - shift**2, 0.0)
    if spread == 0:
        return 2
    return max(2, math.ceil((z_two_sided(tests) + Z80) ** 2 * spread / shift**2))


def games_for_share(share: float, difference: float) -> int | None:
    """About how many games show that a seat's win share ``share`` differs from one
    ``difference`` away (80% power, 5% level, one proportion)."""
    if difference == 0 or not 0 < share < 1:
        return None
    return math.ceil((Z975 + Z80) ** 2 * share * (1 - share) / difference**2)

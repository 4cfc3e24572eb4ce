"""The balance measures of a set of games (the rows of ``tabletop analyse --json``).

Named after Ludii's evaluation metrics where one exists (docs/analysis.md explains
each): AdvantageP1, Balance, Completion, Drawishness, DurationTurns, LeadChange,
Decisiveness, Drama, Stability, ClarityVariance, BranchingFactor, ScoreDifference; and
Jaffe's restricted play for skill (the higher level in one seat against the lower in the
others, its win rate against the 1/N of a fair seat).

A game won by ``k`` players together counts ``1/k`` of a win for each of them, so the
seats' win rates and the draw rate always add up to 1 and a fair seat's share is exactly
``(1 − draw rate) / N``.
"""

from __future__ import annotations

import math
import statistics
from collections import Counter
from collections.abc import Sequence
from typing import Any

from tabletop.analysis.arena import wilson
from tabletop.analysis.observe import GameStats
from tabletop.core.selfplay import SECONDS_PER_TURN

# Ends that are not the rules' own end of play: a cut, a stall, a block, a clock.
CUT_KINDS = frozenset({"turn-limit", "action-limit", "blocked", "stall", "time"})


def share(game: GameStats, seat: int) -> float:
    """What game ``game`` counts as a win for ``seat`` (1-based): 1/k of k winners."""
    return 1 / len(game.winners) if seat in game.winners else 0.0


def margin(scores: Sequence[int]) -> int:
    """Ludii's ScoreDifference for one game: the highest points minus the next highest."""
    ranked = sorted(scores, reverse=True)
    return ranked[0] - ranked[1] if len(ranked) > 1 else 0


def mean_ci(values: Sequence[float]) -> dict[str, Any]:
    """Mean with its 95% t interval (the normal quantile: these runs have many games)."""
    mean = statistics.fmean(values)
    sd = statistics.stdev(values) if len(values) > 1 else 0.0
    half = 1.959963984540054 * sd / math.sqrt(len(values))
    return {"mean": _r(mean), "ci95": [_r(mean - half), _r(mean + half)]}


def _r(value: float) -> float:
    """Four decimals, or four significant digits for what lives below 0.1 (clarity and
    stability near 1e-4 would round to nothing)."""
    return round(value, 4) if abs(value) >= 0.1 else float(f"{value:.4g}")


def _ci(successes: float, trials: int) -> list[float]:
    low, high = wilson(successes, trials)
    return [_r(low), _r(high)]


def spread(values: Sequence[int]) -> dict[str, Any]:
    """Mean, sample standard deviation, median, range and the whole distribution."""
    count = Counter(values)
    return {
        "mean": _r(statistics.fmean(values)),
        "sd": _r(statistics.stdev(values)) if len(values) > 1 else 0.0,
        "median": statistics.median(values),
        "min": min(values),
        "max": max(values),
        "distribution": {str(k): count[k] for k in sorted(count)},
    }


def _mean(values: Sequence[float | int | None]) -> float | None:
    known = [v for v in values if v is not None]
    return _r(statistics.fmean(known)) if known else None


def _optional(games: Sequence[GameStats], field: str) -> float | None:
    return _mean([getattr(g, field) for g in games])


def branching_spread(games: Sequence[GameStats]) -> dict[str, Any] | None:
    """The legal actions per decision over every decision of every game (Ludii's
    BranchingFactor average, median, maximum and the distribution)."""
    count: Counter[int] = Counter()
    for g in games:
        count.update(dict(g.branching))
    if not count:
        return None
    values = sorted(count.elements())
    return {
        "mean": _r(statistics.fmean(values)),
        "median": statistics.median(values),
        "max": max(values),
        "distribution": {str(k): count[k] for k in sorted(count)},
    }


def points(games: Sequence[GameStats], players: int) -> dict[str, Any] | None:
    """Mean points per seat with 95% intervals and the score margin, for games that
    score (every game of the block has points), else None."""
    scored = [g.scores for g in games if g.scores is not None]
    if not scored or len(scored) < len(games):
        return None
    seats = [mean_ci([s[seat] for s in scored]) for seat in range(players)]
    return {
        "seat_points": [s["mean"] for s in seats],
        "seat_points_ci95": [s["ci95"] for s in seats],
        "score_margin": mean_ci([margin(s) for s in scored]),
    }


def minutes(turns: Sequence[int], seconds_per_turn: float) -> dict[str, Any]:
    """The estimated length in minutes: turns times ``seconds_per_turn``."""
    per = seconds_per_turn / 60
    return {
        "mean": _r(statistics.fmean(turns) * per),
        "median": _r(statistics.median(turns) * per),
        "seconds_per_turn": seconds_per_turn,
        "estimate": True,
    }


def self_play(
    games: Sequence[GameStats], players: int, seconds_per_turn: float = SECONDS_PER_TURN
) -> dict[str, Any]:
    """The measures of one configuration at one level (every seat the same agent)."""
    n = len(games)
    wins = [math.fsum(share(g, seat) for g in games) for seat in range(1, players + 1)]
    rates = [w / n for w in wins]
    draws = sum(1 for g in games if not g.winners)
    reasons = Counter(g.kind for g in games)
    completed = sum(count for kind, count in reasons.items() if kind not in CUT_KINDS)
    evaluated = [g for g in games if g.lead_changes is not None]
    changes = [g.lead_changes for g in evaluated]
    rate = [(g.lead_changes or 0) / (g.evaluated - 1) for g in evaluated if g.evaluated > 1]
    return {
        "games": n,
        "seat_win_rate": [_r(r) for r in rates],
        "seat_win_rate_ci95": [_ci(w, n) for w in wins],
        "advantage_p1": _r((wins[0] + draws / players) / n),
        "balance": _r(1 - (max(rates) - min(rates))),
        "draw_rate": _r(draws / n),
        "draw_rate_ci95": _ci(draws, n),
        "completion_rate": _r(completed / n),
        "completion_rate_ci95": _ci(completed, n),
        "end_reasons": dict(sorted(reasons.items())),
        "length_actions": spread([g.actions for g in games]),
        "length_turns": spread([g.turns for g in games]),
        "length_minutes": minutes([g.turns for g in games], seconds_per_turn),
        "branching": _r(sum(g.legal for g in games) / max(1, sum(g.decisions for g in games))),
        "branching_spread": branching_spread(games),
        "lead_changes": _mean(changes) if evaluated else None,
        "lead_change_rate": _mean(rate) if evaluated else None,
        "decisiveness": _mean([g.decisive for g in evaluated]) if evaluated else None,
        "drama": _optional(evaluated, "drama") if evaluated else None,
        "stability": _optional(evaluated, "stability") if evaluated else None,
        "clarity": _optional(evaluated, "clarity") if evaluated else None,
        **_intervals(evaluated),
        "points": points(games, players),
    }


def _intervals(evaluated: Sequence[GameStats]) -> dict[str, Any]:
    """The 95% interval of each evaluation measure's mean (``KEY_ci95``), for the plots."""
    per_game: dict[str, list[float | int | None]] = {
        "lead_changes": [g.lead_changes for g in evaluated],
        "decisiveness": [g.decisive for g in evaluated],
        "drama": [g.drama for g in evaluated],
        "stability": [g.stability for g in evaluated],
        "clarity": [g.clarity for g in evaluated],
    }
    found: dict[str, Any] = {}
    for key, values in per_game.items():
        known = [float(v) for v in values if v is not None]
        found[f"{key}_ci95"] = mean_ci(known)["ci95"] if known else None
    return found


def skill(games: Sequence[GameStats], higher: str, players: int) -> dict[str, Any]:
    """How the one ``higher`` seat did against ``lower`` in all the others."""
    won = math.fsum(share(g, g.seats.index(higher) + 1) for g in games)
    draws = sum(1 for g in games if not g.winners)
    return skill_row(won, draws, len(games), players)


def skill_row(won: float, draws: int, games: int, players: int) -> dict[str, Any]:
    """The skill measures from counts. The *score* counts a draw as ``1/N`` of a win
    (as AdvantageP1 does), so it is comparable with ``baseline`` = ``1/N``, what one
    seat scores when skill does not matter, whatever the draw rate."""
    baseline = 1 / players
    score = won + draws / players
    low, high = wilson(score, games)
    return {
        "games": games,
        "higher_win_rate": _r(won / games),
        "higher_win_rate_ci95": _ci(won, games),
        "draw_rate": _r(draws / games),
        "higher_score": _r(score / games),
        "higher_score_ci95": [_r(low), _r(high)],
        "baseline": _r(baseline),
        "gap": _r(score / games - baseline),
        "significant": low > baseline or high < baseline,
    }

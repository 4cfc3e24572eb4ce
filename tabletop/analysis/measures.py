"""The balance measures of a set of games (the rows of ``tabletop analyse --json``).

Named after Ludii's evaluation metrics where one exists (docs/analysis.md explains
each): AdvantageP1, Balance, Completion, Drawishness, DurationTurns, LeadChange,
Decisiveness; and Jaffe's restricted play for skill (the higher level in one seat
against the lower in the others, its win rate against the 1/N of a fair seat).
"""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Sequence
from typing import Any

from tabletop.agents.arena import wilson
from tabletop.analysis.observe import GameStats

# Ends that are not the rules' own end of play: a cut, a stall, a block, a clock.
CUT_KINDS = frozenset({"turn-limit", "action-limit", "blocked", "stall", "time"})


def _r(value: float) -> float:
    return round(value, 4)


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


def self_play(games: Sequence[GameStats], players: int) -> dict[str, Any]:
    """The measures of one configuration at one level (every seat the same agent)."""
    n = len(games)
    wins = [sum(1 for g in games if seat in g.winners) for seat in range(1, players + 1)]
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
        "branching": _r(sum(g.legal for g in games) / max(1, sum(g.decisions for g in games))),
        "lead_changes": _mean(changes) if evaluated else None,
        "lead_change_rate": _mean(rate) if evaluated else None,
        "decisiveness": _mean([g.decisive for g in evaluated]) if evaluated else None,
    }


def skill(games: Sequence[GameStats], higher: str, players: int) -> dict[str, Any]:
    """How the one ``higher`` seat did against ``lower`` in all the others."""
    won = sum(1 for g in games if g.seats.index(higher) + 1 in g.winners)
    draws = sum(1 for g in games if not g.winners)
    return skill_row(won, draws, len(games), players)


def skill_row(won: int, draws: int, games: int, players: int) -> dict[str, Any]:
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

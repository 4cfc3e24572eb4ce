"""Sentences about an analysis: which levels its numbers speak for, where an interval is
too wide for the difference it shows, and where the seat verdict changes with the level."""

from __future__ import annotations

import math
from typing import Any

import tabletop.analysis.text as text
from tabletop.analysis.paired import Z975
from tabletop.analysis.run import label

NOTABLE = 0.02  # a seat this far from a fair share is worth a sentence
PRECISION = 0.02  # the half-width the warning says how to reach
MOST_WARNINGS = 3  # more seat warnings than this are said in one


def fair_share(row: dict[str, Any]) -> float:
    """What each seat wins when seats do not matter: the decided games split evenly."""
    return float((1 - row["draw_rate"]) / row["players"])


def edges(row: dict[str, Any]) -> list[int]:
    """Seats (1-based) whose 95% interval lies wholly above or below a fair share."""
    fair = fair_share(row)
    return [
        seat
        for seat, (low, high) in enumerate(row["seat_win_rate_ci95"], start=1)
        if low > fair or high < fair
    ]


def games_for_precision(share: float, half: float = PRECISION) -> int:
    """Games for a 95% interval of ± ``half`` around a share."""
    return math.ceil(Z975**2 * share * (1 - share) / half**2)


def _pct(value: float) -> str:
    return f"{value * 100:.0f}%"


def where(row: dict[str, Any], keys: list[str]) -> str:
    return f"{label(row, keys)}, level {row['level']}"


def seat_warnings(data: dict[str, Any]) -> list[str]:
    """A warning for each configuration and level with a seat rate whose interval is at
    least half as wide as its distance from a fair share (the run shows the direction
    at best, not the size); it names the seat farthest from fair."""
    lines = []
    for row in data["configurations"]:
        fair = fair_share(row)
        wide = []
        for seat, rate in enumerate(row["seat_win_rate"], start=1):
            low, high = row["seat_win_rate_ci95"][seat - 1]
            half, gap = (high - low) / 2, abs(rate - fair)
            if gap >= NOTABLE and half >= gap / 2:
                wide.append((gap, seat, rate, half))
        if wide:
            _, seat, rate, half = max(wide)
            worst = max(row["seat_win_rate"], key=lambda r: r * (1 - r))
            lines.append(
                text.SEAT_WIDE.format(
                    where=where(row, data["swept"]),
                    seat=seat,
                    rate=_pct(rate),
                    fair=_pct(fair),
                    half=f"{half * 100:.0f}",
                    games=row["games"],
                    needed=f"{games_for_precision(worst):,}",
                )
            )
    if len(lines) > MOST_WARNINGS:
        return [summarised(data, lines)]
    return lines


def summarised(data: dict[str, Any], lines: list[str]) -> str:
    """One warning for many: how many rows are too thin, and the games that would do."""
    rows = data["configurations"]
    worst = max(r for row in rows for r in row["seat_win_rate"])
    share = max(min(worst, 0.5), 0.01)
    return text.SEAT_WIDE_MANY.format(
        count=len(lines),
        rows=len(rows),
        games=data["games"],
        needed=f"{games_for_precision(share):,}",
    )


def seat_level_changes(data: dict[str, Any]) -> list[str]:
    """Configurations whose seat verdict (which seats are off a fair share) differs
    between the levels played."""
    if len(data["levels"]) < 2:
        return []
    groups: dict[str, list[dict[str, Any]]] = {}
    for row in data["configurations"]:
        groups.setdefault(label(row, data["swept"]), []).append(row)
    lines = []
    for name, rows in groups.items():
        verdicts = {tuple(edges(row)) for row in rows}
        if len(verdicts) < 2:
            continue
        findings = []
        for row in rows:
            seats = edges(row)
            level = f"level {row['level']}"
            if not seats:
                findings.append(text.SEAT_FAIR.format(level=level))
            for seat in seats:
                findings.append(
                    text.SEAT_EDGE.format(
                        seat=seat,
                        rate=_pct(row["seat_win_rate"][seat - 1]),
                        fair=_pct(fair_share(row)),
                        level=level,
                    )
                )
        lines.append(text.SEAT_LEVELS.format(where=name, findings="; ".join(findings)))
    return lines


def completion_level_changes(data: dict[str, Any]) -> list[str]:
    """Configurations where the share of games the rules ended differs between levels
    beyond chance (95% intervals apart): cuts and blocks depend on who plays."""
    if len(data["levels"]) < 2:
        return []
    groups: dict[str, list[dict[str, Any]]] = {}
    for row in data["configurations"]:
        groups.setdefault(label(row, data["swept"]), []).append(row)
    lines = []
    for name, rows in groups.items():
        lows = [row["completion_rate_ci95"][0] for row in rows]
        highs = [row["completion_rate_ci95"][1] for row in rows]
        if max(lows) > min(highs):
            findings = "; ".join(
                text.COMPLETION_AT.format(rate=_pct(row["completion_rate"]), level=row["level"])
                for row in rows
            )
            lines.append(text.COMPLETION_LEVELS.format(where=name, findings=findings))
    return lines

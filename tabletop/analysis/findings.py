"""Sentences about an analysis: which levels its numbers speak for, where an interval is
too wide for the difference it shows, and where the seat verdict changes with the level."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import tabletop.analysis.text as text
from tabletop.analysis.arena import wilson
from tabletop.analysis.run import label
from tabletop.analysis.wording import Share
from tabletop.core.i18n.formats import Count
from tabletop.core.i18n.text import Msg

NOTABLE = 0.02  # a seat this far from a fair share is worth a sentence
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


def _pct(value: float) -> str:
    return Share(value)


def where(row: dict[str, Any], keys: list[str]) -> str:
    return text.WHERE.format(configuration=label(row, keys), level=row["level"])


def too_few(rate: float, fair: float, interval: Sequence[float], games: int) -> int | None:
    """The one rule of the sample-size warning: a seat whose rate is at least ``NOTABLE``
    from a fair share is measured too loosely when its 95% interval's half-width is more
    than half that distance (the run shows the direction at most). Then the games that
    meet the rule: the fewest whose interval (Wilson's, as the run's) around the same
    rate is at most half the distance wide on each side, always more than ``games``;
    else None."""
    low, high = interval
    half, gap = (high - low) / 2, abs(rate - fair)
    if gap < NOTABLE or half <= gap / 2:
        return None
    fewest, most = games, games * 2
    while _half(rate, most) > gap / 2:
        fewest, most = most, most * 2
    while most - fewest > 1:  # the half-width shrinks as the games grow
        middle = (fewest + most) // 2
        fewest, most = (fewest, middle) if _half(rate, middle) <= gap / 2 else (middle, most)
    return most


def _half(rate: float, games: int) -> float:
    low, high = wilson(rate * games, games)
    return (high - low) / 2


def seat_warnings(data: dict[str, Any]) -> list[str]:
    """A warning for each configuration and level with a seat measured too loosely
    (:func:`too_few`); it names the seat farthest from fair and the games the rule needs
    for it. Many such rows are said in one line, with the most games any of them needs."""
    lines, needs = [], []
    for row in data["configurations"]:
        fair = fair_share(row)
        wide = []
        for seat, rate in enumerate(row["seat_win_rate"], start=1):
            interval = row["seat_win_rate_ci95"][seat - 1]
            needed = too_few(rate, fair, interval, row["games"])
            if needed is not None:
                wide.append((abs(rate - fair), seat, rate, (interval[1] - interval[0]) / 2, needed))
        if wide:
            gap, seat, rate, half, needed = max(wide, key=lambda w: (w[0], -w[1]))
            needs.append(needed)
            lines.append(
                text.SEAT_WIDE.format(
                    where=where(row, data["swept"]),
                    seat=seat,
                    rate=_pct(rate),
                    fair=_pct(fair),
                    half=Count(half * 100, 1, grouped=False),
                    gap=Count(gap * 100, 1, grouped=False),
                    target=Count(gap * 50, 1, grouped=False),
                    games=Count(row["games"]),
                    needed=Count(needed),
                )
            )
    if len(lines) > MOST_WARNINGS:
        return [
            text.SEAT_WIDE_MANY.format(
                count=len(lines),
                rows=len(data["configurations"]),
                games=Count(data["games"]),
                needed=Count(max(needs)),
            )
        ]
    return lines


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
            level = text.LEVEL_WORD.format(level=row["level"])
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
        lines.append(text.SEAT_LEVELS.format(where=name, findings=Msg.joined("; ", findings)))
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
            findings = Msg.joined(
                "; ",
                [
                    text.COMPLETION_AT.format(rate=_pct(row["completion_rate"]), level=row["level"])
                    for row in rows
                ],
            )
            lines.append(text.COMPLETION_LEVELS.format(where=name, findings=findings))
    return lines

"""The verdict of ``tabletop compare`` in words: one line a level, the power hint, the
warnings for differences whose interval is too wide, and where the conclusion changes
with the level (every sentence's template is in :mod:`tabletop.analysis.text`)."""

from __future__ import annotations

import math
from collections.abc import Sequence

import tabletop.analysis.text as text
from tabletop.analysis.compare import Comparison, Measured
from tabletop.analysis.paired import games_to_detect
from tabletop.analysis.run import agent_names


def words(m: Measured) -> str:
    """The measure in words (``seat 1 wins``, ``ends blocked``, ...)."""
    base = m.base
    if base.startswith("seat_") and base.endswith("_win"):
        return text.MEASURE_WORDS["seat_win"].format(seat=base[5:-4])
    if base.startswith("end:"):
        return text.MEASURE_WORDS["end"].format(kind=base[4:])
    if base == "skill_gap":
        higher, _, lower = m.level.partition("-vs-")
        return text.MEASURE_WORDS["skill_gap"].format(higher=higher, lower=lower)
    return text.MEASURE_WORDS.get(base, base)


def amount(m: Measured, value: float, sign: bool = True) -> str:
    """A value or difference as a person reads it: percent (points) for rates."""
    if m.rate:
        return f"{value * 100:+.1f}" if sign else f"{value * 100:.1f}%"
    if abs(value) < 1:
        return f"{value:+.3g}" if sign else f"{value:.3g}"
    digits = 2 if abs(value) < 10 else 1
    return f"{value:+.{digits}f}" if sign else f"{value:.{digits}f}"


def interval(m: Measured) -> str:
    """``+1.7 pts [-1.7, +5.0]``: the difference, its unit and its 95% interval."""
    low, high = m.result.ci
    unit = " pts" if m.rate else ""
    return f"{amount(m, m.result.difference)}{unit} [{amount(m, low)}, {amount(m, high)}]"


def few(games: int | None) -> str:
    if games is None:
        return "?"
    return text.UNDER_TEN if games < 10 else text.ABOUT.format(games=f"{games:,}")


def level_name(level: str, names: dict[str, str]) -> str:
    if "-vs-" in level:
        return level.replace("-vs-", " vs ")
    return text.LEVEL.format(level=level, description=names.get(level, level))


def verdicts(comparison: Comparison, found: Sequence[Measured]) -> list[str]:
    """The one-line verdict of each level, then power hints, warnings for intervals too
    wide for their difference, and where the conclusion changes with the level."""
    plan = comparison.plan
    names = agent_names(plan.game, plan.levels)
    lines: list[str] = []
    for level in plan.levels:
        mine = [m for m in found if m.level == level]
        where = f"level {level}"
        if all(m.result.sd == 0 and m.result.difference == 0 for m in mine):
            lines.append(text.VERDICT_SAME.format(level=where, games=plan.games))
            continue
        significant = sorted((m for m in mine if m.significant), key=lambda m: m.result.p)
        sized = distinct(sorted((m for m in significant if notable(m)), key=importance))
        tiny = [m for m in significant if not notable(m)]
        if sized:
            items = [
                text.VERDICT_ITEM.format(measure=words(m), change=interval(m))
                for m in sized[:VERDICT_ITEMS]
            ]
            lines.append(
                text.VERDICT_SOME.format(level=where, changes="; ".join(items), games=plan.games)
            )
        elif tiny:
            measured = ", ".join(words(m) for m in tiny)
            lines.append(text.VERDICT_TINY.format(level=where, measures=measured, games=plan.games))
        else:
            lines.append(text.VERDICT_NONE.format(level=where, games=plan.games))
        lines.extend(_power(mine, where))
        lines.extend(_wide(mine, where, plan.games))
    for m in found:
        if m.base == "skill_gap":
            item = text.VERDICT_ITEM.format(measure=words(m), change=interval(m))
            template = text.VERDICT_SOME if m.significant else text.VERDICT_SKILL_SAME
            lines.append(
                template.format(level=level_name(m.level, names), changes=item, games=plan.games)
            )
    lines.extend(level_changes(found, names))
    return lines


def _power(mine: Sequence[Measured], where: str) -> list[str]:
    seats = [m for m in mine if m.base.startswith("seat_") and m.base.endswith("_win")]
    seat = max(seats, key=lambda m: m.result.sd, default=None)
    turns = next((m for m in mine if m.base == "length_turns"), None)
    if seat is None or seat.result.sd == 0:
        return []
    points = 5
    rate = games_to_detect(seat.result.sd, points / 100)
    length = ""
    if turns is not None and turns.result.sd > 0:
        step = max(1, round(turns.result.a * 0.05))
        length = text.POWER_LENGTH.format(
            games_turns=few(games_to_detect(turns.result.sd, step)), turns=step
        )
    return [text.POWER.format(level=where, games_rate=few(rate), points=points, length=length)]


def notable(m: Measured) -> bool:
    """A difference worth stating: 2 points for a rate, 5% of the baseline otherwise."""
    d = abs(m.result.difference)
    if m.rate:
        return d >= 0.02
    return d >= 0.05 * abs(m.result.a) and d > 0


def _is_seat(m: Measured) -> bool:
    return m.base.startswith("seat_") and m.base.endswith("_win")


def _wide(mine: Sequence[Measured], where: str, games: int) -> list[str]:
    """Differences of practical size whose interval holds 0; the seats in one line."""
    wide = [m for m in mine if notable(m) and m.result.ci[0] <= 0 <= m.result.ci[1]]
    lines = []
    seats = [m for m in wide if _is_seat(m)]
    if len(seats) > 1:
        needs = [games_to_detect(m.result.sd, m.result.difference) for m in seats]
        known = [n for n in needs if n is not None]
        biggest = max(seats, key=lambda m: abs(m.result.difference))
        lines.append(
            text.WIDE_SEATS.format(
                level=where,
                count=len(seats),
                largest=interval(biggest),
                seat=words(biggest),
                games=games,
                needed=(
                    "?"
                    if not known
                    else few(min(known))
                    if min(known) == max(known)
                    else text.RANGE.format(fewest=f"{min(known):,}", most=f"{max(known):,}")
                ),
            )
        )
        wide = [m for m in wide if not _is_seat(m)]
    for m in wide:
        needed = games_to_detect(m.result.sd, m.result.difference)
        lines.append(
            text.WIDE.format(
                level=where, measure=words(m), change=interval(m), games=games, needed=few(needed)
            )
        )
    return lines


VERDICT_ITEMS = 5  # changes named in a verdict line
ORDER = ("seat_", "draw", "end:", "skill_gap", "length_")  # what a designer reads first


def importance(m: Measured) -> tuple[int, float]:
    """Rates first (seats, draws, ends), then lengths, then the rest; by p within."""
    rank = next((i for i, prefix in enumerate(ORDER) if m.base.startswith(prefix)), len(ORDER))
    return rank, m.result.p


def distinct(measured: list[Measured]) -> list[Measured]:
    """Leave out a measure that repeats or mirrors one already named (with two end kinds
    one is the other's mirror; a game's ``draw`` end is the draw rate)."""
    kept: list[Measured] = []
    for m in measured:
        key = (abs(m.result.difference), abs(m.result.ci[0]) + abs(m.result.ci[1]))
        seen = {(abs(k.result.difference), abs(k.result.ci[0]) + abs(k.result.ci[1])) for k in kept}
        if not (m.rate and key in seen):
            kept.append(m)
    return kept


def level_changes(found: Sequence[Measured], names: dict[str, str]) -> list[str]:
    """Measures significant at some levels and not at others (or in opposite directions)."""
    by_base: dict[str, list[Measured]] = {}
    for m in found:
        if m.base != "skill_gap":
            by_base.setdefault(m.base, []).append(m)
    ends = sorted(base for base in by_base if base.startswith("end:"))
    if len(ends) == 2:  # one is the other's mirror
        del by_base[ends[1]]
    lines = []
    for group in by_base.values():
        signs = {
            (m.significant, math.copysign(1, m.result.difference) if m.significant else 0)
            for m in group
        }
        if len(group) > 1 and len(signs) > 1 and any(m.significant and notable(m) for m in group):
            findings = [
                text.LEVEL_FINDING.format(change=interval(m), p=f"{m.result.p:.2g}", level=m.level)
                if m.significant
                else text.NOT_SIGNIFICANT.format(level=m.level)
                for m in group
            ]
            lines.append(
                text.LEVEL_CHANGES.format(measure=words(group[0]), findings=", ".join(findings))
            )
    return lines


def names_in_words(found: Sequence[Measured]) -> dict[str, str]:
    """Each JSON name in words with its level, for plots and the report's table."""
    return {
        m.name: words(m) if m.base == "skill_gap" else f"{words(m)}, level {m.level}" for m in found
    }

"""The verdict of ``tabletop compare`` in words: one line a level, the power hint, the
warnings for differences whose interval is too wide, and where the conclusion changes
with the level (every sentence's template is in :mod:`tabletop.analysis.text`)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import tabletop.analysis.text as text
from tabletop.analysis.compare import Comparison, Measured, family
from tabletop.analysis.paired import games_for_shift, games_to_detect
from tabletop.analysis.run import agent_names
from tabletop.analysis.wording import Digits, Share, versus
from tabletop.core.i18n.formats import Count
from tabletop.core.i18n.text import Msg


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


RELATIVE = frozenset({"decisiveness", "drama", "stability", "clarity"})  # no unit of their own


def decimals(values: Sequence[float], digits: int = 2) -> int:
    """Decimals that show the largest of ``values`` to ``digits`` significant digits."""
    big = max((abs(v) for v in values if v and math.isfinite(v)), default=0.0)
    if big == 0:
        return 1
    return max(0, digits - 1 - math.floor(math.log10(big)))


def scale(m: Measured) -> tuple[float, str]:
    """What a difference of ``m`` is multiplied by to be read, and its unit: points of a
    rate, percent of the baseline for Ludii's unitless measures, else the measure's unit."""
    if m.rate:
        return 100.0, text.UNIT_POINTS
    if m.base in RELATIVE and m.result.a:
        return 100.0 / abs(m.result.a), text.OF_BASELINE
    return 1.0, text.UNITS.get(m.base, "")


def amount(m: Measured, value: float, sign: bool = True) -> str:
    """A value (``sign=False``: a mean, e.g. ``45.3%``, ``0.000398``) or a difference
    (``+1.7``) as a person reads it: never in exponent notation."""
    if not sign:
        if m.rate:
            return Share(value, 1)
        return Count(value, decimals([value], 3), grouped=False)
    factor, _unit = scale(m)
    return _signed(value * factor, 1 if m.rate else decimals([value * factor], 2))


def _signed(value: float, places: int) -> str:
    shown = f"{value:+.{places}f}"
    return Digits(shown.replace("-", "+", 1) if float(shown) == 0 else shown)  # never -0.0


def interval(m: Measured) -> str:
    """``+1.7 pts [-1.7, +5.0]``, ``-12% of the baseline [-20, -4.1]``, ``-3.0 turns
    [-3.0, -3.0]``: the difference in its unit and its 95% interval, rounded alike."""
    factor, unit = scale(m)
    low, high = m.result.ci
    values = [m.result.difference * factor, low * factor, high * factor]
    places = 1 if m.rate else decimals(values, 2)  # points of a rate: always to a tenth
    d, lo, hi = (_signed(v, places) for v in values)
    return text.INTERVAL.format(difference=d, unit=unit, low=lo, high=hi)


def few(games: int | None) -> str:
    if games is None:
        return "?"
    return text.UNDER_TEN if games < 10 else text.ABOUT.format(games=Count(games))


def level_name(level: str, names: dict[str, str]) -> str:
    if "-vs-" in level:
        return versus(*level.split("-vs-"))
    return text.LEVEL.format(level=level, description=names.get(level, level))


def verdicts(comparison: Comparison, found: Sequence[Measured]) -> list[str]:
    """The one-line verdict of each level, then power hints, warnings for differences of
    practical size that are no finding, and where the conclusion changes with the level.
    A finding is a measure whose Holm-adjusted p-value is below 5% and whose interval is
    clear of 0 (:attr:`Measured.significant`)."""
    plan = comparison.plan
    names = agent_names(plan.game, plan.levels)
    tests = family(found)
    lines: list[str] = []
    for level in plan.levels:
        mine = [m for m in found if m.level == level]
        where = text.LEVEL_WORD.format(level=level)
        if all(m.result.sd == 0 and m.result.difference == 0 for m in mine):
            lines.append(text.VERDICT_SAME.format(level=where, games=plan.games))
            continue
        significant = sorted((m for m in mine if m.significant), key=lambda m: m.p_adjusted)
        sized = distinct(sorted((m for m in significant if notable(m)), key=importance))
        tiny = [m for m in significant if not notable(m)]
        if sized:
            items = [
                text.VERDICT_ITEM.format(measure=words(m), change=interval(m))
                for m in sized[:VERDICT_ITEMS]
            ]
            lines.append(
                text.VERDICT_SOME.format(
                    level=where, changes=Msg.joined("; ", items), games=plan.games, tests=tests
                )
            )
        elif tiny:
            measured = Msg.joined(", ", [words(m) for m in tiny])
            lines.append(text.VERDICT_TINY.format(level=where, measures=measured, games=plan.games))
        else:
            lines.append(text.VERDICT_NONE.format(level=where, games=plan.games, tests=tests))
        lines.extend(_power(mine, where, tests))
        lines.extend(_wide(mine, where, plan.games, tests))
    for m in found:
        if m.base == "skill_gap":
            item = text.VERDICT_ITEM.format(measure=words(m), change=interval(m))
            template = text.VERDICT_SKILL if m.significant else text.VERDICT_SKILL_SAME
            lines.append(
                template.format(level=level_name(m.level, names), changes=item, games=plan.games)
            )
    lines.extend(level_changes(found, plan.levels))
    return lines


POINTS = 0.05  # the seat-rate change the power hint speaks of


def _power(mine: Sequence[Measured], where: str, tests: int) -> list[str]:
    """How many paired games would show a 5-point change in a seat's win rate (and a 5%
    change in length), from this run's own paired differences: a change that moved few
    games cannot shift a rate by more than the share it moved, whatever the games."""
    seats = [m for m in mine if _is_seat(m)]
    if not seats:
        return []
    seat = max(seats, key=lambda m: m.result.moved)
    turns = next((m for m in mine if m.base == "length_turns"), None)
    length = ""
    if turns is not None and turns.result.changed > 0:
        step = max(1, round(turns.result.a * 0.05))
        needed = games_for_shift(turns.result, step, tests)
        length = text.power_length(step, None if needed is None else few(needed))
    changed = Share(seat.result.changed, 1)
    rate = games_for_shift(seat.result, POINTS, tests)
    if rate is None:
        return [
            text.POWER_NEVER.format(
                level=where, changed=changed, points=round(POINTS * 100), length=length
            )
        ]
    return [
        text.POWER.format(
            level=where,
            changed=changed,
            games_rate=few(rate),
            points=round(POINTS * 100),
            length=length,
        )
    ]


def notable(m: Measured) -> bool:
    """A difference worth stating: 2 points for a rate, 5% of the baseline otherwise."""
    d = abs(m.result.difference)
    if m.rate:
        return d >= 0.02
    return d >= 0.05 * abs(m.result.a) and d > 0


def _is_seat(m: Measured) -> bool:
    return m.base.startswith("seat_") and m.base.endswith("_win")


def _p_pair(m: Measured) -> str:
    return text.P_PAIR.format(p=Digits(f"{m.result.p:.2g}"), adjusted=Digits(f"{m.p_adjusted:.2g}"))


def _wide(mine: Sequence[Measured], where: str, games: int, tests: int) -> list[str]:
    """Differences of practical size that are no finding; the seats in one line."""
    wide = [m for m in mine if notable(m) and not m.significant]
    lines = []
    seats = [m for m in wide if _is_seat(m)]
    if len(seats) > 1:
        needs = [games_to_detect(m.result.sd, m.result.difference, tests) for m in seats]
        known = [n for n in needs if n is not None]
        biggest = max(seats, key=lambda m: abs(m.result.difference))
        lines.append(
            text.WIDE_SEATS.format(
                level=where,
                count=len(seats),
                largest=interval(biggest),
                seat=words(biggest),
                p=_p_pair(biggest),
                games=games,
                needed=(
                    "?"
                    if not known
                    else few(min(known))
                    if min(known) == max(known)
                    else text.RANGE.format(fewest=Count(min(known)), most=Count(max(known)))
                ),
            )
        )
        wide = [m for m in wide if not _is_seat(m)]
    for m in distinct(wide):  # a draw rate and the draw end, two mirrored end kinds: once
        needed = games_to_detect(m.result.sd, m.result.difference, tests)
        lines.append(
            text.WIDE.format(
                level=where,
                measure=words(m),
                change=interval(m),
                p=_p_pair(m),
                games=games,
                needed=few(needed),
            )
        )
    return lines


VERDICT_ITEMS = 5  # changes named in a verdict line
ORDER = ("seat_", "draw", "end:", "skill_gap", "length_")  # what a designer reads first


def importance(m: Measured) -> tuple[int, float]:
    """Rates first (seats, draws, ends), then lengths, then the rest; by p within."""
    rank = next((i for i, prefix in enumerate(ORDER) if m.base.startswith(prefix)), len(ORDER))
    return rank, m.p_adjusted


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


def level_changes(found: Sequence[Measured], levels: Sequence[str]) -> list[str]:
    """Every measure whose conclusion (up, down, or no finding) is not the same at every
    level. A level where the measure does not exist (no game ended that way in either arm)
    counts as no finding; a measure that mirrors one already said (the other end kind of
    two, the draw end and the draw rate) is not said twice."""
    if len(levels) < 2:
        return []
    by_base: dict[str, dict[str, Measured]] = {}
    for m in found:
        if m.base != "skill_gap":
            by_base.setdefault(m.base, {})[m.level] = m
    lines = []
    said: set[tuple[float, ...]] = set()
    for at in by_base.values():
        states = [at[level].direction if level in at else 0 for level in levels]
        if len(set(states)) < 2:
            continue
        first = next(iter(at.values()))
        if first.rate and not _is_seat(first):
            size = tuple(
                round(abs(at[lv].result.difference), 9) if lv in at else 0.0 for lv in levels
            )
            if size in said:
                continue
            said.add(size)
        findings = []
        for level in levels:
            here = at.get(level)
            if here is None or here.result.changed == 0:
                findings.append(text.UNCHANGED.format(level=level))
            else:
                template = text.LEVEL_FINDING if here.significant else text.NOT_SIGNIFICANT
                findings.append(
                    template.format(
                        change=interval(here), p=Digits(f"{here.p_adjusted:.2g}"), level=level
                    )
                )
        lines.append(
            text.LEVEL_CHANGES.format(measure=words(first), findings=Msg.joined("; ", findings))
        )
    return lines


def replication(
    found: Sequence[Measured], again: Sequence[Sequence[Measured]], seeds: Sequence[int]
) -> tuple[list[str], dict[str, Any]]:
    """Which findings of the run held on fresh seeds (the same measure a finding in the
    same direction), and what the replicates found that the run did not: the lines and the
    ``replication`` object of the JSON."""
    runs = [{m.name: m for m in replicate} for replicate in again]
    count = len(runs)
    held_json = []
    items = []
    for m in found:
        if not m.significant:
            continue
        held = sum(1 for run in runs if m.name in run and run[m.name].direction == m.direction)
        held_json.append({"name": m.name, "held": held, "of": count})
        items.append(
            text.REPLICATED.format(measure=_named(m), change=interval(m), held=held, count=count)
        )
    main = {m.name for m in found if m.significant}
    only = sorted({n for run in runs for n, m in run.items() if m.significant and n not in main})
    lines: list[str] = []
    seed_words = ", ".join(str(s) for s in seeds)
    if items:
        lines.append(text.replication(count, seed_words, Msg.joined("; ", items)))
    else:
        lines.append(text.replication(count, seed_words, None))
    if only:
        words_of = {n: _named(m) for run in runs for n, m in run.items()}
        named = Msg.joined(", ", [words_of[n] for n in only])
        lines.append(text.REPLICATION_ONLY.format(measures=named))
    data = {
        "seeds": list(seeds),
        "findings": held_json,
        "runs": [sorted(n for n, m in run.items() if m.significant) for run in runs],
    }
    return lines, data


def _named(m: Measured) -> str:
    if m.base == "skill_gap":
        return words(m)
    return text.MEASURE_LEVEL.format(measure=words(m), level=m.level)


def names_in_words(found: Sequence[Measured]) -> dict[str, str]:
    """Each JSON name in words with its level, for plots and the report's table."""
    return {
        m.name: words(m)
        if m.base == "skill_gap"
        else text.MEASURE_AT.format(measure=words(m), level=m.level)
        for m in found
    }

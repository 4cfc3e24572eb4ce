"""``tabletop compare``: a baseline configuration against the same with rule changes,
paired game by game (same seeds, same seats), every measure with a paired test.

The plan is an analysis plan of two configurations (baseline, variant), so the games are
played exactly as ``tabletop analyse`` plays them: game ``i`` of either arm starts from
the same seed with the same agents in the same seats, and the difference of a measure
is a difference of the same deals (common random numbers).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import tabletop.analysis.measures as measures
import tabletop.analysis.text as text
from tabletop.agents.seat import make_seat
from tabletop.analysis.observe import GameStats
from tabletop.analysis.paired import Paired, compare, games_to_detect
from tabletop.analysis.run import Played, agent_names
from tabletop.analysis.sweep import MAX_GAMES, Configuration, Plan, split_list
from tabletop.core import options as opts
from tabletop.core.errors import OptionError, UsageError
from tabletop.core.setup import player_count, resolve

ALPHA = 0.05
RATE_PREFIXES = ("seat_", "draw", "end:")  # measures that are shares of games


@dataclass(frozen=True)
class Comparison:
    """What ``tabletop compare`` plays: ``plan.configurations`` is (baseline, variant)."""

    plan: Plan
    changes: tuple[tuple[str, str], ...]

    @property
    def baseline(self) -> Configuration:
        return self.plan.configurations[0]

    @property
    def variant(self) -> Configuration:
        return self.plan.configurations[1]


def make_comparison(
    game_id: str,
    players: int | None,
    option_pairs: Sequence[str],
    change_pairs: Sequence[str],
    agents: str,
    games: int,
    seed: int,
) -> Comparison:
    """Check every word of ``tabletop compare`` and build its plan (nothing is played)."""
    game = resolve(game_id)
    count = player_count(game, players)
    levels = split_list(agents, "--agents")
    for level in levels:
        make_seat(game, level)
    if not 1 <= games <= MAX_GAMES:
        raise UsageError(f"--games must be 1 to {MAX_GAMES}, not {games}")
    if not change_pairs:
        raise UsageError(
            "compare needs at least one --change KEY=VALUE (e.g. --change reshuffle=true)"
        )
    base = _pairs(option_pairs, "-o")
    changes = _pairs(change_pairs, "--change")
    model = game.info.options
    defaults = opts.dump(opts.build(model, base, game.info.id))
    for key in changes:
        if key not in defaults:
            opts.build(model, {key: changes[key]}, game.info.id)  # unknown: its own error
    keys = list(dict.fromkeys([*base, *changes]))
    base_values = {k: base.get(k, opts.as_text(defaults[k])) for k in keys}
    variant_values = {**base_values, **changes}
    configs = []
    for values in (base_values, variant_values):
        config = Configuration(count, tuple((k, values[k]) for k in keys))
        built = opts.build(model, dict(config.values), game.info.id)
        try:
            game.new(count, built, 0)
        except OptionError as exc:
            raise OptionError(f"with {count} players: {exc}") from None
        configs.append(config)
    plan = Plan(game.info.id, tuple(configs), tuple(levels), games, seed)
    return Comparison(plan, tuple(changes.items()))


def _pairs(words: Sequence[str], flag: str) -> dict[str, str]:
    found: dict[str, str] = {}
    for word in words:
        ((key, value),) = opts.parse_pairs([word]).items()
        if key in found:
            raise UsageError(f"{flag} {key} is given twice; give each key once")
        found[key] = value
    return found


# ---------------------------------------------------------------------------- measures


def per_game(game: GameStats, players: int, kinds: Sequence[str]) -> dict[str, float | None]:
    """Every measure of one self-play game, by machine name (None: not defined here)."""
    values: dict[str, float | None] = {
        f"seat_{seat}_win": measures.share(game, seat) for seat in range(1, players + 1)
    }
    values["draw"] = float(not game.winners)
    for kind in kinds:
        values[f"end:{kind}"] = float(game.kind == kind)
    values["length_turns"] = float(game.turns)
    values["length_actions"] = float(game.actions)
    values["branching"] = game.legal / game.decisions if game.decisions else None
    values["lead_changes"] = None if game.lead_changes is None else float(game.lead_changes)
    values["decisiveness"] = game.decisive
    values["drama"] = game.drama
    values["stability"] = game.stability
    values["clarity"] = game.clarity
    values["score_margin"] = None if game.scores is None else float(measures.margin(game.scores))
    return values


def skill_score(game: GameStats, higher: str, players: int) -> float:
    """The higher level's score in one skill game minus a fair seat's 1/N."""
    seat = game.seats.index(higher) + 1
    draw = 1 / players if not game.winners else 0.0
    return measures.share(game, seat) + draw - 1 / players


@dataclass(frozen=True)
class Measured:
    """One measure at one level (or pair of levels), compared."""

    name: str  # the JSON name, e.g. ``end:blocked@3``
    base: str  # without the level, e.g. ``end:blocked``
    level: str  # ``3``, or ``3-vs-1`` for a skill gap
    result: Paired

    @property
    def significant(self) -> bool:
        low, high = self.result.ci
        return self.result.p < ALPHA and (low > 0 or high < 0)

    @property
    def rate(self) -> bool:
        return self.base.startswith(RATE_PREFIXES) or self.base.startswith("skill_gap")


def paired_measures(played: Played) -> list[Measured]:
    """Every measure, level by level, baseline block against the variant's."""
    half = len(played.blocks) // 2
    found: list[Measured] = []
    for n in range(half):
        what, _, setup, levels = played.blocks[n]
        a_games, b_games = played.block_games(n), played.block_games(n + half)
        if what == "self":
            kinds = sorted({g.kind for g in (*a_games, *b_games)})
            a = [per_game(g, setup.players, kinds) for g in a_games]
            b = [per_game(g, setup.players, kinds) for g in b_games]
            for key in a[0]:
                pairs = [(x[key], y[key]) for x, y in zip(a, b, strict=True)]
                known = [(x, y) for x, y in pairs if x is not None and y is not None]
                if known:
                    result = compare([x for x, _ in known], [y for _, y in known])
                    found.append(Measured(f"{key}@{levels[0]}", key, levels[0], result))
        else:
            lower, higher = levels
            a_skill = [skill_score(g, higher, setup.players) for g in a_games]
            b_skill = [skill_score(g, higher, setup.players) for g in b_games]
            level = f"{higher}-vs-{lower}"
            found.append(
                Measured(f"skill_gap@{level}", "skill_gap", level, compare(a_skill, b_skill))
            )
    return found


def _r(value: float) -> float:
    return round(value, 4) + 0.0  # + 0.0: no -0.0 in the JSON


def _p(value: float) -> float:
    return float(f"{value:.4g}")


def describe(
    config: Configuration, comparison: Comparison, levels: Sequence[str]
) -> dict[str, Any]:
    game = resolve(comparison.plan.game)
    names = agent_names(game.info.id, levels)
    return {
        "players": config.players,
        "options": config.options(game),
        "agents": {level: names.get(level, level) for level in levels},
    }


def result_json(comparison: Comparison, found: Sequence[Measured]) -> dict[str, Any]:
    """The ``--json`` object: ``{"game", "baseline", "variant", "games", "measures"}``."""
    plan = comparison.plan
    return {
        "game": plan.game,
        "baseline": describe(comparison.baseline, comparison, plan.levels),
        "variant": {
            **describe(comparison.variant, comparison, plan.levels),
            "changes": dict(comparison.changes),
        },
        "games": plan.games,
        "measures": [
            {
                "name": m.name,
                "a": _r(m.result.a),
                "b": _r(m.result.b),
                "difference": _r(m.result.difference),
                "ci": [_r(m.result.ci[0]), _r(m.result.ci[1])],
                "p": _p(m.result.p),
                "test": m.result.test,
            }
            for m in found
        ],
    }


# ---------------------------------------------------------------------------- words


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
        sized = _one_end_of_two([m for m in significant if notable(m)], mine)
        tiny = [m for m in significant if not notable(m)]
        if sized:
            items = [
                text.VERDICT_ITEM.format(measure=words(m), change=interval(m)) for m in sized[:4]
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


def _one_end_of_two(sized: list[Measured], mine: Sequence[Measured]) -> list[Measured]:
    """With exactly two end kinds one is the other's mirror: keep the first named."""
    ends = [m for m in mine if m.base.startswith("end:")]
    if len(ends) != 2:
        return sized
    kept = next((m for m in sized if m.base.startswith("end:")), None)
    return [m for m in sized if not m.base.startswith("end:") or m is kept]


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

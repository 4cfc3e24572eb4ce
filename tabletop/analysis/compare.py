"""``tabletop compare``: a baseline configuration against the same with rule changes,
paired game by game (same seeds, same seats), every measure with a paired test.

The plan is an analysis plan of two configurations (baseline, variant), so the games are
played exactly as ``tabletop analyse`` plays them: game ``i`` of either arm starts from
the same seed with the same agents in the same seats, and the difference of a measure
is a difference of the same deals (common random numbers).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import tabletop.analysis.measures as measures
from tabletop.agents.seat import make_seat
from tabletop.analysis.observe import GameStats
from tabletop.analysis.paired import Paired, compare, holm
from tabletop.analysis.run import Played, agent_names
from tabletop.analysis.sweep import MAX_GAMES, Configuration, Plan, split_list
from tabletop.core import options as opts
from tabletop.core.configured import Configured
from tabletop.core.errors import UsageError
from tabletop.core.i18n.text import Domain
from tabletop.core.setup import player_count, resolve

_ = Domain("tabletop")

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
        raise UsageError(_("--games must be 1 to {most}, not {value}", most=MAX_GAMES, value=games))
    if not change_pairs:
        raise UsageError(
            _("compare needs at least one --change KEY=VALUE (e.g. --change reshuffle=true)")
        )
    base = _pairs(option_pairs, "-o")
    changes = _pairs(change_pairs, "--change")
    defaults = Configured.of(game, count, base).values
    for key in changes:
        if key not in defaults:
            Configured.of(game, count, {key: changes[key]})  # unknown: its own error
    keys = list(dict.fromkeys([*base, *changes]))
    base_values = {k: base.get(k, opts.as_text(defaults[k])) for k in keys}
    variant_values = {**base_values, **changes}
    configs = []
    for values in (base_values, variant_values):
        config = Configuration(count, tuple((k, values[k]) for k in keys))
        config.configured(game)
        configs.append(config)
    plan = Plan(game.info.id, tuple(configs), tuple(levels), games, seed)
    return Comparison(plan, tuple(changes.items()))


def _pairs(words: Sequence[str], flag: str) -> dict[str, str]:
    found: dict[str, str] = {}
    for word in words:
        ((key, value),) = opts.parse_pairs([word]).items()
        if key in found:
            raise UsageError(
                _("{flag} {key} is given twice; give each key once", flag=flag, key=key)
            )
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
    p_adjusted: float = 1.0  # Holm's, over every measure of the comparison that moved

    @property
    def significant(self) -> bool:
        """A finding: the Holm-adjusted p below 5% and the 95% interval clear of 0."""
        return self.p_adjusted < ALPHA and self.clear

    @property
    def significant_alone(self) -> bool:
        """What the measure would say tested alone (raw p): the benchmark's 'before'."""
        return self.result.p < ALPHA and self.clear

    @property
    def clear(self) -> bool:
        low, high = self.result.ci
        return low > 0 or high < 0

    @property
    def direction(self) -> int:
        """+1 or -1 for a finding up or down, 0 for no finding."""
        if not self.significant:
            return 0
        return 1 if self.result.difference > 0 else -1

    @property
    def rate(self) -> bool:
        return self.base.startswith(RATE_PREFIXES) or self.base.startswith("skill_gap")


def paired_measures(played: Played) -> list[Measured]:
    """Every measure, level by level, baseline block against the variant's."""
    half = len(played.blocks) // 2
    found: list[Measured] = []
    for n in range(half):
        what, _, setup, levels = played.blocks[n]
        both = [
            (a, b)
            for a, b in zip(played.slots(n), played.slots(n + half), strict=True)
            if a is not None and b is not None
        ]  # a stopped run: the pairs both of whose games were played
        if not both:
            continue
        a_games, b_games = [a for a, _ in both], [b for _, b in both]
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
    return adjusted(found)


def adjusted(found: Sequence[Measured]) -> list[Measured]:
    """Every measure with its Holm-adjusted p-value. The family is every measure of the
    comparison (all levels, skill gaps too) in which at least one pair of games differs:
    a measure no game moved has p = 1 and can never be a finding, so it does not dilute
    the others (docs/analysis.md, "Many measures at once")."""
    moved = [m for m in found if m.result.changed > 0]
    values = dict(zip((m.name for m in moved), holm([m.result.p for m in moved]), strict=True))
    return [replace(m, p_adjusted=values.get(m.name, 1.0)) for m in found]


def family(found: Sequence[Measured]) -> int:
    """How many measures the correction counted (those some pair of games moved)."""
    return sum(1 for m in found if m.result.changed > 0)


def _r(value: float) -> float:
    """Four significant digits (clarity and stability live near 1e-4), never -0.0."""
    return float(f"{value:.4g}") + 0.0


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
                "p_adjusted": _p(m.p_adjusted),
                "significant": m.significant,
                "test": m.result.test,
            }
            for m in found
        ],
        "correction": CORRECTION,
        "tested": family(found),
    }


CORRECTION = "Holm-Bonferroni"

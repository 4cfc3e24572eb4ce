"""Play a plan on a backend and gather its measures into the ``--json`` object."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

import tabletop.analysis.measures as measures
from tabletop.analysis.arena import Setup
from tabletop.analysis.backends import run
from tabletop.analysis.observe import GameStats, measure_game
from tabletop.analysis.sweep import Plan
from tabletop.core import options as opts
from tabletop.core import selfplay
from tabletop.core.setup import resolve

Block = tuple[str, int, Setup, tuple[str, ...]]


def blocks(plan: Plan) -> list[Block]:
    """Every block of games: ("self", config number, setup, (level,)) for self-play and
    ("skill", config number, setup, (lower, higher)) for each pair of levels."""
    found: list[Block] = []
    for number, config in enumerate(plan.configurations):
        for level in plan.levels:
            found.append(("self", number, plan.self_play(config, level), (level,)))
        for lower, higher in plan.pairs():
            found.append(("skill", number, plan.skill(config, lower, higher), (lower, higher)))
    return found


def total_games(plan: Plan) -> int:
    """How many games the plan plays."""
    return len(blocks(plan)) * plan.games


class Played(NamedTuple):
    """Every game of a plan, measured, in block order (``plan.games`` a block)."""

    plan: Plan
    blocks: list[Block]
    stats: list[GameStats]
    seconds: float

    def block_games(self, number: int) -> list[GameStats]:
        """The games of block ``number``."""
        games = self.plan.games
        return self.stats[number * games : (number + 1) * games]


def play(
    plan: Plan,
    jobs: int = 1,
    backend: str = "local",
    address: str | None = None,
    progress: Callable[[GameStats], None] | None = None,
) -> Played:
    """Play every game of the plan (each result, as it comes, to ``progress``)."""
    parts = blocks(plan)
    tasks = [(setup, index) for _, _, setup, _ in parts for index in range(plan.games)]
    began = time.perf_counter()
    stats = run(measure_game, tasks, jobs, backend, address, progress)
    return Played(plan, parts, stats, time.perf_counter() - began)


def agent_names(game_id: str, levels: Sequence[str]) -> dict[str, str]:
    """Each level's description (``tabletop games`` shows the same), for the record."""
    from tabletop.agents.levels import agent_levels

    known = agent_levels(resolve(game_id))
    return {level: known[level].description for level in levels if level in known}


def summarise(
    played: Played,
    jobs: int = 1,
    backend: str = "local",
    seconds_per_turn: float = selfplay.SECONDS_PER_TURN,
) -> dict[str, Any]:
    """The analysis of played games as one JSON-ready object."""
    plan = played.plan
    game = resolve(plan.game)
    rows: list[dict[str, Any]] = []
    skill: list[dict[str, Any]] = []
    for n, (what, number, setup, levels) in enumerate(played.blocks):
        config = plan.configurations[number]
        games = played.block_games(n)
        head = {"players": config.players, "options": config.options(game)}
        if what == "self":
            entry = measures.self_play(games, setup.players, seconds_per_turn)
            rows.append({**head, "level": levels[0], **entry})
        else:
            lower, higher = levels
            entry = measures.skill(games, higher, setup.players)
            skill.append({**head, "lower": lower, "higher": higher, **entry})
    seconds = played.seconds
    return {
        "game": plan.game,
        "seed": plan.seed,
        "games": plan.games,
        "levels": list(plan.levels),
        "agents": agent_names(plan.game, plan.levels),
        "swept": swept(plan),
        "seconds_per_turn": seconds_per_turn,
        "configurations": rows,
        "skill": skill,
        "backend": backend,
        "jobs": jobs,
        "seconds": round(seconds, 2),
        "games_per_second": round(len(played.stats) / seconds, 3) if seconds else None,
    }


def analyse(
    plan: Plan,
    jobs: int = 1,
    backend: str = "local",
    address: str | None = None,
    progress: Callable[[GameStats], None] | None = None,
    seconds_per_turn: float = selfplay.SECONDS_PER_TURN,
) -> dict[str, Any]:
    """Play every game of the plan and return the analysis as one JSON-ready object."""
    played = play(plan, jobs, backend, address, progress)
    return summarise(played, jobs, backend, seconds_per_turn)


def swept(plan: Plan) -> list[str]:
    """What varies between configurations: ``players`` and the swept option keys."""
    keys = ["players"] if len({c.players for c in plan.configurations}) > 1 else []
    for key, _ in plan.configurations[0].values:
        if len({dict(c.values)[key] for c in plan.configurations}) > 1:
            keys.append(key)
    return keys


def label(row: dict[str, Any], keys: list[str]) -> str:
    """A short name of a row's configuration: its values of the swept keys."""
    if not keys:
        return f"{row['players']}p"
    parts = [
        f"{row['players']}p" if k == "players" else f"{k}={opts.as_text(row['options'][k])}"
        for k in keys
    ]
    return " ".join(parts)

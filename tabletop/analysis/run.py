"""Play a plan on a backend and gather its measures into the ``--json`` object."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from tabletop.agents.arena import Setup
from tabletop.analysis import measures
from tabletop.analysis.backends import run
from tabletop.analysis.observe import GameStats, measure_game
from tabletop.analysis.sweep import Plan
from tabletop.core import options as opts
from tabletop.core.setup import resolve


def blocks(plan: Plan) -> list[tuple[str, int, Setup, tuple[str, ...]]]:
    """Every block of games: ("self", config number, setup, (level,)) for self-play and
    ("skill", config number, setup, (lower, higher)) for each pair of levels."""
    found: list[tuple[str, int, Setup, tuple[str, ...]]] = []
    for number, config in enumerate(plan.configurations):
        for level in plan.levels:
            found.append(("self", number, plan.self_play(config, level), (level,)))
        for lower, higher in plan.pairs():
            found.append(("skill", number, plan.skill(config, lower, higher), (lower, higher)))
    return found


def total_games(plan: Plan) -> int:
    """How many games the plan plays."""
    return len(blocks(plan)) * plan.games


def analyse(
    plan: Plan,
    jobs: int = 1,
    backend: str = "local",
    address: str | None = None,
    progress: Callable[[GameStats], None] | None = None,
) -> dict[str, Any]:
    """Play every game of the plan and return the analysis as one JSON-ready object."""
    game = resolve(plan.game)
    parts = blocks(plan)
    tasks = [(setup, index) for _, _, setup, _ in parts for index in range(plan.games)]
    began = time.perf_counter()
    stats = run(measure_game, tasks, jobs, backend, address, progress)
    seconds = time.perf_counter() - began
    rows: list[dict[str, Any]] = []
    skill: list[dict[str, Any]] = []
    for n, (what, number, setup, levels) in enumerate(parts):
        config = plan.configurations[number]
        games = stats[n * plan.games : (n + 1) * plan.games]
        head = {"players": config.players, "options": config.options(game)}
        if what == "self":
            rows.append({**head, "level": levels[0], **measures.self_play(games, setup.players)})
        else:
            lower, higher = levels
            entry = measures.skill(games, higher, setup.players)
            skill.append({**head, "lower": lower, "higher": higher, **entry})
    return {
        "game": plan.game,
        "seed": plan.seed,
        "games": plan.games,
        "levels": list(plan.levels),
        "swept": swept(plan),
        "configurations": rows,
        "skill": skill,
        "backend": backend,
        "jobs": jobs,
        "seconds": round(seconds, 2),
        "games_per_second": round(len(tasks) / seconds, 3) if seconds else None,
    }


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



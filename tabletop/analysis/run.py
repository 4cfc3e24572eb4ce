"""Play a plan on a backend and gather its measures into the ``--json`` object."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

import tabletop.analysis.measures as measures
from tabletop.analysis.arena import Setup
from tabletop.analysis.backends import Stopped, run
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
    """Every game of a plan, measured, in block order (``plan.games`` a block); a game
    not played (a run stopped early) is None and left out of its block."""

    plan: Plan
    blocks: list[Block]
    stats: list[GameStats | None]
    seconds: float

    def block_games(self, number: int) -> list[GameStats]:
        """The played games of block ``number``."""
        return [g for g in self.slots(number) if g is not None]

    def slots(self, number: int) -> list[GameStats | None]:
        """Block ``number`` game by game, None where a game was not played."""
        games = self.plan.games
        return self.stats[number * games : (number + 1) * games]

    @property
    def finished(self) -> int:
        return sum(1 for g in self.stats if g is not None)

    @property
    def complete(self) -> bool:
        return self.finished == len(self.stats)


class Done(NamedTuple):
    """One finished game as progress sees it: its measures, what kind of block it is in
    (the same for every seed: its cost), and the seconds it took to play."""

    stats: GameStats
    key: tuple[Any, ...]
    seconds: float


def timed_game(task: tuple[Setup, int]) -> tuple[GameStats, float]:
    """One game measured, and the seconds it took (a worker's task)."""
    began = time.perf_counter()
    stats = measure_game(task)
    return stats, time.perf_counter() - began


def block_key(plan: Plan, block: Block) -> tuple[Any, ...]:
    """What a block's games cost depends on: player count, options and levels."""
    what, number, _setup, levels = block
    return (what, plan.configurations[number], levels)


def play(
    plan: Plan,
    jobs: int = 1,
    backend: str = "local",
    address: str | None = None,
    progress: Callable[[Done], None] | None = None,
) -> Played:
    """Play every game of the plan (each result, as it comes, to ``progress``)."""
    return play_all([plan], jobs, backend, address, progress)[0]


def play_all(
    plans: Sequence[Plan],
    jobs: int = 1,
    backend: str = "local",
    address: str | None = None,
    progress: Callable[[Done], None] | None = None,
    done: dict[int, GameStats] | None = None,
) -> list[Played]:
    """Play the plans as one run. Games go out round-robin over every block (game 0 of
    each block, then game 1, ...) so the time left is estimated from every kind of game
    from the start; each result lands in its place, so the order never shows. ``done``
    holds games already played (by position, a resumed run): they are not played again.
    When the run is stopped (:class:`~tabletop.analysis.backends.Stopped`), the plans
    come back with the games finished so far, inside the exception's ``played``."""
    parts = [blocks(plan) for plan in plans]
    offsets, slots = [], 0
    for plan, found in zip(plans, parts, strict=True):
        offsets.append(slots)
        slots += len(found) * plan.games
    order: list[tuple[int, tuple[Setup, int], tuple[Any, ...]]] = []
    for index in range(max(plan.games for plan in plans)):
        for plan, found, offset in zip(plans, parts, offsets, strict=True):
            if index >= plan.games:
                continue
            for number, block in enumerate(found):
                position = offset + number * plan.games + index
                if done is None or position not in done:
                    order.append((position, (block[2], index), block_key(plan, block)))
    results: dict[int, GameStats] = dict(done or {})
    began = time.perf_counter()

    def arrived(position: int, result: tuple[GameStats, float]) -> None:
        results[position] = result[0]
        if progress is not None:
            progress(Done(result[0], keys[position], result[1]))

    keys = {position: key for position, _, key in order}
    tasks = [task for _, task, _ in order]
    positions = [position for position, _, _ in order]

    def gathered() -> list[Played]:
        seconds = time.perf_counter() - began
        return [
            Played(
                plan,
                found,
                [results.get(offset + i) for i in range(len(found) * plan.games)],
                seconds,
            )
            for plan, found, offset in zip(plans, parts, offsets, strict=True)
        ]

    try:
        run(
            timed_game, tasks, jobs, backend, address,
            arrived=lambda at, r: arrived(positions[at], r),
        )  # fmt: skip
    except Stopped as stop:
        stop.played = gathered()
        stop.done = results
        raise
    return gathered()


def costs(plans: Sequence[Plan], done: dict[int, GameStats] | None = None) -> dict[Any, int]:
    """Games still to play, by block key (for the weighted time-left estimate)."""
    todo: dict[Any, int] = {}
    offset = 0
    for plan in plans:
        for number, block in enumerate(blocks(plan)):
            key = block_key(plan, block)
            for index in range(plan.games):
                if done is None or offset + number * plan.games + index not in done:
                    todo[key] = todo.get(key, 0) + 1
        offset += len(blocks(plan)) * plan.games
    return todo


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
        if not games:  # a stopped run that had not reached this block
            continue
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
        "games_per_second": round(played.finished / seconds, 3) if seconds else None,
        **partial(played),
    }


def partial(*played: Played) -> dict[str, Any]:
    """``{"partial": true, "finished": k, "planned": n}`` for a stopped run, else nothing."""
    finished = sum(p.finished for p in played)
    planned = sum(len(p.stats) for p in played)
    if finished == planned:
        return {}
    return {"partial": True, "finished": finished, "planned": planned}


def analyse(
    plan: Plan,
    jobs: int = 1,
    backend: str = "local",
    address: str | None = None,
    progress: Callable[[Done], None] | None = None,
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

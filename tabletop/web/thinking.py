"""Computer players think in worker processes, never on the event loop's interpreter.

A :class:`Thinkers` holds two process pools. Matches with a person in them use the
``people`` pool (``--ai-workers`` processes, a little below normal CPU priority so the
event loop, which acknowledges people's actions, always comes first). Matches of computers
only (allowed with ``--allow-computer-matches``) use as many ``background`` processes at
the lowest CPU priority: they fill the machine's idle time but never slow a person.

A job carries what the seat's agent needs (the game's id, the state, the player, the
options, the match's seed and move number); the worker finds the game by id and decides
with the same seeded generator as ``Seat.move``, from the player's view only. Each worker
keeps the seats it made (by match and seat) so a search may reuse its tree.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any, TypeVar

from pydantic import BaseModel

T = TypeVar("T")
PEOPLE_NICE = 5
BACKGROUND_NICE = 19
SEATS_KEPT = 64  # seats a worker keeps between moves (tree reuse), least recent dropped


@dataclass(frozen=True)
class Job:
    """One decision of a computer seat."""

    match: str
    game: str
    level: str
    state: Any
    player: int
    players: int
    options: BaseModel
    seed: int
    number: int


_seats: OrderedDict[tuple[str, int, str], Any] = OrderedDict()


def _start(nice: int, parent: int | None = None) -> None:
    """A worker's start: die with the server (:mod:`.lifeline`), lower its priority,
    load the games once."""
    from tabletop.web.lifeline import die_with_parent

    die_with_parent(parent)
    os.nice(nice)
    from tabletop.core.registry import registry

    registry()


def think(job: Job) -> Any:
    """The action the job's seat chooses (runs in a worker process)."""
    import random

    from tabletop.agents.seat import make_seat
    from tabletop.core.registry import registry

    game = registry().get(job.game)
    key = (job.match, job.player, job.level)
    seat = _seats.pop(key, None) or make_seat(game, job.level)
    _seats[key] = seat
    while len(_seats) > SEATS_KEPT:
        _seats.popitem(last=False)
    rng = random.Random(f"{job.seed}:{job.player}:{job.number}")
    return seat.choose(game, job.state, job.player, job.players, job.options, rng)


def _ready() -> bool:
    return True


class Thinkers:
    """The worker pools; ``await decide(job, background)`` is the chosen action."""

    def __init__(self, workers: int) -> None:
        self.workers = max(1, workers)
        self._pools: dict[bool, Executor] = {}

    def _pool(self, background: bool) -> Executor:
        pool = self._pools.get(background)
        if pool is None:
            pool = ProcessPoolExecutor(
                max_workers=self.workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_start,
                initargs=(BACKGROUND_NICE if background else PEOPLE_NICE, os.getpid()),
            )
            self._pools[background] = pool
        return pool

    def warm(self) -> None:
        """Start the people's workers now, so the first computer move is not slowed."""
        pool = self._pool(False)
        for _ in range(self.workers):
            pool.submit(_ready)

    async def decide(self, job: Job, background: bool = False) -> Any:
        """The job's action, computed in a worker."""
        return await self.run(think, job, background=background)

    async def run(self, job: Callable[..., T], *args: Any, background: bool = False) -> T:
        """``job(*args)`` (picklable) in a worker: a computer's move, the coach's hints and
        reviews. A worker that died is replaced once."""
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._pool(background), job, *args)
        except BrokenProcessPool:
            self._pools.pop(background, None)
            return await loop.run_in_executor(self._pool(background), job, *args)

    def close(self) -> None:
        for pool in self._pools.values():
            pool.shutdown(wait=False, cancel_futures=True)
        self._pools.clear()

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
COACH_NICE = 17  # hints and reviews: after every computer move of a match with a person
BACKGROUND_NICE = 19
NICE = {"people": PEOPLE_NICE, "coach": COACH_NICE, "background": BACKGROUND_NICE}
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
    """A worker's start: die with the server (:mod:`.lifeline`), leave Ctrl-C to the
    server (which ends its workers; a traceback each in the terminal before), lower its
    priority, load the games once."""
    import signal

    from tabletop.web.lifeline import die_with_parent

    signal.signal(signal.SIGINT, signal.SIG_IGN)
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
    """The worker pools; ``await decide(job, background)`` is the chosen action.

    Fair computer time (issue 39): the coach (hints, reviews) thinks in a pool of its own
    at a lower priority (:data:`COACH_NICE`), so a computer's move never queues behind
    hints; and one owner (the address that created the matches) has at most
    ``workers - 1`` moves thinking at once (1 with one worker), so another person's
    computer always finds a worker free or next in line."""

    def __init__(self, workers: int) -> None:
        self.workers = max(1, workers)
        self._pools: dict[str, Executor] = {}
        self._owners: dict[str, asyncio.Semaphore] = {}
        self._waiting: dict[str, int] = {}

    def _pool(self, kind: str) -> Executor:
        pool = self._pools.get(kind)
        if pool is None:
            pool = ProcessPoolExecutor(
                max_workers=self.workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_start,
                initargs=(NICE[kind], os.getpid()),
            )
            self._pools[kind] = pool
        return pool

    def per_owner(self) -> int:
        """Moves one owner may have thinking at once."""
        return max(1, self.workers - 1)

    def warm(self) -> None:
        """Start the people's workers now, so the first computer move is not slowed."""
        pool = self._pool("people")
        for _ in range(self.workers):
            pool.submit(_ready)

    async def decide(self, job: Job, background: bool = False, owner: str = "") -> Any:
        """The job's action, computed in a worker (at most :meth:`per_owner` of one
        ``owner``'s at once; background matches have their own pool)."""
        if background or not owner:
            return await self.run(think, job, background=background)
        gate = self._owners.get(owner)
        if gate is None:
            gate = self._owners[owner] = asyncio.Semaphore(self.per_owner())
        self._waiting[owner] = self._waiting.get(owner, 0) + 1
        try:
            async with gate:
                return await self.run(think, job)
        finally:
            self._waiting[owner] -= 1
            if not self._waiting[owner]:
                del self._waiting[owner], self._owners[owner]

    async def coach(self, job: Callable[..., T], *args: Any) -> T:
        """A hint or a review, in the coach's own pool (below the computers' priority)."""
        return await self.run(job, *args, kind="coach")

    async def run(
        self, job: Callable[..., T], *args: Any, background: bool = False, kind: str = ""
    ) -> T:
        """``job(*args)`` (picklable) in a worker: a computer's move, the coach's hints and
        reviews. A worker that died is replaced once."""
        loop = asyncio.get_running_loop()
        kind = kind or ("background" if background else "people")
        try:
            return await loop.run_in_executor(self._pool(kind), job, *args)
        except BrokenProcessPool:
            self._pools.pop(kind, None)
            return await loop.run_in_executor(self._pool(kind), job, *args)

    def close(self) -> None:
        """Cancel what waits and let what thinks now finish (a move: at most its 2 s): a
        worker ended mid-job leaves its queue's semaphores behind, and the server's last
        words were a resource-tracker warning about leaked semaphores."""
        for pool in self._pools.values():
            pool.shutdown(wait=True, cancel_futures=True)
        self._pools.clear()

"""Where self-play games run: this machine's processes, or tasks on a Ray cluster.

Every task is a pure function of its item (a game is seeded by its index alone), so the
results are the same, in the same order, on either backend and any number of workers.
On Ray, items travel in batches of ``BATCH`` consecutive items per task: one task per
game costs more in scheduling than a short game takes (see ``bench/bench_analysis.py``).
"""

from __future__ import annotations

import contextlib
import itertools
import logging
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any, TypeVar

from tabletop.core.errors import TabletopError, UsageError
from tabletop.core.flags import JOBS_MAX
from tabletop.core.i18n.text import Domain
from tabletop.core.numbers import parse_int, quote

_ = Domain("tabletop")

T = TypeVar("T")

R = TypeVar("R")

BACKENDS = ("local", "ray")
BATCH = 8  # items per Ray task: chosen from bench/bench_analysis.py (docs/analysis.md)
LOCAL_CHUNK = 1  # items per process-pool message: games are long next to a message


class RayMissing(TabletopError):
    """``--backend ray`` without Ray installed."""

    exit_code = 2


def check_backend(backend: str, jobs: int, address: str | None) -> None:
    """The backend words of a command; UsageError says what is allowed."""
    if backend not in BACKENDS:
        raise UsageError(
            _(
                "unknown --backend {backend}; allowed: {allowed}",
                backend=repr(backend),
                allowed=", ".join(BACKENDS),
            )
        )
    if not 1 <= jobs <= JOBS_MAX:
        raise UsageError(_("--jobs must be 1 to {most}, not {value}", most=JOBS_MAX, value=jobs))
    if address is not None and backend != "ray":
        raise UsageError(_("--address names a Ray cluster; use it with --backend ray"))
    if backend == "ray":
        import_ray()
        if address is not None:
            check_address(address)


class Stopped(TabletopError):
    """The run was stopped (Ctrl-C, SIGTERM) after some of its items: ``done`` holds the
    finished results by position; a caller that knows the plan adds ``played``."""

    exit_code = 130

    def __init__(self, done: dict[int, Any]) -> None:
        super().__init__(_("interrupted"))
        self.done = done
        self.played: Any = None


def run(
    func: Callable[[T], R],
    items: Sequence[T],
    jobs: int,
    backend: str = "local",
    address: str | None = None,
    progress: Callable[[R], None] | None = None,
    arrived: Callable[[int, R], None] | None = None,
) -> list[R]:
    """``[func(item) for item in items]`` on ``jobs`` workers of ``backend``, each result
    handed to ``progress`` (and with its position to ``arrived``) as soon as it is known.
    ``func`` must be a module-level function (it is pickled to the workers). Ctrl-C or
    SIGTERM stops the run: every result finished by then is kept and :class:`Stopped`
    carries them; no worker is left running."""
    check_backend(backend, jobs, address)
    results: dict[int, R] = {}

    def deliver(position: int, result: R) -> None:
        results[position] = result
        if arrived:
            arrived(position, result)
        if progress:
            progress(result)

    try:
        with _terminate_stops():
            if backend == "ray":
                _ray(func, items, jobs, address, deliver)
            else:
                _local(func, items, jobs, deliver)
    except KeyboardInterrupt:
        raise Stopped(results) from None
    return [results[i] for i in range(len(items))]


@contextlib.contextmanager
def _terminate_stops() -> Iterator[None]:
    """SIGTERM stops a run as Ctrl-C does (in the main thread; elsewhere as it was)."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(_signum: int, _frame: Any) -> None:
        raise KeyboardInterrupt

    before = signal.signal(signal.SIGTERM, stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, before)


def _worker_start() -> None:
    """A worker leaves Ctrl-C to the run (a terminal sends it to every process of the
    group): the run keeps what finished and ends the workers itself. SIGTERM ends a
    worker at once: a forked worker inherits the run's handler (which raises
    KeyboardInterrupt to stop the run), and one caught by it while waiting for the result
    queue's lock that another worker held when it was ended never ended (the run waited
    for it for ever)."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _local(
    func: Callable[[T], R], items: Sequence[T], jobs: int, deliver: Callable[[int, R], None]
) -> None:
    if jobs <= 1:
        for position, item in enumerate(items):
            deliver(position, func(item))
        return
    from concurrent.futures import FIRST_COMPLETED, Future, wait

    pool = ProcessPoolExecutor(max_workers=jobs, initializer=_worker_start)
    pending: dict[Future[R], int] = {}
    upcoming = iter(range(len(items)))
    try:
        for position in itertools.islice(upcoming, IN_FLIGHT * jobs):
            pending[pool.submit(func, items[position])] = position
        while pending:
            finished, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in sorted(finished, key=pending.__getitem__):
                deliver(pending.pop(future), future.result())
                following = next(upcoming, None)
                if following is not None:
                    pending[pool.submit(func, items[following])] = following
    except BaseException:
        for future in sorted(pending, key=pending.__getitem__):
            if future.done() and not future.cancelled() and future.exception() is None:
                deliver(pending[future], future.result())
        workers = list(pool._processes.values())
        pool.shutdown(wait=False, cancel_futures=True)
        for worker in workers:
            worker.terminate()
        for worker in workers:
            worker.join()
        raise
    pool.shutdown()


IN_FLIGHT = 2  # games queued a worker: enough to keep it busy, few to wait for on a stop


def _batch(func: Callable[[T], R], items: Sequence[T]) -> list[R]:
    """One Ray task: a batch of items, played one after the other."""
    return [func(item) for item in items]


def import_ray() -> Any:
    """The ``ray`` module; RayMissing says how to install it."""
    try:
        import ray
    except ImportError:
        raise RayMissing(
            _("--backend ray needs Ray, which is not installed: pip install -e '.[cluster]'")
        ) from None
    return ray


def _connect(ray: Any, jobs: int, address: str | None) -> bool:
    """Join the cluster at ``address``, or start a quiet local one of ``jobs`` CPUs; True
    when this run connected (and so must disconnect). An already connected driver (a test
    session's instance) is used as it is."""
    if ray.is_initialized():
        return False
    quiet = {"include_dashboard": False, "log_to_driver": False, "logging_level": logging.ERROR}
    where = (
        _("the Ray cluster at {address}", address=quote(address))
        if address
        else _("a local Ray instance")
    )
    try:
        with _silent_stderr():  # Ray's C++ core logs its retries to file descriptor 2
            if address is None:
                ray.init(num_cpus=jobs, **quiet)
            else:
                ray.init(address=address, **quiet)
    except (ConnectionError, RuntimeError, ValueError) as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        if address:
            raise TabletopError(
                _(
                    "cannot connect to {where}: {reason} (a cluster with token "
                    "authentication, the default of 'ray start' since Ray 2.59, needs "
                    "RAY_AUTH_MODE=token and its token here too)",
                    where=where,
                    reason=first,
                )
            ) from None
        raise TabletopError(
            _("cannot connect to {where}: {reason}", where=where, reason=first)
        ) from None
    return True


def check_address(address: str) -> None:
    """A plain HOST:PORT must accept a connection (fail in seconds, not after Ray's
    retries); other forms (``auto``, ``ray://...``) are left to Ray."""
    import socket

    host, sep, port = address.rpartition(":")
    number = parse_int(port, 1, 65535) if sep and "/" not in address else None
    if number is None or not host:
        return
    try:
        socket.create_connection((host, number), timeout=5).close()
    except OSError as exc:
        raise TabletopError(
            _(
                "cannot connect to the Ray cluster at {address}: {reason}; "
                "start it with 'ray start --head' there",
                address=quote(address),
                reason=exc.strerror or str(exc),
            )
        ) from None


@contextlib.contextmanager
def _silent_stderr() -> Iterator[None]:
    """File descriptor 2 points to /dev/null inside the block (restored after)."""
    sys.stderr.flush()
    saved = os.dup(2)
    try:
        with open(os.devnull, "w") as null:
            os.dup2(null.fileno(), 2)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


def _ray(
    func: Callable[[T], R],
    items: Sequence[T],
    jobs: int,
    address: str | None,
    deliver: Callable[[int, R], None],
) -> None:
    """Batches of items as Ray tasks, at most ``jobs`` in flight; results as they come."""
    ray = import_ray()
    started = _connect(ray, jobs, address)
    try:
        task = ray.remote(num_cpus=1, max_retries=0)(_batch)
        starts = list(range(0, len(items), BATCH))
        pending: dict[Any, int] = {}
        while starts or pending:
            while starts and len(pending) < jobs:
                first = starts.pop(0)
                pending[task.remote(func, list(items[first : first + BATCH]))] = first
            done, _ = ray.wait(list(pending), num_returns=1)
            first = pending.pop(done[0])
            for offset, result in enumerate(ray.get(done[0])):
                deliver(first + offset, result)
    finally:
        if started:
            ray.shutdown()

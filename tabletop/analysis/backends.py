"""Where self-play games run: this machine's processes, or tasks on a Ray cluster.

Every task is a pure function of its item (a game is seeded by its index alone), so the
results are the same, in the same order, on either backend and any number of workers.
On Ray, items travel in batches of ``BATCH`` consecutive items per task: one task per
game costs more in scheduling than a short game takes (see ``bench/bench_analysis.py``).
"""

from __future__ import annotations

import contextlib
import logging
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from contextlib import ExitStack
from typing import Any, TypeVar

from tabletop.core.errors import TabletopError, UsageError
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
    if jobs < 1:
        raise UsageError(_("--jobs must be at least 1, not {value}", value=jobs))
    if address is not None and backend != "ray":
        raise UsageError(_("--address names a Ray cluster; use it with --backend ray"))
    if backend == "ray":
        import_ray()
        if address is not None:
            check_address(address)


def run(
    func: Callable[[T], R],
    items: Sequence[T],
    jobs: int,
    backend: str = "local",
    address: str | None = None,
    progress: Callable[[R], None] | None = None,
) -> list[R]:
    """``[func(item) for item in items]`` on ``jobs`` workers of ``backend``, each result
    handed to ``progress`` as soon as it is known. ``func`` must be a module-level function
    (it is pickled to the workers)."""
    check_backend(backend, jobs, address)
    stream = _ray(func, items, jobs, address) if backend == "ray" else _local(func, items, jobs)
    results: dict[int, R] = {}
    for position, result in stream:
        results[position] = result
        if progress:
            progress(result)
    return [results[i] for i in range(len(items))]


def _local(func: Callable[[T], R], items: Sequence[T], jobs: int) -> Iterator[tuple[int, R]]:
    with ExitStack() as stack:
        if jobs <= 1:
            yield from enumerate(map(func, items))
            return
        pool = stack.enter_context(ProcessPoolExecutor(max_workers=jobs))
        yield from enumerate(pool.map(func, items, chunksize=LOCAL_CHUNK))


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
    func: Callable[[T], R], items: Sequence[T], jobs: int, address: str | None
) -> Iterator[tuple[int, R]]:
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
                yield first + offset, result
    finally:
        if started:
            ray.shutdown()

"""No orphans (issue 39, item 6): a SIGKILL of the main process ends every process it
started, real processes all: plain ``tabletop serve`` (its computer players' workers),
``--workers 2`` (uvicorn's server processes and their workers; PostgreSQL and Redis),
and a benchmark killed while its servers run (they left 33 orphans over 11 runs)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from tests.web_support import free_port, start_process

ROOT = Path(__file__).resolve().parents[1]


def children() -> dict[int, int]:
    """Every live process's parent, by pid (zombies left out)."""
    found: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if fields[0] != "Z":
            found[int(entry.name)] = int(fields[1])
    return found


def descendants(pid: int) -> set[int]:
    parents = children()
    found: set[int] = set()
    todo = [pid]
    while todo:
        here = todo.pop()
        for child, parent in parents.items():
            if parent == here and child not in found:
                found.add(child)
                todo.append(child)
    return found


def wait_for(pid: int, at_least: int) -> set[int]:
    """The descendants of ``pid`` once there are ``at_least`` and no more come."""
    seen: set[int] = set()
    for _ in range(600):
        now = descendants(pid)
        if len(now) >= at_least and now == seen:
            return now
        seen = now
        time.sleep(0.1)
    raise AssertionError(f"{pid} started only {seen}")


def alive(pids: set[int]) -> set[int]:
    parents = children()
    return {p for p in pids if p in parents}


def killed_leaves_none(pid: int, started: set[int]) -> None:
    """SIGKILL ``pid``; every process it had started is gone soon after."""
    os.kill(pid, signal.SIGKILL)
    left = started
    for _ in range(300):
        left = alive(started)
        if not left:
            return
        time.sleep(0.1)
    for orphan in left:  # clean up before failing
        os.kill(orphan, signal.SIGKILL)
    raise AssertionError(f"orphans left: {sorted(left)}")


def answers(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=2):
            return True
    except OSError:
        return False


def test_plain_serve_killed_leaves_no_worker(tmp_path: Path) -> None:
    port = free_port()
    server = start_process(tmp_path / "m.sqlite3", port, "--ai-workers", "2")
    started = wait_for(server.pid, 2)
    killed_leaves_none(server.pid, started)
    server.wait(10)


def test_serve_workers_killed_leave_no_process(pg_url: str, redis_server: Any) -> None:
    port = free_port()
    server = start_process(pg_url, port, "--workers", "2", "--bus", redis_server.url,  # type: ignore[arg-type]
                           "--ai-workers", "1")  # fmt: skip
    started = wait_for(server.pid, 4)  # two server processes, each with a worker
    killed_leaves_none(server.pid, started)
    server.wait(10)
    assert not answers(port)


def test_a_killed_benchmark_leaves_no_server(tmp_path: Path) -> None:
    """bench/bench_web.py's ``start`` (and tests/web_support.py's, which bench_abuse and
    bench_shared use): the benchmark SIGKILLed, its servers and their workers die."""
    port = free_port()
    script = (
        "import sys, time\n"
        "from bench.bench_web import serve_command, start\n"
        f"start(serve_command({port}, {str(tmp_path / 'b.sqlite3')!r}, None), {port})\n"
        "print('up', flush=True)\n"
        "time.sleep(600)\n"
    )
    bench = subprocess.Popen([sys.executable, "-c", script], cwd=ROOT, stdout=subprocess.PIPE,
                             text=True)  # fmt: skip
    assert bench.stdout is not None and bench.stdout.readline().strip() == "up"
    started = wait_for(bench.pid, 3)  # the server and its computer players' workers
    killed_leaves_none(bench.pid, started)
    bench.wait(10)
    assert not answers(port)

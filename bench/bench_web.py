"""Web server benchmark: many concurrent Quarto matches between scripted clients, against
1 or more ``tabletop serve`` processes, beside the bare stack run by the same clients.

    python -m bench.bench_web [--matches 100,500,2000] [--seconds 10] [--modes saturated,paced]
        [--rate 1000] [--processes N --db postgresql://… --bus redis://…] [--no-baseline]
        [--idle 1000]

Starts the server (``--processes N`` of ``tabletop serve`` on free loopback ports; one
process on a fresh SQLite database by default, several need ``--db`` and ``--bus``, which
are passed through to each). Then for each count M and mode it keeps M matches going at
once: two websocket clients per match (asyncio ``websockets``; with several processes
seat 1 on process ``i % N`` and seat 2 on the next, so every action crosses processes),
the one to act sends a uniformly random legal action as soon as it has the position
(``saturated``) or on its own schedule, the matches together offering ``--rate``
actions a second with their phases spread (``paced``); a finished match is replaced by a
new one (``POST /api/matches``). The clock starts once all M matches have connected;
each level runs ``--seconds``. Reported: actions a second accepted (stored, then told),
the latency from sending an action to receiving the next position (median, p99), the
servers' CPU time per action (user + system, /proc) and the client's CPU share.

The baseline (unless ``--no-baseline``): the same clients against the bare stack
(``bench/echo_server.py``: Starlette's websocket under uvicorn with the server's
settings, relaying frames of the sizes the real server sent, matches of the length its
games had, N processes each holding whole matches), so each figure reads as a share of
what the stack allows on this machine. Finally the server's resident memory per idle
match (``--idle``; 0 skips it).

The clients run in this process on the same machine: at high counts they take a core of
their own, and the baseline shows how much that caps the figures.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

from tabletop.web.lifeline import child_dies_with_us
from tests.web_support import free_port, wait_listening

# A benchmark creates matches far faster than a person: the admission limits raised.
UNLIMITED = (
    "--max-creates-per-minute", "1000000", "--max-open-matches-per-client", "1000000",
    "--max-open-matches", "1000000", "--max-sockets-per-client", "1000000",
)  # fmt: skip
OPEN = 300.0  # seconds a handshake may take: thousands connect at once on 2 shared cores
MEASURED = ("last", "log", "position")  # the frames sent after an action, sized for the echo

OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))


@dataclass
class Stats:
    """One level's counts; nothing is counted before ``began`` (all matches connected)."""

    began: float = 0.0
    deadline: float = float("inf")
    actions: int = 0
    matches: int = 0
    latencies: list[float] = field(default_factory=list)
    lengths: list[int] = field(default_factory=list)  # actions of each finished game
    sizes: dict[str, list[int]] = field(default_factory=dict)  # type -> [characters, count]
    server_cpu: float = 0.0  # seconds the servers spent between began and the deadline
    client_cpu: float = 0.0  # ... and this process

    @property
    def counting(self) -> bool:
        return self.began > 0


def create_match(base: str, body: dict[str, Any]) -> dict[str, Any]:
    """``POST /api/matches`` with ``body``; the links."""
    request = urllib.request.Request(
        base + "api/matches", json.dumps(body).encode(), {"content-type": "application/json"}
    )
    with OPENER.open(request, timeout=120) as answer:
        data: dict[str, Any] = json.loads(answer.read())
        return data


def create(base: str) -> dict[str, Any]:
    return create_match(base, {"game": "quarto", "spectators": False})


class Seat:
    """One player's websocket and the positions it received, in order."""

    def __init__(self, ws: ClientConnection, stats: Stats) -> None:
        self.ws = ws
        self.stats = stats
        self.queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.task = asyncio.create_task(self.read())

    async def read(self) -> None:
        async for text in self.ws:
            message = json.loads(text)
            kind = message["type"]
            if kind in MEASURED and message.get("number", 0) > 0:
                size = self.stats.sizes.setdefault(kind, [0, 0])
                size[0] += len(text)
                size[1] += 1
            if kind == "position":
                self.queue.put_nowait(message)

    async def at(self, number: int) -> dict[str, Any]:
        while True:
            position = await self.queue.get()
            if position["number"] >= number:
                return position


@dataclass
class Target:
    """The servers under test: ``bases`` (``http://127.0.0.1:P/``), their pids, and how a
    match is spread over them (``route(i)``: where match ``i`` is created, where each of
    its two seats connects)."""

    name: str
    bases: list[str]
    pids: list[int]
    cross: bool  # seats of one match on different processes (the real server's bus)

    def route(self, i: int) -> tuple[str, str, str]:
        n = len(self.bases)
        first = self.bases[i % n]
        second = self.bases[(i + 1) % n] if self.cross else first
        return first, first, second


async def one_match(
    target: Target, index: int, stats: Stats, rng: random.Random, gap: float,
    ready: Callable[[], None], go: asyncio.Event,
) -> None:  # fmt: skip
    home, one_base, two_base = target.route(index)
    made = await asyncio.to_thread(create, home)
    tokens = [s["token"] for s in made["seats"]]
    urls = [
        f"{b.replace('http://', 'ws://')}ws/{made['id']}?token={t}"
        for b, t in zip((one_base, two_base), tokens, strict=True)
    ]
    async with (
        connect(urls[0], compression=None, max_size=2**24, open_timeout=OPEN) as one,
        connect(urls[1], compression=None, max_size=2**24, open_timeout=OPEN) as two,
    ):
        seats = {1: Seat(one, stats), 2: Seat(two, stats)}
        positions = {1: await seats[1].at(0), 2: await seats[2].at(0)}
        ready()
        await go.wait()
        number = 0
        due = time.perf_counter() + rng.random() * gap  # paced: phases spread over a gap
        while time.perf_counter() < stats.deadline:
            if gap:  # paced: one action every ``gap`` seconds in this match (open loop)
                await asyncio.sleep(max(0.0, due - time.perf_counter()))
                due += gap
            if positions[1]["status"] == "over":
                stats.matches += 1
                stats.lengths.append(number)
                break
            actor = positions[1]["to_act"]
            legal = positions[actor]["legal"]
            message = {"type": "action", "action": rng.choice(legal), "number": number}
            began = time.perf_counter()
            await seats[actor].ws.send(json.dumps(message))
            positions[actor] = await seats[actor].at(number + 1)
            if began < stats.deadline:
                stats.latencies.append(time.perf_counter() - began)
                stats.actions += 1
            other = 3 - actor
            positions[other] = await seats[other].at(number + 1)
            number += 1
        for seat in seats.values():
            seat.task.cancel()


async def slot(
    target: Target, index: int, stats: Stats, gap: float,
    ready: Callable[[], None], go: asyncio.Event,
) -> None:  # fmt: skip
    rng = random.Random(index)
    first = True
    while time.perf_counter() < stats.deadline:
        await one_match(target, index, stats, rng, gap, ready if first else lambda: None, go)
        first = False


def client_seconds() -> float:
    mine = os.times()
    return mine.user + mine.system


async def window(target: Target, stats: Stats, go: asyncio.Event) -> None:
    """The servers' and the client's CPU time over the measured window only."""
    await go.wait()
    server, client = sum(cpu_seconds(p) for p in target.pids), client_seconds()
    await asyncio.sleep(max(0.0, stats.deadline - time.perf_counter()))
    stats.server_cpu = sum(cpu_seconds(p) for p in target.pids) - server
    stats.client_cpu = client_seconds() - client


async def run_level(
    target: Target, matches: int, seconds: float, rate: float = 0.0
) -> tuple[Stats, float]:
    """Drive ``matches`` matches for ``seconds`` once all have connected: as fast as the
    server answers, or with ``rate`` actions a second in all. Creating and connecting
    them is not measured."""
    gap = matches / rate if rate else 0.0
    stats = Stats()
    go = asyncio.Event()
    waiting = [matches]

    def ready() -> None:
        waiting[0] -= 1
        if waiting[0] == 0:
            stats.began = time.perf_counter()
            stats.deadline = stats.began + seconds
            go.set()

    await asyncio.gather(
        window(target, stats, go), *(slot(target, i, stats, gap, ready, go) for i in range(matches))
    )
    return stats, stats.deadline - stats.began


def cpu_seconds(pid: int) -> float:
    """User + system CPU time the process has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def start(command: list[str], port: int) -> subprocess.Popen[str]:
    """``command`` in its own process, listening on ``port`` once this returns."""
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    process = subprocess.Popen(
        command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env,
        preexec_fn=child_dies_with_us,  # the benchmark killed: its servers too
    )  # fmt: skip
    wait_listening(port, process)
    return process


def serve_command(port: int, db: str, bus: str | None) -> list[str]:
    """``tabletop serve`` on ``port`` with ``db`` (a path or URL) and ``bus`` passed through."""
    command = [sys.executable, "-m", "tabletop", "serve", "--port", str(port), "--db", db]
    return [*command, *(["--bus", bus] if bus else []), *UNLIMITED]


def echo_command(port: int, length: int, sizes: dict[str, int]) -> list[str]:
    shape = ",".join(f"{k}={v}" for k, v in sizes.items())
    return [sys.executable, "-m", "bench.echo_server", "--port", str(port),
            "--length", str(length), "--sizes", shape]  # fmt: skip


def launch(name: str, commands: list[tuple[list[str], int]], cross: bool) -> tuple[
    Target, list[subprocess.Popen[str]]
]:  # fmt: skip
    processes = [start(command, port) for command, port in commands]
    bases = [f"http://127.0.0.1:{port}/" for _, port in commands]
    return Target(name, bases, [p.pid for p in processes], cross), processes


def stop(processes: list[subprocess.Popen[str]]) -> None:
    for process in processes:
        process.kill()
        process.wait()


@dataclass
class Row:
    target: str
    matches: int
    mode: str
    offered: float
    actions: float
    median: float
    p99: float
    games: int
    cpu_ms: float
    client: float  # the client process's CPU share of one core


HEADER = (
    f"{'target':>8} {'matches':>8} {'mode':>10} {'offered/s':>10} {'actions/s':>10} "
    f"{'median ms':>10} {'p99 ms':>8} {'games':>6} {'srv CPU ms/act':>15} {'client CPU':>10}"
)


def show(row: Row, share: str = "") -> str:
    offered = f"{row.offered:.0f}" if row.offered else "-"
    return (
        f"{row.target:>8} {row.matches:>8} {row.mode:>10} {offered:>10} {row.actions:>10.0f} "
        f"{row.median:>10.1f} {row.p99:>8.1f} {row.games:>6} {row.cpu_ms:>15.2f} "
        f"{row.client:>9.0%}{share}"
    )


def measure(target: Target, count: int, mode: str, seconds: float, rate: float) -> tuple[
    Row, Stats
]:  # fmt: skip
    """One level against ``target``."""
    stats, elapsed = asyncio.run(
        run_level(target, count, seconds, rate if mode == "paced" else 0.0)
    )
    cpu = stats.server_cpu / max(1, stats.actions)
    client = stats.client_cpu / elapsed
    lat = sorted(stats.latencies)
    p99 = lat[min(len(lat) - 1, int(len(lat) * 0.99))] if lat else float("nan")
    median = statistics.median(lat) if lat else float("nan")
    row = Row(
        target.name, count, mode, rate if mode == "paced" else 0.0,
        stats.actions / elapsed, median * 1000, p99 * 1000, stats.matches, cpu * 1000, client,
    )  # fmt: skip
    return row, stats


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", default="100,500,2000")
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--modes", default="saturated,paced", help="saturated, paced or both")
    parser.add_argument(
        "--rate", type=float, default=1000.0,
        help="paced: actions a second in all, spread across the matches",
    )  # fmt: skip
    parser.add_argument("--processes", type=int, default=1, help="tabletop serve processes")
    parser.add_argument("--db", default="", help="passed to each tabletop serve (default: "
                        "a fresh SQLite file; several processes need postgresql://…)")  # fmt: skip
    parser.add_argument("--bus", default="", help="redis://… passed to each tabletop serve")
    parser.add_argument("--no-baseline", action="store_true", help="skip the echo baseline")
    parser.add_argument("--idle", type=int, default=0, help="idle matches for the memory figure")
    args = parser.parse_args()
    modes = [m for m in args.modes.split(",") if m]
    if not set(modes) <= {"saturated", "paced"} or not modes:
        parser.error(f"--modes takes saturated, paced or both, not {args.modes!r}")
    if args.processes < 1:
        parser.error("--processes must be 1 or more")
    if args.processes > 1 and not (args.db.startswith("postgresql://") and args.bus):
        parser.error(
            "several processes share matches only on --db postgresql://… with --bus "
            "redis://… (issue 25); one process runs on SQLite"
        )
    args.modes = modes
    return args


def main() -> None:
    args = parse_args()
    counts = [int(c) for c in args.matches.split(",")]
    with tempfile.TemporaryDirectory() as folder:
        if args.idle:
            print(idle_memory(Path(folder) / "idle.sqlite3", args.idle), flush=True)
        db = args.db or str(Path(folder) / "bench.sqlite3")
        ports = [free_port() for _ in range(args.processes)]
        commands = [(serve_command(p, db, args.bus or None), p) for p in ports]
        target, processes = launch("serve", commands, cross=True)
        store = "as given" if args.db else "a fresh SQLite file"
        print(f"{args.processes} tabletop serve process(es), db {store}; {os.cpu_count()} cores")
        print(HEADER, flush=True)
        rows: dict[tuple[int, str], Row] = {}
        sizes: dict[str, list[int]] = {}
        lengths: list[int] = []
        try:
            for count in counts:
                for mode in args.modes:
                    row, stats = measure(target, count, mode, args.seconds, args.rate)
                    rows[count, mode] = row
                    for kind, (chars, n) in stats.sizes.items():
                        total = sizes.setdefault(kind, [0, 0])
                        total[0] += chars
                        total[1] += n
                    lengths += stats.lengths
                    print(show(row), flush=True)
        finally:
            stop(processes)
        if args.no_baseline:
            return
        shape = {kind: chars // max(1, n) for kind, (chars, n) in sizes.items()}
        length = round(statistics.mean(lengths)) if lengths else 20
        print(f"echo baseline: frames of {shape} characters, games of {length} actions")
        ports = [free_port() for _ in range(args.processes)]
        echo, processes = launch(
            "echo", [(echo_command(p, length, shape), p) for p in ports], cross=False
        )
        try:
            for count in counts:
                for mode in args.modes:
                    row, _ = measure(echo, count, mode, args.seconds, args.rate)
                    real = rows[count, mode]
                    share = real.actions / max(1e-9, row.actions)
                    cpu = row.cpu_ms / max(1e-9, real.cpu_ms)
                    print(show(row, f"   serve: {share:.0%} of echo's actions/s, echo's CPU "
                               f"an action {cpu:.0%} of serve's"), flush=True)  # fmt: skip
        finally:
            stop(processes)


def idle_memory(db: Path, count: int) -> str:
    """A fresh server's RSS growth per match created and left idle."""
    port = free_port()
    server = start(serve_command(port, str(db), None), port)
    base = f"http://127.0.0.1:{port}/"
    try:
        create(base)  # warm up: the first match loads what every match shares
        time.sleep(0.5)
        before = rss_kib(server.pid)
        for _ in range(count):
            create(base)
        time.sleep(0.5)
        after = rss_kib(server.pid)
    finally:
        stop([server])
    return (
        f"idle matches: {count}; server RSS {before} KiB -> {after} KiB: "
        f"{(after - before) / count:.1f} KiB per idle match"
    )


if __name__ == "__main__":
    main()

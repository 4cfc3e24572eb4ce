"""Web server benchmark: many concurrent Quarto matches between scripted clients.

    python -m bench.bench_web [--matches 10,100,500] [--seconds 15] [--idle 1000]

Starts ``tabletop serve`` as its own process on a free loopback port with a fresh
database, then for each count N keeps N matches going at once: two websocket clients per
match (asyncio ``websockets``), the one to act sends a uniformly random legal action as
soon as it has the position, a finished match is replaced by a new one (created through
``POST /api/matches``). Bounded: ``--seconds`` per count. Reports actions per second
accepted (stored, then told), position messages per second broadcast, and the latency
from sending an action to receiving the next position (median, p99). Finally the
server's resident memory per idle match: RSS after creating ``--idle`` matches that
nobody joins, minus before, divided by their count.

The clients run in this process on the same machine, so the figures are a lower bound of
what the server alone does; the server's own CPU time per action (user + system, from
/proc) says what one core of it would sustain.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

from tests.web_support import free_port, start_process

# A benchmark creates matches far faster than a person: the admission limits raised.
UNLIMITED = (
    "--max-creates-per-minute", "1000000", "--max-open-matches-per-client", "1000000",
    "--max-open-matches", "1000000", "--max-sockets-per-client", "1000000",
)  # fmt: skip

OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))


@dataclass
class Stats:
    actions: int = 0
    positions: int = 0
    matches: int = 0
    latencies: list[float] = field(default_factory=list)


def create_match(base: str, body: dict[str, Any]) -> dict[str, Any]:
    """``POST /api/matches`` with ``body``; the links."""
    request = urllib.request.Request(
        base + "api/matches", json.dumps(body).encode(), {"content-type": "application/json"}
    )
    with OPENER.open(request, timeout=60) as answer:
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
            if message["type"] == "position":
                self.stats.positions += 1
                self.queue.put_nowait(message)

    async def at(self, number: int) -> dict[str, Any]:
        while True:
            position = await self.queue.get()
            if position["number"] >= number:
                return position


async def one_match(
    base: str, ws_base: str, stats: Stats, rng: random.Random, deadline: float, gap: float
) -> None:
    made = await asyncio.to_thread(create, base)
    urls = [f"{ws_base}ws/{made['id']}?token={s['token']}" for s in made["seats"]]
    async with (
        connect(urls[0], compression=None) as one,
        connect(urls[1], compression=None) as two,
    ):
        seats = {1: Seat(one, stats), 2: Seat(two, stats)}
        positions = {1: await seats[1].at(0), 2: await seats[2].at(0)}
        number = 0
        due = time.perf_counter()
        while time.perf_counter() < deadline:
            if gap:  # paced: one action every ``gap`` seconds in this match (open loop)
                due += gap
                await asyncio.sleep(max(0.0, due - time.perf_counter()))
            actor = positions[1]["to_act"]
            if positions[1]["status"] == "over":
                stats.matches += 1
                break
            legal = positions[actor]["legal"]
            message = {"type": "action", "action": rng.choice(legal), "number": number}
            began = time.perf_counter()
            await seats[actor].ws.send(json.dumps(message))
            positions[actor] = await seats[actor].at(number + 1)
            stats.latencies.append(time.perf_counter() - began)
            stats.actions += 1
            other = 3 - actor
            positions[other] = await seats[other].at(number + 1)
            number += 1
        for seat in seats.values():
            seat.task.cancel()


async def slot(
    base: str, ws_base: str, stats: Stats, seed: int, deadline: float, gap: float
) -> None:
    rng = random.Random(seed)
    while time.perf_counter() < deadline:
        await one_match(base, ws_base, stats, rng, deadline, gap)


async def run_level(
    base: str, matches: int, seconds: float, rate: float = 0.0
) -> tuple[Stats, float]:
    """Drive ``matches`` matches for ``seconds``: as fast as the server answers, or with
    ``rate`` actions a second in all (each match paced at ``rate / matches``)."""
    gap = matches / rate if rate else 0.0
    stats = Stats()
    ws_base = base.replace("http://", "ws://")
    began = time.perf_counter()
    deadline = began + seconds
    await asyncio.gather(
        *(slot(base, ws_base, stats, i, deadline, gap) for i in range(matches))
    )
    return stats, time.perf_counter() - began


def cpu_seconds(pid: int) -> float:
    """User + system CPU time the process has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", default="10,100,500")
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--idle", type=int, default=1000)
    parser.add_argument(
        "--rate",
        type=float,
        default=0.0,
        help="actions a second in all, paced across the matches (0: as fast as answered)",
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        print(idle_memory(Path(folder) / "idle.sqlite3", args.idle), flush=True)
        port = free_port()
        server = start_process(Path(folder) / "bench.sqlite3", port, *UNLIMITED)
        base = f"http://127.0.0.1:{port}/"
        try:
            print(f"{'matches':>8} {'actions/s':>10} {'positions/s':>12} {'median ms':>10} "
                  f"{'p99 ms':>8} {'games':>6} {'server CPU ms/action':>21}")  # fmt: skip
            for count in (int(c) for c in args.matches.split(",")):
                cpu = cpu_seconds(server.pid)
                stats, elapsed = asyncio.run(run_level(base, count, args.seconds, args.rate))
                cpu = (cpu_seconds(server.pid) - cpu) / max(1, stats.actions)
                lat = sorted(stats.latencies)
                p99 = lat[min(len(lat) - 1, int(len(lat) * 0.99))] if lat else float("nan")
                median = statistics.median(lat) if lat else float("nan")
                print(
                    f"{count:>8} {stats.actions / elapsed:>10.0f} "
                    f"{stats.positions / elapsed:>12.0f} {median * 1000:>10.1f} "
                    f"{p99 * 1000:>8.1f} {stats.matches:>6} {cpu * 1000:>21.2f}",
                    flush=True,
                )
        finally:
            server.kill()
            server.wait()


def idle_memory(db: Path, count: int) -> str:
    """A fresh server's RSS growth per match created and left idle."""
    port = free_port()
    server = start_process(db, port, *UNLIMITED)
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
        server.kill()
        server.wait()
    return (
        f"idle matches: {count}; server RSS {before} KiB -> {after} KiB: "
        f"{(after - before) / count:.1f} KiB per idle match"
    )


if __name__ == "__main__":
    main()

"""What one visitor's load does to another person's match (issue 22).

    python -m bench.bench_abuse computers [--matches 20] [--actions 40]
    python -m bench.bench_abuse spectators [--spectators 2000] [--seconds 60] [--rate R]
    python -m bench.bench_abuse hints [--inflight 40] [--actions 40] [--sockets N]
    python -m bench.bench_abuse level5 [--matches 20] [--actions 40] [--sockets N]

``computers``: a ``tabletop serve`` process started with ``--allow-computer-matches``
runs ``--matches`` Quarto matches of level 5 against level 5 (computer seats think in the
server's worker processes); meanwhile a person plays another Quarto match against level
1. Reported: the person's acknowledgement (action sent until the position with it
arrives: stored, then told) and the level-1 reply (from that acknowledgement until the
position where the person is to act again), median, p99 and longest, beside the same
figures with no other match running.

``spectators``: one Quartino match between two scripted persons (random play lasts
hundreds of actions); ``--spectators`` idle websockets join it from a process of their own
as fast as the server takes them (200 handshakes in flight at once), or ``--rate`` a second,
while the two persons keep acting in it.
Reported: how long until every spectator has its first position, and the persons'
acknowledgement latency (median, p99, longest) while they join and for 10 s after, with
all of them watching, and the share of a core the server, the crowd's process and the
persons' process used meanwhile.

``hints`` and ``level5`` (issue 39, fair computer time): one attacking address
(127.0.0.2) does its worst while a person (127.0.0.1) plays against level 1: ``hints``
keeps ``--inflight`` hint requests in flight on a match of its own; ``level5`` plays
``--matches`` matches against level 5 as fast as it can (a scripted person). Reported:
the person's level-1 reply (median, p99) idle and under the attack, in the same run on a
server with ``--ai-workers 2``, and the ratio of the p99s (the goal: within 3x); then the
attacker's answers by status and how many of its requests were still unanswered at the
end (held by the server until their ``Retry-After``: :mod:`tabletop.web.tarpit`).
``--sockets N`` starts the server with ``--max-sockets-per-client N`` (default: none),
which also bounds the requests of one address held at once: past it they are turned
away at once.

Everything runs on this machine: the clients share its cores with the server.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

from bench.bench_web import OPENER, UNLIMITED, create_match
from tests.web_support import free_port, start_process


def summary(name: str, seconds: list[float]) -> str:
    ordered = sorted(seconds)
    p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
    return (
        f"{name}: n={len(ordered)} median {statistics.median(ordered) * 1000:.1f} ms, "
        f"p99 {p99 * 1000:.1f} ms, longest {ordered[-1] * 1000:.1f} ms"
    )


async def positions(ws: ClientConnection, number: int) -> dict[str, Any]:
    """Read until the position numbered ``number`` or later."""
    while True:
        message = json.loads(await ws.recv())
        if message["type"] == "position" and message["number"] >= number:
            return message  # type: ignore[no-any-return]


async def person_against_level_1(base: str, actions: int) -> tuple[list[float], list[float]]:
    """A person plays Quarto against level 1 (new matches as needed); their
    acknowledgement and the computer's reply, in seconds."""
    acks: list[float] = []
    replies: list[float] = []
    rng = random.Random(0)
    while len(acks) < actions:
        made = create_match(base, {"game": "quarto", "seats": [{"seat": 2, "ai": "1"}]})
        url = (
            base.replace("http://", "ws://") + f"ws/{made['id']}?token={made['seats'][0]['token']}"
        )
        async with connect(url, max_size=2**22) as ws:
            position = await positions(ws, 0)
            while position["status"] == "ongoing" and len(acks) < actions:
                number = position["number"]
                sent = time.perf_counter()
                action = rng.choice(position["legal"])
                await ws.send(json.dumps({"type": "action", "action": action, "number": number}))
                position = await positions(ws, number + 1)
                acked = time.perf_counter()
                acks.append(acked - sent)
                while position["status"] == "ongoing" and position["to_act"] != 1:
                    position = await positions(ws, position["number"] + 1)
                if position["status"] == "ongoing" and position["number"] > number + 1:
                    replies.append(time.perf_counter() - acked)
    return acks, replies


def computers(matches: int, actions: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        port = free_port()
        server = start_process(
            Path(folder) / "bench.sqlite3", port, "--allow-computer-matches", *UNLIMITED
        )
        base = f"http://127.0.0.1:{port}/"
        try:
            asyncio.run(person_against_level_1(base, 5))  # the workers started
            idle = asyncio.run(person_against_level_1(base, actions))
            body = {"game": "quarto", "seats": [{"seat": 1, "ai": "5"}, {"seat": 2, "ai": "5"}]}
            for _ in range(matches):
                create_match(base, body)
            time.sleep(2)  # every computer match thinking
            before = computer_actions(base)
            busy = asyncio.run(person_against_level_1(base, actions))
            played = computer_actions(base) - before
        finally:
            server.terminate()
            server.wait(30)
    print(summary("acknowledgement, nothing else running", idle[0]))
    print(summary("level-1 reply, nothing else running", idle[1]))
    print(summary(f"acknowledgement, {matches} level-5 matches running", busy[0]))
    print(summary(f"level-1 reply, {matches} level-5 matches running", busy[1]))
    print(f"the level-5 matches played {played} actions meanwhile")


def computer_actions(base: str) -> int:
    """Actions played so far in the matches of computers only (the lobby's listing)."""
    with OPENER.open(base + "api/matches", timeout=60) as answer:
        listing = json.loads(answer.read())
    return sum(
        m["number"] for m in listing["matches"] if all(s["kind"] == "computer" for s in m["seats"])
    )


async def spectate(url: str, joined: list[float], start: float, gate: asyncio.Semaphore,
                   stop: asyncio.Event, after: float = 0.0) -> None:  # fmt: skip
    await asyncio.sleep(after)
    async with gate:
        ws = await connect(url, max_size=2**22, open_timeout=120)
        await positions(ws, 0)
        joined.append(time.perf_counter() - start)
    try:
        while not stop.is_set():
            try:
                await asyncio.wait_for(ws.recv(), timeout=1)
            except TimeoutError:
                continue
    finally:
        await ws.close()


class Player:
    """A seat's websocket whose positions a background task keeps reading."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.position: dict[str, Any] = {"number": -1}
        self.changed = asyncio.Event()
        self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        async for text in self.ws:
            message = json.loads(text)
            if message["type"] == "position":
                self.position = message
                self.changed.set()

    async def at(self, number: int) -> dict[str, Any]:
        while self.position["number"] < number:
            self.changed.clear()
            await self.changed.wait()
        return self.position


async def two_players(
    base: str, made: dict[str, Any], stop: asyncio.Event, acks: list[float]
) -> None:
    """Two persons play the watched Quartino match (random play lasts hundreds of actions),
    an action every 50 ms, never a claim (a false one is refused); each acknowledgement's
    latency goes to ``acks``."""
    rng = random.Random(1)
    socket_url = base.replace("http://", "ws://") + f"ws/{made['id']}?token="
    seats = [Player(await connect(socket_url + s["token"], max_size=2**22)) for s in made["seats"]]
    position = await seats[0].at(0)
    while position["status"] == "ongoing" and not stop.is_set():
        mover = seats[position["to_act"] - 1]
        number = position["number"]
        legal = (await mover.at(number))["legal"]
        action = rng.choice([a for a in legal if not a.startswith("claim")] or legal)
        sent = time.perf_counter()
        await mover.ws.send(json.dumps({"type": "action", "action": action, "number": number}))
        position = await mover.at(number + 1)
        acks.append(time.perf_counter() - sent)
        await asyncio.sleep(0.05)
    for seat in seats:
        await seat.ws.close()
        seat.reader.cancel()


async def crowd_run(url: str, count: int, seconds: float, rate: float, tell: Any) -> None:
    """``count`` spectators join ``url`` (200 handshakes in flight, or ``rate`` a second);
    ``tell`` gets the seconds until all had a first position, then the run stops when
    ``tell`` says so."""
    stop = asyncio.Event()
    joined: list[float] = []
    start = time.perf_counter()
    gate = asyncio.Semaphore(200)
    watchers = [
        asyncio.create_task(spectate(url, joined, start, gate, stop, i / rate if rate else 0.0))
        for i in range(count)
    ]
    deadline = start + seconds
    while len(joined) < count and time.perf_counter() < deadline:
        await asyncio.sleep(0.2)
    tell.send((len(joined), time.perf_counter() - start))
    await asyncio.get_running_loop().run_in_executor(None, tell.recv)
    stop.set()
    await asyncio.gather(*watchers, return_exceptions=True)


def crowd(url: str, count: int, seconds: float, rate: float, tell: Any) -> None:
    asyncio.run(crowd_run(url, count, seconds, rate, tell))


def cpu_seconds(pid: int) -> float:
    """User plus system CPU seconds process ``pid`` has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def spectators_run(base: str, server: int, count: int, seconds: float, rate: float) -> None:
    """The two persons play in this process; the crowd watches from another, so a
    person's acknowledgement is not measured behind 2,000 sockets' reading in one loop."""
    made = create_match(base, {"game": "quartino", "players": 2, "spectators": True})
    url = base.replace("http://", "ws://") + f"ws/{made['id']}"
    stop = asyncio.Event()
    acks: list[float] = []
    players = asyncio.create_task(two_players(base, made, stop, acks))
    await asyncio.sleep(1)
    mine, theirs = multiprocessing.Pipe()
    watching = multiprocessing.get_context("spawn").Process(
        target=crowd, args=(url, count, seconds, rate, theirs)
    )
    watching.start()
    assert watching.pid is not None
    loop = asyncio.get_running_loop()
    joined, took = await loop.run_in_executor(None, mine.recv)
    during = len(acks)
    before = {name: cpu_seconds(pid) for name, pid in
              (("server", server), ("crowd", watching.pid), ("persons", os.getpid()))}  # fmt: skip
    await asyncio.sleep(10)  # the crowd watching: every action told to all of them
    used = {name: cpu_seconds(pid) - before[name] for name, pid in
            (("server", server), ("crowd", watching.pid), ("persons", os.getpid()))}  # fmt: skip
    stop.set()
    mine.send("stop")
    await players
    await loop.run_in_executor(None, watching.join, 60)
    print(f"spectators connected: {joined} of {count} in {took:.1f} s")
    print(summary("acknowledgement while they joined", acks[:during]))
    print(summary(f"acknowledgement with {joined} watching, the next 10 s", acks[during:]))
    print("CPU share of one core in those 10 s: " + ", ".join(
        f"{name} {seconds / 10:.0%}" for name, seconds in used.items()))  # fmt: skip


def spectators(count: int, seconds: float, rate: float) -> None:
    with tempfile.TemporaryDirectory() as folder:
        port = free_port()
        server = start_process(Path(folder) / "bench.sqlite3", port, *UNLIMITED)
        try:
            run = spectators_run(f"http://127.0.0.1:{port}/", server.pid, count, seconds, rate)
            asyncio.run(run)
        finally:
            server.terminate()
            server.wait(30)


ATTACKER = "127.0.0.2"  # another address on the loopback


def request_from(base: str, method: str, path: str, body: Any = None) -> tuple[int, Any]:
    """An HTTP request from :data:`ATTACKER`; the status and the decoded answer."""
    import http.client

    host, port = base.split("//")[1].strip("/").split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=300,
                                      source_address=(ATTACKER, 0))  # fmt: skip
    try:
        data = json.dumps(body).encode() if body is not None else None
        conn.request(method, path, data, {"content-type": "application/json"})
        answer = conn.getresponse()
        return answer.status, json.loads(answer.read() or b"null")
    finally:
        conn.close()


def hint_flood(base: str, stop: Any, inflight: int, counts: dict[int, int]) -> list[Any]:
    """Threads keeping ``inflight`` hint requests in flight on the attacker's match."""
    import threading

    status, made = request_from(base, "POST", "/api/matches",
                                {"game": "quarto", "seats": [{"seat": 2, "ai": "1"}]})  # fmt: skip
    assert status == 201, made
    path = f"/api/matches/{made['id']}/hint?token={made['seats'][0]['token']}"

    def loop() -> None:
        while not stop.is_set():
            status, _ = request_from(base, "GET", path)
            counts[status] = counts.get(status, 0) + 1

    threads = [threading.Thread(target=loop, daemon=True) for _ in range(inflight)]
    for thread in threads:
        thread.start()
    return threads


def level5_players(base: str, stop: Any, matches: int, counts: dict[int, int]) -> list[Any]:
    """Threads each playing matches against level 5 as fast as it may (the attacker
    creates them; a person's action the moment it is their turn)."""
    import threading

    from websockets.sync.client import connect as connect_sync

    def loop(seed: int) -> None:
        rng = random.Random(seed)
        while not stop.is_set():
            body = {"game": "quarto", "seats": [{"seat": 2, "ai": "5"}]}
            status, made = request_from(base, "POST", "/api/matches", body)
            if status != 201:
                counts[status] = counts.get(status, 0) + 1
                time.sleep(1)
                continue
            url = (
                base.replace("http://", "ws://")
                + f"ws/{made['id']}?token={made['seats'][0]['token']}"
            )
            with connect_sync(url, max_size=2**22) as ws:
                while not stop.is_set():
                    try:
                        message = json.loads(ws.recv(1))
                    except TimeoutError:
                        continue
                    if message["type"] != "position":
                        continue
                    if message["status"] != "ongoing":
                        counts[0] = counts.get(0, 0) + 1  # a match played out
                        break
                    if message["to_act"] == 1:
                        action = rng.choice(message["legal"])
                        ws.send(json.dumps({"type": "action", "action": action,
                                            "number": message["number"]}))  # fmt: skip
                        counts[200] = counts.get(200, 0) + 1

    threads = [threading.Thread(target=loop, args=(i,), daemon=True) for i in range(matches)]
    for thread in threads:
        thread.start()
    return threads


def attacker(kind: str, base: str, size: int, stop: Any, told: Any) -> None:
    """The attack, in a process of its own (its threads never hold the person's client's
    interpreter lock) at the lowest CPU priority: on this one machine it stands for a
    client elsewhere, whose own CPU is not the server's; its answers' counts and how
    many requests were still unanswered (held by the server) put on ``told`` at the end."""
    import threading

    os.nice(19)

    local = threading.Event()
    counts: dict[int, int] = {}
    start = hint_flood if kind == "hints" else level5_players
    threads = start(base, local, size, counts)
    stop.wait()
    local.set()
    deadline = time.monotonic() + 5  # a request held until its Retry-After: not awaited
    for thread in threads:
        thread.join(max(0.0, deadline - time.monotonic()))
    told.put((dict(counts), sum(thread.is_alive() for thread in threads)))


def attack(kind: str, size: int, actions: int, sockets: int = 0) -> None:
    """The person's level-1 reply idle, then under the attack ``kind``; the ratio.
    ``sockets``: the server's ``--max-sockets-per-client`` (0: unlimited), which also
    bounds the hints of one address held at once (past it they are turned away)."""
    limit = ("--max-sockets-per-client", str(sockets)) if sockets else ()
    with tempfile.TemporaryDirectory() as folder:
        port = free_port()
        server = start_process(Path(folder) / "bench.sqlite3", port, "--ai-workers", "2",
                               *UNLIMITED, *limit)  # fmt: skip
        base = f"http://127.0.0.1:{port}/"
        context = multiprocessing.get_context("spawn")
        stop, told = context.Event(), context.Queue()
        counts: dict[int, int] = {}
        held = 0
        try:
            asyncio.run(person_against_level_1(base, 5))  # the workers started
            idle = asyncio.run(person_against_level_1(base, actions))
            worst = context.Process(target=attacker, args=(kind, base, size, stop, told))
            worst.start()
            time.sleep(5)  # the attack under way
            busy = asyncio.run(person_against_level_1(base, actions))
            stop.set()
            counts, held = told.get(timeout=120)
            worst.join(60)
        finally:
            stop.set()
            server.terminate()
            server.wait(30)
    what = f"{size} hints in flight" if kind == "hints" else f"{size} matches against level 5"
    print(summary("level-1 reply, idle", idle[1]))
    print(summary(f"level-1 reply, one address with {what}", busy[1]))
    p99 = [sorted(r)[min(len(r) - 1, int(0.99 * len(r)))] for r in (idle[1], busy[1])]
    print(f"p99 ratio under attack / idle: {p99[1] / p99[0]:.2f}x "
          f"(attacker's answers by status: {dict(sorted(counts.items()))}, "
          f"{held} still unanswered at the end)")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("scenario", choices=["computers", "spectators", "hints", "level5"])
    parser.add_argument("--inflight", type=int, default=40)
    parser.add_argument("--matches", type=int, default=20)
    parser.add_argument("--actions", type=int, default=40)
    parser.add_argument(
        "--sockets", type=int, default=0, help="the server's --max-sockets-per-client (0: none)"
    )
    parser.add_argument("--spectators", type=int, default=2000)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument(
        "--rate", type=float, default=0.0, help="spectators joining a second (0: all at once)"
    )
    args = parser.parse_args()
    if args.scenario == "computers":
        computers(args.matches, args.actions)
    elif args.scenario in ("hints", "level5"):
        size = args.inflight if args.scenario == "hints" else args.matches
        attack(args.scenario, size, args.actions, args.sockets)
    else:
        spectators(args.spectators, args.seconds, args.rate)


if __name__ == "__main__":
    main()

"""Several `tabletop serve` processes sharing every match on one PostgreSQL and one Redis
(issue 25), real servers and real processes, nothing mocked:

- two and three servers: a whole game of each built-in game, its seats and a spectator
  on different servers, and the hidden-information sweep over every message of every
  connection (tests/test_web_hidden.py);
- concurrent actions at one position number through two servers: exactly one accepted,
  the other refused as stale;
- a server SIGKILLed mid-game, several times: its player reconnects to another and
  finishes, every acknowledged action is in the record, the computer seat moves once
  (its lease passes on), and the clock is the stored one (never fresh);
- the clock ends a game on time once, whichever server rings first;
- Redis stopped and restarted mid-game: play goes on;
- `--workers 2` on one port, and nginx (docs/deploy/nginx.conf) in front of two servers.
"""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from tabletop.core.match import Match
from tabletop.core.records import Record
from tabletop.core.registry import registry
from tests import test_web_hidden as hidden
from tests.web_support import Client, Message, first_move, free_port, get, post, start_process

ROOT = Path(__file__).resolve().parents[1]


class Cluster:
    """``tabletop serve`` processes on one PostgreSQL database and one Redis."""

    def __init__(self, db: str, bus: str) -> None:
        self.db, self.bus = db, bus
        self.processes: list[subprocess.Popen[str] | None] = []
        self.ports: list[int] = []

    def start(self, index: int | None = None) -> str:
        """Start a server (a new one, or again the one at ``index``); its base URL."""
        port = free_port() if index is None else self.ports[index]
        process = start_process(self.db, port, "--bus", self.bus)  # type: ignore[arg-type]
        if index is None:
            self.processes.append(process)
            self.ports.append(port)
        else:
            self.processes[index] = process
        return f"http://127.0.0.1:{port}/"

    def base(self, index: int) -> str:
        return f"http://127.0.0.1:{self.ports[index]}/"

    def kill(self, index: int) -> None:
        process = self.processes[index]
        assert process is not None
        process.send_signal(signal.SIGKILL)
        process.wait(10)
        self.processes[index] = None

    def close(self) -> None:
        for process in self.processes:
            if process is not None:
                process.terminate()
        for process in self.processes:
            if process is not None:
                try:
                    process.wait(15)
                except subprocess.TimeoutExpired:
                    process.kill()


@contextmanager
def cluster(pg_url: str, redis_server: Any, count: int) -> Iterator[Cluster]:
    servers = Cluster(pg_url, redis_server.url)
    try:
        for _ in range(count):
            servers.start()
        yield servers
    finally:
        servers.close()


def create(base: str, body: dict[str, Any]) -> dict[str, Any]:
    status, links = post(base, "api/matches", body)
    assert status == 201, links
    return dict(links)


def seated(servers: Cluster) -> tuple[dict[str, Any], Client, Client]:
    """A new two-player Quarto match: its links, seat 1 on server 0 and seat 2 on server
    1, both at the start."""
    links = create(servers.base(0), {"game": "quarto", "players": 2})
    seats = {s["seat"]: s["token"] for s in links["seats"]}
    one = Client(servers.base(0), links["id"], seats[1])
    two = Client(servers.base(1), links["id"], seats[2])
    for client in (one, two):
        client.at(0)
    return links, one, two


def record(base: str, match_id: str, token: str) -> Record:
    status, text = get(base, f"api/matches/{match_id}/record?token={token}")
    assert status == 200, text
    return Record.from_text(text)


def acknowledged(client: Client) -> list[str]:
    """The actions this client was told of, by number (from its ``last`` messages)."""
    return [p["number"] for p in client.messages if p["type"] == "position"]


GAMES = [
    # game, players, options, computer seats, seed, servers
    ("quarto", 2, {}, {}, 11, 2),
    ("quartino", 3, {}, {3: "basic"}, 12, 3),
    ("ctverak", 3, {"deck": "half"}, {2: "basic"}, 13, 2),
    ("ctverak", 2, {"deck": "half"}, {}, 14, 3),
]


@pytest.mark.parametrize(("game_id", "players", "options", "computers", "seed", "count"), GAMES)
def test_a_whole_game_over_several_servers_shows_each_only_its_own(
    pg_url: str, redis_server: Any, game_id: str, players: int, options: dict[str, Any],
    computers: dict[int, str], seed: int, count: int,
) -> None:  # fmt: skip
    with cluster(pg_url, redis_server, count) as servers:
        bases = [servers.base(i) for i in range(count)]
        clients, match_id, token = hidden.play_match(
            bases, game_id, players, options, computers, seed
        )
        texts = {get(b, f"api/matches/{match_id}/record?token={token}")[1] for b in bases}
        for client in clients.values():
            client.close()
    assert len(texts) == 1  # every server has the same finished match
    text = texts.pop()
    match = Match.from_record(registry().get(game_id), Record.from_text(text))
    assert match.outcome() is not None
    finals = {c.position["number"] for c in clients.values()}
    assert finals == {len(match.actions)}  # everyone, on every server, saw the end
    for client in clients.values():  # and every move, in order, whichever server
        shown_in_order(client, len(match.actions))
    if game_id != "quarto":  # Quarto hides nothing
        hidden.sweep(game_id, clients, text)


def send_at(barrier: threading.Barrier, client: Client, text: str, number: int) -> None:
    barrier.wait()
    client.send({"type": "action", "action": text, "number": number})


def test_one_number_offered_twice_through_two_servers_is_taken_once(
    pg_url: str, redis_server: Any
) -> None:
    with cluster(pg_url, redis_server, 2) as servers:
        links = create(servers.base(0), {"game": "quarto", "players": 2})
        tokens = {s["seat"]: s["token"] for s in links["seats"]}
        # each seat connected twice: once to each server
        pairs = {seat: [Client(servers.base(i), links["id"], tokens[seat]) for i in (0, 1)]
                 for seat in (1, 2)}  # fmt: skip
        for pair in pairs.values():
            for client in pair:
                client.at(0)
        rng = random.Random(5)
        number, accepted, stale = 0, 0, 0
        taken_log: list[Message] = []
        while number < 8:
            seat = pairs[1][0].position["to_act"]
            a, b = pairs[seat]
            a.at(number)
            b.at(number)
            one, other = rng.sample(a.position["legal"], 2)
            start = {id(c): len(c.messages) for c in (a, b)}
            barrier = threading.Barrier(2)
            threads = [threading.Thread(target=send_at, args=(barrier, c, t, number))
                       for c, t in ((a, one), (b, other))]  # fmt: skip
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            for client in (a, b):
                client.at(number + 1)
            last = next(m for m in reversed(a.messages)
                        if m["type"] == "last" and m["number"] == number + 1)  # fmt: skip
            taken = last["actions"][str(seat)]
            assert taken in (one, other)
            taken_log.append({"seat": seat, "actions": {str(seat): taken}})
            refused = b if taken == one else a
            error = refused.until(lambda m: m["type"] == "error", timeout=10)
            assert "stale" in error["error"], error  # refused as stale, whichever server
            winner = a if refused is b else b
            since = winner.messages[start[id(winner)] :]
            assert not [m for m in since if m["type"] == "error"]
            stale += 1
            accepted += 1
            number += 1
            for pair in pairs.values():
                for client in pair:
                    client.at(number)
            played = {c.position["number"] for p in pairs.values() for c in p}
            assert played == {number}
        assert stored_actions(pg_url, links["id"]) == [
            m["actions"][str(m["seat"])] for m in taken_log
        ]
        assert number == accepted == stale
        for pair in pairs.values():
            for client in pair:
                client.close()


def stored_actions(pg_url: str, match_id: str) -> list[str]:
    """The actions the database holds for ``match_id``, in order."""
    import psycopg

    with psycopg.connect(pg_url) as conn:
        rows = conn.execute(
            "SELECT number, text FROM actions WHERE match=%s ORDER BY number", (match_id,)
        ).fetchall()
    assert [n for n, _ in rows] == list(range(1, len(rows) + 1))
    return [str(t) for _, t in rows]


def play_one(client: Client, rng: random.Random) -> int:
    """The seat acts (a random listed action) and waits for the next position."""
    number = client.position["number"]
    client.act(rng.choice(client.position["legal"]))
    return int(client.at(number + 1)["number"])


def lease_holder(pg_url: str, match_id: str, servers: Cluster) -> int | None:
    """The index of the server holding ``match_id``'s computer lease (its id names its
    process), if one does."""
    import psycopg

    with psycopg.connect(pg_url) as conn:
        row = conn.execute("SELECT holder FROM leases WHERE match=%s", (match_id,)).fetchone()
    if row is None:
        return None
    pid = int(str(row[0]).rsplit("-", 2)[1])
    return next((i for i, p in enumerate(servers.processes) if p and p.pid == pid), None)


def test_a_killed_server_loses_nothing_acknowledged(pg_url: str, redis_server: Any) -> None:
    """Quarto, a person against the computer, with a move clock, on three servers. Three
    SIGKILLs while the person is to act: the person's server (it reconnects to another
    and plays on), then the server holding the computer's lease (another takes it over
    and the computer moves), then the person's again. Every action the person was told of
    is the record's at its number, and after each kill the clock is the stored one, never
    a fresh move_time."""
    with cluster(pg_url, redis_server, 3) as servers:
        links = create(servers.base(0), {
            "game": "quarto", "players": 2, "seats": [{"seat": 2, "ai": "random"}],
            "move_time": 600,
        })  # fmt: skip
        token = links["seats"][0]["token"]
        rng = random.Random(3)
        on = 1
        client = Client(servers.base(on), links["id"], token)
        client.at(0)
        used = [client]
        seen: dict[int, Message] = {}
        kills, took_over, killed_holder = 0, 0.0, False
        while client.position["status"] != "over":
            position = client.position
            if position["to_act"] != 1:
                start = time.monotonic()
                client.at(position["number"] + 1)
                took_over = max(took_over, time.monotonic() - start)
                continue
            seen[position["number"]] = position
            # Quarto lasts at least 8 actions: three kills always happen mid-game
            if kills < 3 and position["number"] >= 1 + 2 * kills:
                target = on
                holder = lease_holder(pg_url, links["id"], servers)  # None: a dead one's
                if kills == 1 and holder is not None:
                    target = holder
                killed_holder = killed_holder or holder == target
                servers.kill(target)
                kills += 1
                if target == on:
                    client.close()
                    on = (on + 1) % 3
                    client = Client(servers.base(on), links["id"], token)
                    used.append(client)
                    again = client.until(lambda m: m["type"] == "position")
                    assert again["number"] == position["number"]  # nothing lost
                    assert again["clock"]["left"] <= position["clock"]["left"]  # stored
                    assert again["clock"]["left"] < 600
                servers.start(target)
                continue
            play_one(client, rng)
        stored = record(servers.base(on), links["id"], token)
        client.close()
    assert kills == 3 and killed_holder  # the computer's lease had to pass on
    assert took_over < 20  # the computer's turns, a lost lease's included, came in time
    match = Match.from_record(registry().get("quarto"), stored)
    assert match.outcome() is not None
    final = len(match.actions)
    assert max(seen) <= final == client.position["number"]
    # every action the person was told of (on whichever server) is the record's at its
    # number: nothing acknowledged was lost or replaced, no computer move doubled
    told = [m for c in used for m in c.messages if m["type"] == "last"]
    assert len(told) > final
    for last in told:
        expected: dict[str, str | None] = {"1": None, "2": None}
        for index in range(last["number"]):
            expected[str(match.game.to_act(match.states[index]))] = match.texts[index]
        assert last["actions"] == expected, last


def test_the_clock_ends_a_game_once_whichever_server_rings(
    pg_url: str, redis_server: Any
) -> None:
    with cluster(pg_url, redis_server, 3) as servers:
        links = create(servers.base(0), {"game": "quarto", "players": 2, "move_time": 2})
        seats = {s["seat"]: s["token"] for s in links["seats"]}
        clients = [Client(servers.base(i), links["id"], seats[1 + i % 2]) for i in range(3)]
        watcher = Client(servers.base(2), links["id"])
        ends = []
        for client in (*clients, watcher):
            ends.append(client.until(lambda m: m["type"] == "position" and m["status"] == "over",
                                     timeout=30))  # fmt: skip
        assert {e["number"] for e in ends} == {0}
        assert len({e["reason"] for e in ends}) == 1
        stored = record(servers.base(1), links["id"], seats[1])
        assert stored.forfeit is not None and stored.forfeit.player == 1
        for client in (*clients, watcher):
            client.close()


def test_redis_stopped_and_restarted_mid_game(pg_url: str, redis_server: Any) -> None:
    with cluster(pg_url, redis_server, 2) as servers:
        links = create(servers.base(0), {"game": "quarto", "players": 2})
        seats = {s["seat"]: s["token"] for s in links["seats"]}
        one = Client(servers.base(0), links["id"], seats[1])
        two = Client(servers.base(1), links["id"], seats[2])
        spectator = Client(servers.base(1), links["id"])
        rng = random.Random(9)
        everyone = (one, two, spectator)
        for client in everyone:
            client.at(0)
        try:
            for turn in range(10):
                if turn == 2:
                    redis_server.stop()
                if turn == 6:
                    redis_server.start()
                actor = one if one.position["to_act"] == 1 else two
                number = play_one(actor, rng)
                for client in everyone:
                    client.at(number)  # late without the bus, never lost
                if one.position["status"] == "over":
                    break
        finally:
            if redis_server.process is None:
                redis_server.start()
        assert {c.position["number"] for c in everyone} == {one.position["number"]}
        for client in everyone:  # every move shown to every connection, in order
            shown_in_order(client, one.position["number"])
            client.close()


def shown_in_order(client: Client, last: int) -> None:
    """``client`` was sent its positions in order and a log entry for every action up to
    ``last``: a position it skipped (a catch-up) is still shown as the moves it missed."""
    numbers = [m["number"] for m in client.messages if m["type"] == "position"]
    assert numbers == sorted(numbers), numbers
    logged: dict[int, str] = {}
    for message in client.messages:
        if message["type"] == "log":
            logged = {k: v for k, v in logged.items() if k <= message["from"]}
            logged |= {e["number"]: e["text"] for e in message["entries"]}
    assert sorted(logged) == list(range(1, last + 1)), sorted(logged)


def test_workers_serve_one_port(pg_url: str, redis_server: Any, tmp_path: Path) -> None:
    port = free_port()
    process = start_process(pg_url, port, "--bus", redis_server.url, "--workers", "2")  # type: ignore[arg-type]
    base = f"http://127.0.0.1:{port}/"
    try:
        for _ in range(3):
            links = create(base, {"game": "quarto", "players": 2})
            clients = [Client(base, links["id"], s["token"]) for s in links["seats"]]
            rng = random.Random(1)
            for client in clients:
                client.at(0)
            for _ in range(4):
                actor = clients[clients[0].position["to_act"] - 1]
                number = play_one(actor, rng)
                for client in clients:
                    client.at(number)
            for client in clients:
                client.close()
    finally:
        process.terminate()
        process.wait(20)


def test_workers_without_a_shared_store_is_one_line(tmp_path: Path) -> None:
    import sys

    out = subprocess.run(
        [sys.executable, "-m", "tabletop", "serve", "--db", str(tmp_path / "m.sqlite3"),
         "--workers", "2"], capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert out.returncode != 0
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and "--workers 2 needs a shared store" in lines[0], out.stderr


@pytest.mark.skipif(shutil.which("nginx") is None, reason="nginx is not installed")
def test_nginx_in_front_of_two_servers(pg_url: str, redis_server: Any) -> None:
    """docs/deploy/nginx.conf as it is (its ports replaced): a match played through the
    proxy, round robin, no sticky sessions; one server killed, the game goes on."""
    with cluster(pg_url, redis_server, 2) as servers:
        folder = Path(tempfile.mkdtemp(prefix="tabletop-nginx-"))
        port = free_port()
        conf = (ROOT / "docs" / "deploy" / "nginx.conf").read_text()
        conf = conf.replace("127.0.0.1:8001", f"127.0.0.1:{servers.ports[0]}")
        conf = conf.replace("127.0.0.1:8002", f"127.0.0.1:{servers.ports[1]}")
        conf = re.sub(r"listen 8080;", f"listen 127.0.0.1:{port};", conf)
        conf = conf.replace("worker_processes auto;", "worker_processes 1;")
        (folder / "nginx.conf").write_text(conf)
        nginx = subprocess.Popen(
            ["nginx", "-p", str(folder), "-c", str(folder / "nginx.conf"), "-g",
             f"daemon off; pid {folder}/nginx.pid; error_log {folder}/error.log;"],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
        )  # fmt: skip
        try:
            from tests.db_servers import wait_port

            wait_port(port)
            base = f"http://127.0.0.1:{port}/"
            links = create(base, {"game": "quarto", "players": 2})
            tokens = [s["token"] for s in links["seats"]]
            clients = [Client(base, links["id"], t) for t in tokens]
            rng = random.Random(4)
            for client in clients:
                client.at(0)
            for turn in range(8):
                if turn == 4:
                    servers.kill(0)
                    for client in clients:
                        client.close()
                    clients = [Client(base, links["id"], t) for t in tokens]
                    for client in clients:
                        client.until(lambda m: m["type"] == "position")
                actor = clients[clients[0].position["to_act"] - 1]
                number = play_one(actor, rng)
                for client in clients:
                    client.at(number)
            for client in clients:
                client.close()
        finally:
            nginx.send_signal(signal.SIGQUIT)
            nginx.wait(10)
            shutil.rmtree(folder, ignore_errors=True)
    assert os.path.exists(ROOT / "docs" / "deploy" / "Caddyfile")
    _ = time


def test_undo_chat_presence_and_rematch_across_servers(pg_url: str, redis_server: Any) -> None:
    """The players on two servers: an undo asked on one is answered on the other and
    carried out once; a chat message and the presence cross; a rematch asked on one is
    told to the connection on the other with its own new link."""
    with cluster(pg_url, redis_server, 2) as servers:
        links = create(servers.base(0), {"game": "quarto", "players": 2})
        seats = {s["seat"]: s["token"] for s in links["seats"]}
        one = Client(servers.base(0), links["id"], seats[1])
        two = Client(servers.base(1), links["id"], seats[2])
        watcher = Client(servers.base(1), links["id"])
        for client in (one, two, watcher):
            client.at(0)
        # presence: seat 1 (server 0) is online as seen from server 1
        two.until(lambda m: m["type"] == "presence" and m["presence"]["seats"]["1"] == "online"
                  and m["presence"]["spectators"] == 1)  # fmt: skip
        first_move(one, two)
        one.send({"type": "undo"})
        asked = two.until(lambda m: m["type"] == "undo-request")
        assert asked["by"] == 1 and asked["waiting"] == [2]
        two.send({"type": "undo-answer", "agree": True})
        for client in (one, two):
            done = client.until(lambda m: m["type"] == "undo-result")
            assert done["done"] is True, done
        for client in (one, two):
            client.until(lambda m: m["type"] == "position" and m["number"] == 0)
        assert stored_actions(pg_url, links["id"]) == []
        one.send({"type": "chat", "text": "hello from server 0"})
        for client in (two, watcher):
            said = client.until(lambda m: m["type"] == "chat")
            assert said["text"] == "hello from server 0" and said["seat"] == 1
        # play to the end, then a rematch asked on server 0 reaches seat 2 on server 1
        rng = random.Random(2)
        while one.position["status"] != "over":
            actor = one if one.position["to_act"] == 1 else two
            number = play_one(actor, rng)
            one.at(number)
            two.at(number)
        one.send({"type": "rematch"})
        told = two.until(lambda m: m["type"] == "rematch")
        mine = one.until(lambda m: m["type"] == "rematch")
        assert told["id"] == mine["id"]
        assert seats[2] not in told["url"] and "token=" in told["url"]  # its own new seat
        for client in (one, two, watcher):
            client.close()


@pytest.mark.parametrize(
    ("flags", "said"),
    [
        (["--bus", "redis://127.0.0.1:1/0"], "--bus needs --db postgresql://"),
        (["--db", "mysql://x@y/z"], "--db is a SQLite file or postgresql://"),
        (["--db", "postgresql://x@127.0.0.1:1/z", "--bus", "http://x"], "--bus is redis://"),
        (["--workers", "0"], "--workers must be a whole number 1..64"),
    ],
)
def test_serve_flags_that_cannot_share_are_one_line(
    tmp_path: Path, flags: list[str], said: str
) -> None:
    import sys

    command = [sys.executable, "-m", "tabletop", "serve", *flags]
    if "--db" not in flags:
        command += ["--db", str(tmp_path / "m.sqlite3")]
    out = subprocess.run(command, capture_output=True, text=True, timeout=60)
    lines = out.stderr.strip().splitlines()
    assert out.returncode != 0 and len(lines) == 1 and said in lines[0], out.stderr


def test_a_bus_that_does_not_answer_is_one_line(pg_url: str) -> None:
    import sys

    bus = f"redis://127.0.0.1:{free_port()}/0"
    out = subprocess.run(
        [sys.executable, "-m", "tabletop", "serve", "--db", pg_url, "--bus", bus],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    lines = out.stderr.strip().splitlines()
    assert out.returncode == 1 and len(lines) == 1 and "cannot use the bus" in lines[0], lines


def test_every_server_lists_a_match_another_made_at_once(pg_url: str, redis_server: Any) -> None:
    """The lobby of a server lists the matches another server has just made (read from the
    shared store when the listing is asked, not from this server's own rooms alone)."""
    with cluster(pg_url, redis_server, 2) as servers:
        for _ in range(3):  # each asked at once after its creation, before any recheck
            made = create(servers.base(0), {"game": "quarto", "players": 2})
            status, text = get(servers.base(1), "api/matches")
            assert status == 200, text
            assert made["id"] in {m["id"] for m in json.loads(text)["matches"]}, text


def test_two_servers_asked_for_one_rematch_at_once_leave_no_orphan(
    pg_url: str, redis_server: Any
) -> None:
    """Both players ask for the rematch at the same moment, each on its own server: one
    rematch is made and told to both, and no second match is left behind (the server that
    lost the race withdraws its own); over several finished matches, the lobby holds the
    old matches and one rematch each."""
    with cluster(pg_url, redis_server, 2) as servers:
        made: set[str] = set()
        for _ in range(4):
            links, one, two = seated(servers)
            one.send({"type": "resign"})
            for client in (one, two):
                client.until(lambda m: m["type"] == "position" and m["status"] == "over")
            one.send({"type": "rematch"})
            two.send({"type": "rematch"})
            told = {c.until(lambda m: m["type"] == "rematch")["id"] for c in (one, two)}
            assert len(told) == 1, told  # one rematch, the same for both
            made |= {links["id"], *told}
            for client in (one, two):
                client.close()
        for base in (servers.base(0), servers.base(1)):  # each server's lobby, once settled
            listed: set[str] = set()
            for _ in range(50):  # a withdrawn match leaves the other server at its notice
                status, text = get(base, "api/matches")
                assert status == 200, text
                listed = {m["id"] for m in json.loads(text)["matches"]}
                if listed == made:
                    break
                time.sleep(0.2)
            assert listed == made, listed - made  # no orphan rematch


def test_notices_reach_the_other_server_in_the_order_they_were_made(
    pg_url: str, redis_server: Any
) -> None:
    """Chat messages said at once through twelve connections of one server reach a
    connection on the other server in the order the first server took them (one sender
    of notices, not a task each)."""
    with cluster(pg_url, redis_server, 2) as servers:
        links = create(servers.base(0), {"game": "quarto", "players": 2})
        seats = {s["seat"]: s["token"] for s in links["seats"]}
        here = Client(servers.base(0), links["id"], seats[2])
        there = Client(servers.base(1), links["id"], seats[2])
        talkers = [Client(servers.base(0), links["id"], seats[1]) for _ in range(12)]
        for client in (here, there, *talkers):
            client.at(0)
        said = [f"message {n}" for n in range(len(talkers))]
        for talker, text in zip(talkers, said, strict=True):
            talker.send({"type": "chat", "text": text})

        def heard(client: Client) -> list[str]:
            return [m["text"] for m in client.messages if m["type"] == "chat" and m["text"] in said]

        for client in (here, there):
            client.until(lambda m, c=client: len(heard(c)) == len(said))  # type: ignore[misc]
        assert sorted(heard(here)) == sorted(said)
        assert heard(there) == heard(here)


def test_a_chat_message_said_while_redis_is_down_reaches_the_other_server(
    pg_url: str, redis_server: Any
) -> None:
    """With the bus away, a message said on one server still reaches a connection on the
    other (read from the store with the match's position), and a fresh connection there
    is sent it; once the bus is back nothing is heard twice."""
    with cluster(pg_url, redis_server, 2) as servers:
        links, one, two = seated(servers)
        redis_server.stop()
        try:
            one.send({"type": "chat", "text": "said in the outage"})
            two.until(lambda m: m["type"] == "chat" and m["text"] == "said in the outage")
            late = Client(servers.base(1), links["id"])
            late.until(lambda m: m["type"] == "chat" and m["text"] == "said in the outage")
        finally:
            redis_server.start()
        two.send({"type": "chat", "text": "after"})
        one.until(lambda m: m["type"] == "chat" and m["text"] == "after")
        two.until(lambda m: m["type"] == "chat" and m["text"] == "after")
        said = "said in the outage"
        heard = [m for m in two.messages if m["type"] == "chat" and m["text"] == said]
        assert len(heard) == 1, heard


def test_an_undo_request_and_a_departure_in_a_redis_outage_reach_the_other_server(
    pg_url: str, redis_server: Any
) -> None:
    """While the bus is away, seat 1 (server 0) asks to undo and a spectator there leaves;
    once the bus is back the request reaches seat 2 on server 1, who agrees, and the undo
    is carried out; server 1 shows the spectator gone (re-announced when the bus came
    back, not after a minute)."""
    with cluster(pg_url, redis_server, 2) as servers:
        links = create(servers.base(0), {"game": "quarto", "players": 2})
        seats = {s["seat"]: s["token"] for s in links["seats"]}
        one = Client(servers.base(0), links["id"], seats[1])
        two = Client(servers.base(1), links["id"], seats[2])
        watcher = Client(servers.base(0), links["id"])
        for client in (one, two, watcher):
            client.at(0)
        two.until(lambda m: m["type"] == "presence" and m["presence"]["spectators"] == 1)
        first_move(one, two)
        redis_server.stop()
        try:
            one.send({"type": "undo"})
            one.until(lambda m: m["type"] == "undo-request")
            watcher.close()
        finally:
            redis_server.start()
        asked = two.until(lambda m: m["type"] == "undo-request")
        assert asked["by"] == 1 and asked["waiting"] == [2]
        two.send({"type": "undo-answer", "agree": True})
        for client in (one, two):
            done = client.until(lambda m: m["type"] == "undo-result")
            assert done["done"] is True, done
            client.at(0)
        two.until(lambda m: m["type"] == "presence" and m["presence"]["spectators"] == 0)

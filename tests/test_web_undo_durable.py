"""Undo requests that survive (issue 39, item 5): a request waiting is stored, so a server
SIGKILLed and started again shows it and its answer carries it out; two servers sharing
PostgreSQL with Redis stopped see one another's request and its result from the store;
a request nobody answers lapses (its asker is told why), and one whose time ran out while
the server was down is gone after the restart. Real `tabletop serve` processes, a real
PostgreSQL and Redis (tests/db_servers.py), nothing mocked."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from tabletop.web import postgres, store, undo_requests
from tests.migrations import postgres_migrated, sqlite_migrated, without_table
from tests.test_web_process import kill
from tests.test_web_shared import cluster, seated, stored_actions
from tests.web_support import Client, Message, first_move, free_port, post, start_process

NONE_WAITING = "no undo request is waiting for you"


def rows(db: Path) -> list[tuple[Any, ...]]:
    """The undo requests SQLite holds: (match, seat, number, count, waiting)."""
    with sqlite3.connect(db) as conn:
        return conn.execute(
            "SELECT match, seat, number, count, waiting FROM undo_requests"
        ).fetchall()


def pg_rows(url: str) -> list[tuple[Any, ...]]:
    import psycopg

    with psycopg.connect(url) as conn:
        return conn.execute("SELECT match, seat, waiting FROM undo_requests").fetchall()


def is_type(kind: str) -> Any:
    return lambda m: m["type"] == kind


def at_exactly(client: Client, number: int) -> Message:
    return client.until(lambda m: m["type"] == "position" and m["number"] == number)


def one_played(base: str) -> tuple[str, dict[int, str], Client, Client]:
    """A two-player Quarto match on ``base`` with seat 1's first action played: its id,
    tokens, and both seats' connections at position 1."""
    status, made = post(base, "api/matches", {"game": "quarto", "players": 2})
    assert status == 201, made
    tokens = {s["seat"]: s["token"] for s in made["seats"]}
    one, two = Client(base, made["id"], tokens[1]), Client(base, made["id"], tokens[2])
    for client in (one, two):
        client.at(0)
    first_move(one, two)
    return made["id"], tokens, one, two


class Served:
    """A ``tabletop serve`` process on a SQLite database of its own, SIGKILLed and started
    again at will (:meth:`restart`); use it as a context manager (killed at the end)."""

    def __init__(self, tmp_path: Path) -> None:
        self.db, self.port = tmp_path / "m.sqlite3", free_port()
        self.base = f"http://127.0.0.1:{self.port}/"
        self.process = start_process(self.db, self.port)

    def kill(self) -> None:
        kill(self.process)

    def start(self) -> None:
        self.process = start_process(self.db, self.port)

    def restart(self) -> None:
        self.kill()
        self.start()

    def __enter__(self) -> Served:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.kill()


def ask(asker: Client, other: Client) -> Message:
    """``asker`` asks to undo; the request as ``other`` is shown it."""
    asker.send({"type": "undo"})
    return other.until(is_type("undo-request"))


def test_a_request_survives_a_sigkill_and_is_carried_out_after_the_restart(
    tmp_path: Path,
) -> None:
    with Served(tmp_path) as served:
        db, base = served.db, served.base
        match_id, tokens, one, two = one_played(base)
        ask(one, two)
        assert rows(db) == [(match_id, 1, 1, 1, "[2]")]
        served.restart()
        two = Client(base, match_id, tokens[2])
        shown = two.until(is_type("undo-request"))  # sent on connecting, from the store
        assert (shown["by"], shown["number"], shown["count"], shown["waiting"]) == (1, 1, 1, [2])
        one = Client(base, match_id, tokens[1])
        one.until(is_type("undo-request"))  # the asker sees it waits
        two.send({"type": "undo-answer", "agree": True})
        for client in (one, two):
            done = client.until(is_type("undo-result"))
            assert done["done"] is True and done["count"] == 1, done
            at_exactly(client, 0)
        assert rows(db) == []
        with sqlite3.connect(db) as conn:
            assert conn.execute("SELECT count(*) FROM actions").fetchone() == (0,)
        one.send({"type": "undo-answer", "agree": True})  # nothing waits any more
        assert one.until(is_type("error"))["error"] == NONE_WAITING


def test_the_answers_given_before_a_sigkill_still_count_after_it(tmp_path: Path) -> None:
    """Three people (Quartino): seat 1 asks, seat 2 agrees, the server is SIGKILLed; after
    the restart the request waits for seat 3 alone, seat 2 cannot answer again, and seat
    3's yes carries it out."""
    with Served(tmp_path) as served:
        db, base = served.db, served.base
        status, made = post(base, "api/matches", {"game": "quartino", "players": 3})
        assert status == 201, made
        tokens = {s["seat"]: s["token"] for s in made["seats"]}
        seats = {seat: Client(base, made["id"], token) for seat, token in tokens.items()}
        dealt = seats[1].at(0)["number"]  # the deal is chance's: seat 1 acts first
        assert seats[1].position["to_act"] == 1
        seats[1].act(seats[1].position["legal"][0])
        for client in seats.values():
            client.at(dealt + 1)
        seats[1].send({"type": "undo"})
        for seat in (2, 3):
            assert seats[seat].until(is_type("undo-request"))["waiting"] == [2, 3]
        seats[2].send({"type": "undo-answer", "agree": True})
        assert seats[3].until(is_type("undo-request"))["waiting"] == [3]
        assert rows(db) == [(made["id"], 1, dealt + 1, 1, "[3]")]
        served.restart()
        seats = {seat: Client(base, made["id"], token) for seat, token in tokens.items()}
        for client in seats.values():
            assert client.until(is_type("undo-request"))["waiting"] == [3]
        seats[2].send({"type": "undo-answer", "agree": False})  # answered before the kill
        assert seats[2].until(is_type("error"))["error"] == NONE_WAITING
        seats[3].send({"type": "undo-answer", "agree": True})
        for client in seats.values():
            done = client.until(is_type("undo-result"))
            assert done["done"] is True and done["count"] == 1, done
            at_exactly(client, dealt)
        assert rows(db) == []


def test_a_request_is_gone_once_the_match_ends(tmp_path: Path) -> None:
    """Seat 2 resigns while seat 1's request waits: everyone is told it is moot, its row
    went with the resignation, and a restart shows no request."""
    with Served(tmp_path) as served:
        db, base = served.db, served.base
        match_id, tokens, one, two = one_played(base)
        ask(one, two)
        two.send({"type": "resign"})
        for client in (one, two):
            moot = client.until(is_type("undo-result"))
            assert moot["done"] is False and moot["reason"] == "the match moved on", moot
            client.until(lambda m: m["type"] == "position" and m["status"] == "over")
        assert rows(db) == []
        served.restart()
        two = Client(base, match_id, tokens[2])
        two.send({"type": "undo-answer", "agree": True})
        told = two.until(lambda m: m["type"] in ("error", "undo-request"))
        assert told == {"type": "error", "error": NONE_WAITING}, told


def test_a_request_nobody_answers_lapses_and_stays_gone_after_a_restart(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With $TABLETOP_UNDO_EXPIRY at 3 seconds: the asker and the other seat are told it
    lapsed, its row goes, a new request may be asked; one asked just before a SIGKILL
    whose time runs out while the server is down is gone once it is back."""
    monkeypatch.setenv(undo_requests.EXPIRY_VARIABLE, "3")
    with Served(tmp_path) as served:
        db, base = served.db, served.base
        match_id, tokens, one, two = one_played(base)
        ask(one, two)
        for client in (one, two):  # waits for the lapse: the one wait of this test
            lapsed = client.until(is_type("undo-result"), timeout=60)
            assert lapsed["done"] is False, lapsed
            assert lapsed["reason"] == "nobody answered in time (3 s)", lapsed
        assert rows(db) == []
        two.send({"type": "undo-answer", "agree": True})
        assert two.until(is_type("error"))["error"] == NONE_WAITING
        ask(one, two)  # asked again: the lapsed one no longer blocks it
        assert rows(db) == [(match_id, 1, 1, 1, "[2]")]
        served.kill()
        time.sleep(3.5)  # its time runs out while no server runs
        served.start()
        for _ in range(300):  # the restarted server lapses it from the stored time
            if not rows(db):
                break
            time.sleep(0.1)
        assert rows(db) == []
        two = Client(base, match_id, tokens[2])
        two.at(1)
        two.send({"type": "undo-answer", "agree": True})
        told = two.until(lambda m: m["type"] in ("error", "undo-request"))
        assert told == {"type": "error", "error": NONE_WAITING}, told
        assert at_exactly(Client(base, match_id, tokens[1]), 1)["status"] == "ongoing"


def test_an_expiry_that_is_not_seconds_stops_serve_with_one_line(tmp_path: Path) -> None:
    import os

    env = dict(os.environ, TABLETOP_UNDO_EXPIRY="soon")
    out = subprocess.run(
        [sys.executable, "-m", "tabletop", "serve", "--db", str(tmp_path / "m.sqlite3"),
         "--port", str(free_port())],
        capture_output=True, text=True, timeout=60, env=env,
    )  # fmt: skip
    lines = out.stderr.strip().splitlines()
    assert out.returncode != 0 and len(lines) == 1, out.stderr
    assert "TABLETOP_UNDO_EXPIRY is the seconds an undo request waits" in lines[0]
    assert "not soon" in lines[0]


def test_a_request_and_its_answer_cross_servers_with_redis_stopped(
    pg_url: str, redis_server: Any
) -> None:
    """Redis stopped: seat 1 asks on server 0; seat 2 on server 1 is shown the request
    from the store, and so is a connection opened there later; seat 2 agrees on server 1,
    which carries the undo out; server 0 tells seat 1 it was done (from the store)."""
    with cluster(pg_url, redis_server, 2) as servers:
        links, one, two = seated(servers)
        seats = {s["seat"]: s["token"] for s in links["seats"]}
        first_move(one, two)
        redis_server.stop()
        try:
            one.send({"type": "undo"})
            one.until(is_type("undo-request"))
            asked = two.until(is_type("undo-request"))
            assert asked["by"] == 1 and asked["waiting"] == [2], asked
            late = Client(servers.base(1), links["id"], seats[2])
            late.until(is_type("undo-request"))
            assert [r[1] for r in pg_rows(pg_url)] == [1]
            two.send({"type": "undo-answer", "agree": True})
            for client in (one, two, late):
                done = client.until(is_type("undo-result"))
                assert done["done"] is True and done["count"] == 1, done
                at_exactly(client, 0)
            assert stored_actions(pg_url, links["id"]) == [] and pg_rows(pg_url) == []
        finally:
            redis_server.start()
        for client in (one, two, late):
            client.close()


def test_a_request_lapses_once_on_two_servers_with_redis_stopped(
    pg_url: str, redis_server: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """$TABLETOP_UNDO_EXPIRY at 3 seconds, Redis stopped: both servers' clocks run out,
    one removes the request, and each seat (one on each server) is told it lapsed, once."""
    monkeypatch.setenv(undo_requests.EXPIRY_VARIABLE, "3")
    with cluster(pg_url, redis_server, 2) as servers:
        _, one, two = seated(servers)
        first_move(one, two)
        redis_server.stop()
        try:
            ask(one, two)
            for client in (one, two):  # waits for the lapse
                lapsed = client.until(is_type("undo-result"))
                assert lapsed["reason"] == "nobody answered in time (3 s)", lapsed
            assert pg_rows(pg_url) == []
            one.send({"type": "chat", "text": "still here"})  # a mark after the lapse
            for client in (one, two):
                client.until(lambda m: m["type"] == "chat" and m["text"] == "still here")
        finally:
            redis_server.start()
        for client in (one, two):
            results = [m for m in client.messages if m["type"] == "undo-result"]
            assert len(results) == 1, results
            client.close()


def test_a_request_asked_on_a_server_then_killed_is_answered_on_another(
    pg_url: str, redis_server: Any
) -> None:
    """Seat 1 asks on server 0, which is SIGKILLed; seat 2 on server 1 still sees the
    request, declines it there, and seat 1 (back on server 1) may ask again."""
    with cluster(pg_url, redis_server, 2) as servers:
        links, one, two = seated(servers)
        seats = {s["seat"]: s["token"] for s in links["seats"]}
        first_move(one, two)
        ask(one, two)
        servers.kill(0)
        again = Client(servers.base(1), links["id"], seats[1])
        again.until(is_type("undo-request"))
        two.send({"type": "undo-answer", "agree": False})
        for client in (again, two):
            result = client.until(is_type("undo-result"))
            assert result["done"] is False and result["reason"] == "player 2 declined"
        assert pg_rows(pg_url) == [] and len(stored_actions(pg_url, links["id"])) == 1
        again.send({"type": "undo"})
        assert two.until(is_type("undo-request"))["by"] == 1


def test_a_version_7_database_gains_the_undo_requests_table(tmp_path: Path) -> None:
    found = sqlite_migrated(tmp_path / "old.sqlite3", "undo_requests", 7)
    assert found == (store.VERSION, (0,)) and store.VERSION == 8


def test_a_version_4_postgres_database_gains_the_undo_requests_table(pg_url: str) -> None:
    before = without_table(postgres.SCHEMA, "undo_requests")
    assert postgres_migrated(pg_url, before, 4, "undo_requests") == ((postgres.VERSION,), (0,))
    assert postgres.VERSION == 5

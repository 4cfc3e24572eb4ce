"""Open seats (issue 37, item 4): a host leaves a seat open, the lobby lists it, the first
to take it gets that seat's link and nobody else does.

Against real servers: the whole flow over HTTP and the websocket (SQLite, uvicorn in a
thread); two takers racing through two `tabletop serve` processes on one SQLite file, and
through two on one PostgreSQL and Redis: exactly one wins; the per-address limit; the
store's contract on both databases; a database made before open seats still opens.
"""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tabletop.web import open_seats
from tabletop.web.store import MatchStore, SeatRow, Stale
from tests.test_web_shared import cluster
from tests.test_web_store import Body, new_match, run  # noqa: F401  (the fixture)
from tests.web_support import Client, free_port, get, live_server, post, start_process

QUARTO_OPEN_2 = {"game": "quarto", "players": 2, "seats": [{"seat": 2, "open": True}]}


def listed(base: str, match_id: str) -> dict[str, Any]:
    status, text = get(base, "api/matches")
    assert status == 200, text
    import json

    rows = [m for m in json.loads(text)["matches"] if m["id"] == match_id]
    assert len(rows) == 1, text
    return dict(rows[0])


def take(base: str, match_id: str, seat: int) -> tuple[int, Any]:
    return post(base, f"api/matches/{match_id}/seats/{seat}/take", b"")


def test_an_open_seat_is_listed_taken_once_and_played(tmp_path: Path) -> None:
    with live_server(tmp_path / "m.sqlite3") as base:
        status, links = post(base, "api/matches", {**QUARTO_OPEN_2, "move_time": 60})
        assert status == 201, links
        match_id = links["id"]
        assert links["seats"][1] == {"seat": 2, "open": True}  # no link, no token
        assert links["seats"][0]["seat"] == 1 and links["seats"][0]["url"]
        assert listed(base, match_id)["open_seats"] == [2]
        host_page = links["host_url"].removeprefix(base)
        status, text = get(base, host_page)
        assert status == 200 and 'data-open-seat="2"' in text and 'data-seat-link="2"' not in text
        status, text = get(base, host_page, {"accept-language": "cs"})  # in the reader's language
        assert '<html lang="cs">' in text and "Odkazy na místa této partie" in text
        assert "Místo 2:</b> volné: jeho odkaz dostane první" in text
        host = Client(base, match_id, links["seats"][0]["token"])
        host.until(lambda m: m["type"] == "position")
        # the clock waits for the open seat as for any person not yet arrived
        assert host.position["clock"]["waiting"] == [2]
        host.act(host.position["legal"][0])  # the host gives a piece
        host.at(1)
        assert listed(base, match_id)["open_seats"] == [2]  # ongoing: still offered

        status, taken = take(base, match_id, 2)
        assert status == 200, taken
        assert taken["seat"] == 2
        assert taken["url"].startswith(f"{base}match/{match_id}?token=")
        token = taken["url"].rpartition("token=")[2]
        assert token not in str(links)  # given to the taker only
        status, again = take(base, match_id, 2)
        assert (status, again) == (409, {"error": "seat 2 was taken by someone else"})
        assert listed(base, match_id)["open_seats"] == []
        status, text = get(base, host_page)  # the host sees every taken seat's link again
        assert 'data-open-seat' not in text and f'data-seat-link="2" href="{taken["url"]}"' in text

        guest = Client(base, match_id, token)
        hello = guest.until(lambda m: m["type"] == "hello")
        assert hello["seat"] == 2
        guest.at(1)
        assert guest.position["to_act"] == 2 and guest.position["legal"]  # their turn
        host.close()
        guest.close()

        assert take(base, "nosuchmatch", 2) == (404, {"error": "no such match"})
        for seat in (1, 3):  # seat 1 was given to the host; quarto has no seat 3
            status, answer = take(base, match_id, seat)
            assert (status, answer) == (
                404, {"error": f"seat {seat} of this match is not open to take"}
            )  # fmt: skip
        assert take(base, match_id, 0)[0] == 404
        status, answer = post(base, "api/matches", {"game": "quarto", "seats": [
            {"seat": 2, "open": True, "ai": "1"}]})  # fmt: skip
        assert status == 400 and "not both" in answer["error"], answer
        status, answer = post(base, "api/matches", {"game": "quarto", "seats": [
            {"seat": 2, "open": 1}]})  # fmt: skip
        assert status == 400 and "seats.0.open" in answer["error"], answer


def race(bases: list[str], match_id: str, seat: int) -> list[tuple[int, Any]]:
    """Take ``seat`` through each of ``bases`` at once; the answers."""
    barrier = threading.Barrier(len(bases))
    answers: list[tuple[int, Any]] = [(0, None)] * len(bases)

    def one(index: int) -> None:
        barrier.wait()
        answers[index] = take(bases[index], match_id, seat)

    threads = [threading.Thread(target=one, args=(i,)) for i in range(len(bases))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    return answers


def one_winner(answers: list[tuple[int, Any]], seat: int) -> str:
    """The url of the one taker who won (the others refused as taken); fails otherwise."""
    won = [a for s, a in answers if s == 200]
    lost = [a for s, a in answers if s == 409]
    assert len(won) == 1 and len(lost) == len(answers) - 1, answers
    assert lost[0] == {"error": f"seat {seat} was taken by someone else"}
    return str(won[0]["url"])


def test_two_servers_on_one_sqlite_file_give_an_open_seat_once(tmp_path: Path) -> None:
    db = tmp_path / "m.sqlite3"
    ports = [free_port(), free_port()]
    first = start_process(db, ports[0], "--max-creates-per-minute", "2")
    second = None
    try:
        bases = [f"http://127.0.0.1:{p}/" for p in ports]
        status, links = post(bases[0], "api/matches", {"game": "quarto", "seats": [
            {"seat": 1, "open": True}, {"seat": 2, "open": True}]})  # fmt: skip
        assert status == 201, links
        assert [s.get("open") for s in links["seats"]] == [True, True]
        second = start_process(db, ports[1], "--max-creates-per-minute", "2")  # loads it
        url = one_winner(race(bases, links["id"], 2), 2)
        assert "token=" in url
        assert listed(bases[1], links["id"])["open_seats"] == [1]
        status, taken = take(bases[0], links["id"], 1)  # the address's second take here
        assert status == 200 and taken["seat"] == 1, taken
        status, refused = take(bases[0], links["id"], 1)  # its third: over the limit
        assert status == 429 and "at most 2 a minute" in refused["error"], refused
    finally:
        for process in (first, second):
            if process is not None:
                process.terminate()
                process.wait(15)


def test_two_servers_on_postgres_give_an_open_seat_once(pg_url: str, redis_server: Any) -> None:
    with cluster(pg_url, redis_server, 2) as servers:
        bases = [servers.base(0), servers.base(1)]
        status, links = post(bases[0], "api/matches", QUARTO_OPEN_2)
        assert status == 201, links
        url = one_winner(race(bases, links["id"], 2), 2)
        token = url.rpartition("token=")[2]
        for base in bases:  # the take through one server is seen through the other
            guest = Client(base, links["id"], token)
            assert guest.until(lambda m: m["type"] == "hello")["seat"] == 2
            guest.close()
        assert listed(bases[0], links["id"])["open_seats"] == []


def test_the_store_lets_one_taker_through(run: Callable[[Body], None]) -> None:  # noqa: F811
    async def body(db: MatchStore) -> None:
        match = new_match()
        match.seats = [SeatRow(1, None, "one"), SeatRow(2, None, "two")]
        await db.submit([match.insert(), *open_seats.opened("m1", {2})])
        assert await open_seats.still_open(db) == {"m1": [2]}
        results = await asyncio.gather(
            *(db.submit(open_seats.taking("m1", 2, time.time())) for _ in range(3)),
            return_exceptions=True,
        )
        assert sorted(type(r).__name__ for r in results) == ["NoneType", "Stale", "Stale"]
        assert await open_seats.still_open(db) == {}
        with pytest.raises(Stale):  # never open
            await db.submit(open_seats.taking("m1", 1, time.time()))

    run(body)


def test_a_database_made_before_open_seats_opens(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    with live_server(path) as base:
        status, links = post(base, "api/matches", {"game": "quarto"})
        assert status == 201, links
    old = sqlite3.connect(path)  # the file as tabletop before open seats made it
    old.execute("DROP TABLE open_seats")
    old.commit()
    old.close()
    with live_server(path) as base:
        assert listed(base, links["id"])["open_seats"] == []
        assert take(base, links["id"], 2)[0] == 404
        status, made = post(base, "api/matches", QUARTO_OPEN_2)
        assert status == 201, made
        assert listed(base, made["id"])["open_seats"] == [2]

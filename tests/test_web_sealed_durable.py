"""An acknowledged sealed choice is never lost (issue 35, the browser part): it is in the
store before its chooser is told, so

- a real ``tabletop serve`` SIGKILLed after a seat's bid was acknowledged (and the other
  seat's bid taken back), then started again on the same database (one made by the
  previous schema, migrated on the way), shows that seat its bid still made (``mine``)
  and the others only who has chosen; the other seat bids and the round is applied with
  both bids;
- two servers on one PostgreSQL and one Redis pool the bids of a round: a bid made
  through server A is applied with the one made through server B, whichever comes last,
  and when both come at once (the store refuses the one that would make the round whole
  unknowingly; that server reads the store and applies the round);
- in both, no message to another seat or a spectator carries a bid of a round not yet
  applied (the sweep of tests/test_web_sealed_leak.py over every message received);
- a database of the schema before (SQLite 4, PostgreSQL 1) opens and gains the table.
"""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from pathlib import Path
from typing import Any

import pytest

from tabletop.core.match import Match
from tabletop.core.registry import registry
from tabletop.web import postgres, sealed, store, store_sealed
from tabletop.web.catchup import catch_up
from tests.migrations import postgres_migrated
from tests.test_web_process import kill
from tests.test_web_sealed_leak import answered, create, sweep
from tests.test_web_shared import cluster
from tests.web_support import Client, Message, free_port, get, start_process

pytest.importorskip("tabletop_goofspiel")

Entered = dict[int, dict[int, set[str]]]


def old_sqlite(path: Path) -> None:
    """An empty database as the schema before the ``sealed`` table made it (version 4: nor
    the ``ending`` column of version 6)."""
    before = store.SCHEMA.split("CREATE TABLE IF NOT EXISTS sealed")[0]
    assert ", ending TEXT" in before
    before = before.replace(", ending TEXT", "")
    db = sqlite3.connect(path)
    db.executescript(before + store.CHAT_SCHEMA + "PRAGMA user_version=4;")
    db.close()


def bid(client: Client, number: int, text: str, entered: Entered, seat: int) -> Message:
    """``seat`` bids ``text`` at round ``number``; its answer (the position showing the
    bid sealed, or the round applied)."""
    entered.setdefault(number, {}).setdefault(seat, set()).add(text)
    client.at(number)
    client.act(text)
    answer = answered(client, number, text)
    assert answer["type"] == "position", answer
    return answer


def revealed(client: Client, number: int) -> dict[int, str]:
    """The bids of the round at ``number`` as ``client``'s game log told them, by seat."""
    entries = [e for m in client.messages if m["type"] == "log" for e in m["entries"]]
    return {e["player"]: e["text"] for e in entries if e["number"] in (number + 1, number + 2)}


def waiting(client: Client, seats: list[int]) -> Message:
    """Read until ``client``'s position says that exactly ``seats`` are still to choose."""
    return client.until(
        lambda m: m["type"] == "position" and (m.get("sealed") or {}).get("waiting") == seats
    )


def merged(first: Client, then: Client) -> Client:
    """``then`` holding every message of both connections (one seat before and after a
    restart), for the sweep."""
    then.messages = first.messages + then.messages
    return then


def finish(clients: dict[int, Client], number: int, entered: Entered) -> None:
    """Play the match on to its end: each seat still to choose (as its own position says)
    bids its lowest card, the lowest seat first."""
    while True:
        if clients[1].at(number)["status"] == "over":
            return
        for seat, client in sorted(clients.items()):
            legal = client.at(number)["legal"]
            if legal:
                bid(client, number, legal[0], entered, seat)
        number = clients[1].at(number + 1)["number"]


def test_a_sealed_bid_outlives_a_sigkill_and_is_applied_after(tmp_path: Path) -> None:
    db, port = tmp_path / "m.sqlite3", free_port()
    old_sqlite(db)  # the schema before: the restart below migrates it
    base = f"http://127.0.0.1:{port}/"
    server = start_process(db, port)
    entered: Entered = {}
    try:
        links = create(base, 2, {}, 4)
        tokens = {s["seat"]: s["token"] for s in links["seats"]}
        before = {s: Client(base, links["id"], tokens[s]) for s in (1, 2)}
        watcher_before = Client(base, links["id"])
        for client in (*before.values(), watcher_before):
            client.at(1)
        # seat 2 bids and takes it back (the take-back is stored too), then seat 1 bids
        assert bid(before[2], 1, "bid 2", entered, 2)["sealed"]["mine"] == "bid 2"
        before[2].send({"type": "undo"})
        assert before[2].until(lambda m: m["type"] == "undo-result")["sealed"] is True
        assert bid(before[1], 1, "bid 3", entered, 1)["sealed"]["mine"] == "bid 3"
        kill(server)  # the bid was acknowledged: it is stored
        server = start_process(db, port)
        after = {s: Client(base, links["id"], tokens[s]) for s in (1, 2)}
        watcher = Client(base, links["id"])
        mine = after[1].at(1)
        assert mine["number"] == 1 and mine["sealed"] == {
            "players": [1, 2], "waiting": [2], "mine": "bid 3"
        }  # fmt: skip
        assert mine["legal"] == []  # chosen already: nothing more to choose
        theirs = after[2].at(1)
        assert theirs["sealed"] == {"players": [1, 2], "waiting": [2], "mine": None}
        assert "bid 3" in theirs["legal"]  # its own hand, not the other's bid
        assert watcher.at(1)["sealed"] == {"players": [1, 2], "waiting": [2], "mine": None}
        bid(after[2], 1, "bid 1", entered, 2)
        for client in after.values():
            assert client.at(4)["number"] == 4  # the round applied, the next prize up
            assert client.position["sealed"]["waiting"] == [1, 2]
        assert revealed(after[1], 1) == {1: "bid 3", 2: "bid 1"}
        assert revealed(after[2], 1) == {1: "bid 3", 2: "bid 1"}
        # the next round, seat 2 first: it is seat 2's own bid that it sees
        assert bid(after[2], 4, "bid 2", entered, 2)["sealed"]["mine"] == "bid 2"
        finish(after, 4, entered)
        watcher.until(lambda m: m["type"] == "position" and m["status"] == "over")
        status, text = get(base, f"api/matches/{links['id']}/record?token={tokens[1]}")
        assert status == 200, text
        clients: dict[int | None, Client] = {
            s: merged(before[s], after[s]) for s in (1, 2)
        }
        clients[None] = merged(watcher_before, watcher)
        for client in (*before.values(), *after.values(), watcher_before, watcher):
            client.close()
    finally:
        server.terminate()
        server.wait(30)
    assert sweep(clients, text, entered) > 10
    check = sqlite3.connect(db)
    assert check.execute("PRAGMA user_version").fetchone()[0] == store.VERSION
    assert check.execute("SELECT count(*) FROM sealed").fetchone()[0] == 0  # all applied
    check.close()


def test_two_servers_pool_the_sealed_bids_of_a_round(pg_url: str, redis_server: Any) -> None:
    entered: Entered = {}
    with cluster(pg_url, redis_server, 2) as servers:
        a, b = servers.base(0), servers.base(1)
        links = create(a, 2, {}, 5)
        tokens = {s["seat"]: s["token"] for s in links["seats"]}
        seats = {1: Client(a, links["id"], tokens[1]), 2: Client(b, links["id"], tokens[2])}
        watchers = [Client(a, links["id"]), Client(b, links["id"])]
        for client in (*seats.values(), *watchers):
            client.at(1)
        # seat 1 on A bids and takes it back: B is told who has chosen, then who has not
        assert bid(seats[1], 1, "bid 1", entered, 1)["sealed"]["mine"] == "bid 1"
        waiting(seats[2], [2])
        seats[1].send({"type": "undo"})
        assert seats[1].until(lambda m: m["type"] == "undo-result")["sealed"] is True
        waiting(seats[2], [1, 2])
        # seat 1 on A, then seat 2 on B: B applies the round with A's bid
        assert bid(seats[1], 1, "bid 4", entered, 1)["sealed"]["mine"] == "bid 4"
        assert waiting(seats[2], [2])["sealed"]["mine"] is None  # B knows who has chosen
        waiting(watchers[1], [2])
        bid(seats[2], 1, "bid 2", entered, 2)
        for client in (*seats.values(), *watchers):
            assert client.at(4)["number"] == 4
        assert revealed(seats[1], 1) == revealed(seats[2], 1) == {1: "bid 4", 2: "bid 2"}
        # seat 2 on B, then seat 1 on A
        assert bid(seats[2], 4, "bid 5", entered, 2)["sealed"]["mine"] == "bid 5"
        waiting(seats[1], [1])
        bid(seats[1], 4, "bid 1", entered, 1)
        for client in seats.values():
            assert client.at(7)["number"] == 7
        assert revealed(seats[2], 4) == {1: "bid 1", 2: "bid 5"}
        # both at once, through the two servers: the round is applied once, with both
        barrier = threading.Barrier(2)

        def at_once(seat: int, text: str) -> None:
            entered.setdefault(7, {}).setdefault(seat, set()).add(text)
            barrier.wait()
            seats[seat].act(text)

        threads = [threading.Thread(target=at_once, args=(s, t))
                   for s, t in ((1, "bid 3"), (2, "bid 4"))]  # fmt: skip
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        for client in (*seats.values(), *watchers):
            assert client.at(10)["number"] == 10
        errors = [m for c in seats.values() for m in c.messages if m["type"] == "error"]
        assert errors == []  # neither bid was refused: the store ordered them
        assert revealed(seats[1], 7) == revealed(seats[2], 7) == {1: "bid 3", 2: "bid 4"}
        finish(seats, 10, entered)
        for watcher in watchers:
            watcher.until(lambda m: m["type"] == "position" and m["status"] == "over")
        status, text = get(b, f"api/matches/{links['id']}/record?token={tokens[2]}")
        assert status == 200, text
        clients: dict[int | None, Client] = {1: seats[1], 2: seats[2], None: watchers[1]}
        for client in (*seats.values(), *watchers):
            client.close()
    assert sweep(clients, text, entered) > 10
    assert sweep({None: watchers[0]}, text, entered) > 5


def test_a_postgres_database_of_the_schema_before_gains_the_sealed_table(pg_url: str) -> None:
    before = postgres.SCHEMA.split("CREATE TABLE IF NOT EXISTS sealed")[0]
    assert postgres_migrated(pg_url, before, 1, "sealed") == ((postgres.VERSION,), (0,))
    match = store.StoredMatch(
        "m1", 1.0, "goofspiel", "1", 2, {}, 7, [store.SeatRow(1, None, "t"),
        store.SeatRow(2, None, "u")], True, None,
    )  # fmt: skip

    async def stored() -> tuple[Any, Any]:
        db = await postgres.PostgresStore(pg_url).open()
        try:
            await db.submit([match.insert()])
            await db.submit(store.append("m1", 1, "prize 3", "ongoing", 2.0))
            await db.submit(store_sealed.chosen("m1", 1, 2, "bid 4", 2, 0, 3.0))
            return await db.positions(0.0), await db.load("m1")
        finally:
            await db.aclose()

    marks, loaded = asyncio.run(stored())
    # seat 2 has chosen; no chat message, no undo request
    assert marks == {"m1": (1, 0, "ongoing", None, 0, None, 1 << 2, 0, None, None)}
    assert loaded.sealed == {2: "bid 4"} and loaded.actions == ["prize 3"]


def test_the_store_never_holds_a_whole_round_nor_applies_a_choice_it_does_not_hold(
    tmp_path: Path,
) -> None:
    """SQLite's store (PostgreSQL runs the same statements): a seat's second choice, a
    choice that would make the round whole, a joint action naming a choice as it is not
    stored, an action while a choice is stored, a take-back of none: each refused as
    stale, nothing changed; the joint action as stored clears the round's choices."""
    match = store.StoredMatch(
        "m1", 1.0, "goofspiel", "1", 2, {}, 7, [store.SeatRow(1, None, "t"),
        store.SeatRow(2, None, "u")], True, None,
    )  # fmt: skip

    async def run() -> tuple[list[bool], Any]:
        db = store.Store(tmp_path / "m.sqlite3")
        outcomes = []

        async def accepted(statements: list[store.Statement]) -> bool:
            try:
                await db.submit(statements)
            except store.Stale:
                return False
            return True

        try:
            await db.submit([match.insert()])
            await db.submit(store.append("m1", 1, "prize 3", "ongoing", 2.0))
            for statements in (
                store_sealed.chosen("m1", 1, 1, "bid 4", 2, 0, 3.0),  # accepted
                store_sealed.chosen("m1", 1, 1, "bid 2", 2, 0, 3.0),  # chosen already
                store_sealed.chosen("m1", 1, 2, "bid 1", 2, 0, 3.0),  # the round whole
                store_sealed.chosen("m1", 0, 2, "bid 1", 3, 0, 3.0),  # another position
                store.append("m1", 2, "bid 4", "ongoing", 4.0, None, 0, {1: "bid 2"}),
                store.append("m1", 2, "bid 4", "ongoing", 4.0, None, 0),  # it is stored
                store_sealed.taken_back("m1", 1, 2, 4.0),  # seat 2 has none
                store.append("m1", 2, "bid 4", "ongoing", 4.0, None, 0, {1: "bid 4"}),
                store.append("m1", 3, "bid 1", "ongoing", 4.0, None, 0),
            ):
                outcomes.append(await accepted(statements))
            return outcomes, await db.load("m1")
        finally:
            db.close()

    outcomes, loaded = asyncio.run(run())
    assert outcomes == [True, False, False, False, False, False, False, True, True]
    assert loaded.actions == ["prize 3", "bid 4", "bid 1"] and loaded.sealed == {}


def test_catching_up_takes_the_stored_sealed_choices_in_place_of_those_held() -> None:
    """A room brought up to the store holds exactly the sealed choices stored: one added,
    one taken back, one replaced; a set of choices that would make the round whole (never
    stored so) is not applied, its last left out; a choice that does not play is left
    out."""
    game = registry().get("goofspiel")
    match = Match(game, 2, game.info.options(), 5)
    number = len(match.texts)
    assert match.choosers() == [1, 2]
    mine, other = match.listing_text(1)[:2]

    def stored(choices: dict[int, str]) -> store.StoredMatch:
        return store.StoredMatch(
            "m", 1.0, "goofspiel", game.info.version, 2, {}, 5,
            [store.SeatRow(1, None, "t"), store.SeatRow(2, None, "u")], True, None,
            actions=list(match.texts), sealed=choices,
        )  # fmt: skip

    for choices, held, changed in (
        ({1: mine}, {1: mine}, True),
        ({1: mine}, {1: mine}, False),
        ({1: other}, {1: other}, True),
        ({}, {}, True),
        ({1: mine, 2: other}, {1: mine}, True),  # a whole round: never applied so
        ({2: "bid 99"}, {}, True),  # does not play: left out
    ):
        result = catch_up(match, stored(choices), 0)
        assert (sealed.texts(result.match), result.changed) == (held, changed), choices
        assert len(result.match.texts) == number and result.match is match

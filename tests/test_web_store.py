"""The store's contract, the same tests against SQLite (the default) and PostgreSQL (a
throwaway cluster, tests/db_servers.py): a match's record and actions round-trip; the
database orders a match's actions (a second action at a taken number is refused as
stale); an undo frees the numbers; a game ends on time exactly once; the computer
seats' lease has one holder at a time; the deadline is stored with the position; chat
round-trips; a schema too new is refused in one line.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

from tabletop.web import chat, names, store
from tabletop.web.store import MatchStore, SeatRow, Stale, StoredMatch

Body = Callable[[MatchStore], Awaitable[None]]


@pytest.fixture(params=["sqlite", "postgres"])
def run(request: pytest.FixtureRequest, tmp_path: Path) -> Callable[[Body], None]:
    """Run an async test body against a fresh store of the parameter's kind."""
    if request.param == "sqlite":

        async def opened() -> MatchStore:
            return store.Store(tmp_path / "matches.sqlite3")

    else:
        url = request.getfixturevalue("pg_url")
        from tabletop.web.postgres import PostgresStore

        async def opened() -> MatchStore:
            return await PostgresStore(url).open()

    def runner(body: Body) -> None:
        async def main() -> None:
            db = await opened()
            try:
                await body(db)
            finally:
                await close(db)

        asyncio.run(main())

    return runner


async def close(db: MatchStore) -> None:
    closing = getattr(db, "aclose", None)
    if closing is not None:
        await closing()
    else:
        db.close()


def new_match(match_id: str = "m1") -> StoredMatch:
    return StoredMatch(
        id=match_id, created=time.time(), game="quarto", game_version="1", players=2,
        options={"variant": "x"}, seed=2**31 - 1,
        seats=[SeatRow(1, None, "secret"), SeatRow(2, "easy", None)],
        spectators=True, move_time=30.0,
    )  # fmt: skip


async def stale(db: MatchStore, statements: list[store.Statement]) -> bool:
    try:
        await db.submit(statements)
    except Stale:
        return True
    return False


def test_a_match_and_its_actions_round_trip(run: Callable[[Body], None]) -> None:
    async def body(db: MatchStore) -> None:
        await db.submit([new_match().insert()])
        for number, text in enumerate(["a1", "b2", "c3"], 1):
            await db.submit(store.append("m1", number, text, "ongoing", time.time(), 99.5))
        await db.submit(store.claim("m1", 1))
        await db.submit(store.claim("m1", 1))  # a second claim changes nothing
        loaded = await db.load("m1")
        assert loaded is not None
        assert loaded.actions == ["a1", "b2", "c3"]
        assert loaded.claimed == {1}
        assert loaded.deadline == 99.5
        assert loaded.options == {"variant": "x"} and loaded.seed == 2**31 - 1
        assert [(s.seat, s.ai, s.token) for s in loaded.seats] == [
            (1, None, "secret"), (2, "easy", None)
        ]
        everything, unserved = await db.load_all()
        assert [m.id for m in everything] == ["m1"] and not unserved
        assert everything[0].actions == loaded.actions
        assert await db.load("nope") is None

    run(body)


def test_positions_are_the_matches_that_can_still_change(run: Callable[[Body], None]) -> None:
    """The servers' once-a-second re-read covers ongoing matches and those touched since
    ``since``; an old finished match is left out (it no longer changes), until its
    rematch touches it."""

    async def body(db: MatchStore) -> None:
        for match_id in ("on", "old", "new"):
            await db.submit([new_match(match_id).insert()])
        await db.submit(store.append("on", 1, "a1", "ongoing", 1000.0))
        await db.submit(store.append("old", 1, "a1", "over", 1000.0))
        await db.submit(store.append("new", 1, "a1", "over", 5000.0))
        marks = await db.positions(since=2000.0)
        assert set(marks) == {"on", "new"} and marks["on"][0] == 1
        await db.submit(store.rematch("old", "on"))  # touched now
        assert set(await db.positions(since=2000.0)) == {"on", "old", "new"}

    run(body)


def test_no_gap_no_action_on_a_history_undone_elsewhere(run: Callable[[Body], None]) -> None:
    """Found in review: an action at a number past the stored ones, or chosen before
    another server's undo, or an undo made without seeing another server's action, is
    refused as stale, so the stored actions never have a hole and an undo never deletes
    an action someone was told of."""

    async def body(db: MatchStore) -> None:
        await db.submit([new_match().insert()])
        for number in (1, 2, 3):
            await db.submit(store.append("m1", number, f"a{number}", "ongoing", 1.0, None, 0))
        assert await stale(db, store.append("m1", 5, "gap", "ongoing", 1.0, None, 0))
        # server A undoes the last action, having seen all three
        await db.submit(store.truncate("m1", 2, None, seen=3, undos=0))
        # server B, not told yet, acts at 3 on the history it knew (undos 0): refused
        assert await stale(db, store.append("m1", 3, "b3", "ongoing", 1.0, None, 0))
        await db.submit(store.append("m1", 3, "a3'", "ongoing", 1.0, None, 1))
        # B, having seen only two actions, tries an undo: it would delete a3'
        assert await stale(db, store.truncate("m1", 1, None, seen=2, undos=1))
        loaded = await db.load("m1")
        assert loaded is not None and loaded.actions == ["a1", "a2", "a3'"]
        assert loaded.undos == 1

    run(body)


def test_a_second_action_at_a_taken_number_is_stale(run: Callable[[Body], None]) -> None:
    async def body(db: MatchStore) -> None:
        await db.submit([new_match().insert()])
        await db.submit(store.append("m1", 1, "first", "ongoing", time.time()))
        assert await stale(db, store.append("m1", 1, "second", "over", time.time()))
        loaded = await db.load("m1")
        assert loaded is not None and loaded.actions == ["first"]
        assert loaded.status == "ongoing"  # the refused step changed nothing, its row none

    run(body)


def test_steps_submitted_together_are_refused_one_by_one(run: Callable[[Body], None]) -> None:
    async def body(db: MatchStore) -> None:
        await db.submit([new_match().insert()])
        futures = [
            db.submit(store.append("m1", 1, "x", "ongoing", time.time())),
            db.submit(store.append("m1", 1, "y", "ongoing", time.time())),
            db.submit(store.append("m1", 2, "z", "ongoing", time.time())),
        ]
        results = await asyncio.gather(*futures, return_exceptions=True)
        assert results[0] is None and isinstance(results[1], Stale) and results[2] is None
        loaded = await db.load("m1")
        assert loaded is not None and loaded.actions == ["x", "z"]

    run(body)


def test_an_undo_frees_the_numbers_and_counts(run: Callable[[Body], None]) -> None:
    async def body(db: MatchStore) -> None:
        await db.submit([new_match().insert()])
        for number in (1, 2, 3):
            await db.submit(store.append("m1", number, f"t{number}", "ongoing", time.time()))
        await db.submit(store.truncate("m1", 1, 12.0))
        await db.submit(store.append("m1", 2, "again", "ongoing", time.time()))
        loaded = await db.load("m1")
        assert loaded is not None and loaded.actions == ["t1", "again"]
        assert loaded.undos == 1

    run(body)


def test_a_game_ends_on_time_exactly_once(run: Callable[[Body], None]) -> None:
    async def body(db: MatchStore) -> None:
        await db.submit([new_match().insert()])
        await db.submit(store.append("m1", 1, "a", "ongoing", time.time(), 5.0))
        assert await stale(db, store.forfeit("m1", 1, time.time(), number=0))  # moved on
        await db.submit(store.forfeit("m1", 1, time.time(), number=1))
        assert await stale(db, store.forfeit("m1", 1, time.time(), number=1))  # again
        assert await stale(db, store.append("m1", 2, "late", "ongoing", time.time()))
        loaded = await db.load("m1")
        assert loaded is not None
        assert (loaded.forfeit, loaded.status, loaded.deadline) == (1, "over", None)
        assert loaded.actions == ["a"]
        await db.submit(store.truncate("m1", 1))  # an undo takes the loss back
        await db.submit(store.append("m1", 2, "b", "ongoing", time.time()))

    run(body)


def test_the_computer_seats_lease_has_one_holder(run: Callable[[Body], None]) -> None:
    async def body(db: MatchStore) -> None:
        assert await db.lease("m1", "server-a", 0.3)
        assert not await db.lease("m1", "server-b", 0.3)
        assert await db.lease("m1", "server-a", 0.3)  # renewed by its holder
        assert await db.lease("m2", "server-b", 5)  # another match's lease is its own
        await asyncio.sleep(0.4)
        assert await db.lease("m1", "server-b", 5)  # expired: taken over
        assert not await db.lease("m1", "server-a", 5)
        await db.release("m1", "server-b")
        assert await db.lease("m1", "server-a", 5)

    run(body)


def test_chat_round_trips(run: Callable[[Body], None]) -> None:
    async def body(db: MatchStore) -> None:
        await db.submit([new_match().insert(), *chat.open_to_spectators("m1")])
        await db.submit(chat.open_to_spectators("m1"))
        entry = {"type": "chat", "seat": 1, "name": "Alice", "text": "hi", "at": 1.5}
        await db.submit(chat.insert("m1", entry))
        old = {"type": "chat", "seat": None, "name": "spectator", "text": "yo", "at": 2.5}
        await db.submit(chat.insert("m1", old))  # named as before names: no name now
        chats = chat.from_rows(await db.chat_rows())
        assert chats["m1"].spectators_write
        assert chats["m1"].messages == [entry, {**old, "name": ""}]

    run(body)


def test_seat_names_round_trip(run: Callable[[Body], None]) -> None:
    async def body(db: MatchStore) -> None:
        await db.submit([new_match().insert(), *names.upsert("m1", 2, "Bob")])
        await db.submit(names.upsert("m1", 2, "Bobek"))  # renamed: one row a seat
        await db.submit(names.upsert("m1", 1, "Alice"))
        loaded = await db.load("m1")
        assert loaded is not None and loaded.names == {1: "Alice", 2: "Bobek"}
        everything, _ = await db.load_all()
        assert everything[0].names == {1: "Alice", 2: "Bobek"}
        with pytest.raises(Stale):  # one name at one seat, whichever server asks
            await db.submit(names.upsert("m1", 1, "BOBEK"))
        await db.submit(names.upsert("m1", 2, "BOBEK"))  # its own name, in capitals
        loaded = await db.load("m1")
        assert loaded is not None and loaded.names == {1: "Alice", 2: "BOBEK"}

    run(body)


def test_a_sqlite_file_of_version_3_is_brought_up_to_date(tmp_path: Path) -> None:
    import sqlite3

    path = tmp_path / "old.sqlite3"
    db = sqlite3.connect(path)
    db.executescript(
        "CREATE TABLE matches (id TEXT PRIMARY KEY, created REAL NOT NULL, game TEXT NOT NULL,"
        " game_version TEXT NOT NULL, players INTEGER NOT NULL, options TEXT NOT NULL,"
        " seed INTEGER NOT NULL, seats TEXT NOT NULL, spectators INTEGER NOT NULL,"
        " move_time REAL, forfeit INTEGER, status TEXT NOT NULL DEFAULT 'ongoing',"
        " rematch TEXT, updated REAL, hints INTEGER);"
        "CREATE TABLE actions (match TEXT NOT NULL, number INTEGER NOT NULL,"
        " text TEXT NOT NULL, PRIMARY KEY (match, number));"
        "PRAGMA user_version=3;"
    )
    db.execute(*new_match().insert())
    db.execute("INSERT INTO actions VALUES ('m1', 1, 'a')")
    db.commit()
    db.close()
    matches, _ = store.load_all(path)
    assert matches[0].actions == ["a"] and matches[0].deadline is None
    assert matches[0].undos == 0
    check = sqlite3.connect(path)
    assert check.execute("PRAGMA user_version").fetchone()[0] == store.VERSION
    check.close()


def test_postgres_schema_too_new_is_one_line(pg_url: str) -> None:
    import psycopg

    from tabletop.web import postgres

    postgres.check(pg_url)  # creates the schema at its version
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute("UPDATE schema_version SET version=99")
    with pytest.raises(store.StoreError, match=r"newer tabletop \(schema 99") as caught:
        postgres.check(pg_url)
    assert "\n" not in str(caught.value)


def test_postgres_that_does_not_answer_is_one_line() -> None:
    from tabletop.web import postgres
    from tests.db_servers import free_port

    url = f"postgresql://tabletop@127.0.0.1:{free_port()}/none"
    with pytest.raises(store.StoreError, match="cannot use the database") as caught:
        postgres.check(url)
    assert "\n" not in str(caught.value)


def test_two_postgres_stores_racing_at_one_number_store_one(pg_url: str) -> None:
    """Two servers' stores (each its own connections) offered different actions at the
    same number at the same moment, many times: exactly one is stored each time."""
    from tabletop.web.postgres import PostgresStore

    async def main() -> None:
        a, b = await PostgresStore(pg_url).open(), await PostgresStore(pg_url).open()
        try:
            await a.submit([new_match().insert()])
            for number in range(1, 41):
                results = await asyncio.gather(
                    a.submit(store.append("m1", number, f"a{number}", "ongoing", 0.0)),
                    b.submit(store.append("m1", number, f"b{number}", "ongoing", 0.0)),
                    return_exceptions=True,
                )
                assert sorted(type(r).__name__ for r in results) == ["NoneType", "Stale"]
            loaded = await a.load("m1")
            assert loaded is not None and len(loaded.actions) == 40
        finally:
            await a.aclose()
            await b.aclose()

    asyncio.run(main())


def test_the_sqlite_server_imports_no_shared_store_driver(tmp_path: Path) -> None:
    """`tabletop serve` on SQLite (the default) loads neither psycopg nor redis."""
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from pathlib import Path\n"
        "from starlette.testclient import TestClient\n"
        "from tabletop.web.app import build_app\n"
        "from tests.web_support import TEST_CONFIG\n"
        f"with TestClient(build_app(Path({str(tmp_path / 'm.sqlite3')!r}), TEST_CONFIG)) as c:\n"
        "    assert c.get('/api/matches').status_code == 200\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('psycopg', 'redis')))\n"
    )
    root = Path(__file__).resolve().parents[1]
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=root)  # fmt: skip
    assert out.stdout.strip().splitlines()[-1] == "[]", out.stdout

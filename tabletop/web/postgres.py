"""PostgreSQL as the store (``tabletop serve --db postgresql://USER@HOST:PORT/DB``).

Several servers share one database: each action is one row keyed by (match, number),
so the database orders a match's actions and a second action at a taken number is
refused (:class:`~tabletop.web.store.Stale`), whichever server it came through. The
statements are those of :mod:`tabletop.web.store` (``?`` becomes psycopg's ``%s``).

One connection writes: every step submitted while the previous commit was under way
goes into the next transaction, each in its own savepoint (one commit for many actions,
one step's refusal leaves the others). Another connection reads. The driver is psycopg 3
(maintained, async, typed; the binary wheel needs no compiler), imported only here.

The schema has a version (table ``schema_version``); :func:`migrate` creates it or brings
an older one up to :data:`VERSION` step by step (:data:`MIGRATIONS`), under an advisory
lock so servers starting together do it once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Sequence
from typing import Any

import psycopg

from tabletop.core.i18n.text import Domain
from tabletop.web import store
from tabletop.web.store import (
    ONE_ROW,
    ChatRows,
    Mark,
    Stale,
    Statement,
    StoredMatch,
    StoreError,
    Unserved,
)

log = logging.getLogger("tabletop.web")
_ = Domain("tabletop")

SCHEMA = """
CREATE TABLE IF NOT EXISTS matches (
    id TEXT PRIMARY KEY, created DOUBLE PRECISION NOT NULL, game TEXT NOT NULL,
    game_version TEXT NOT NULL, players INTEGER NOT NULL, options TEXT NOT NULL,
    seed BIGINT NOT NULL, seats TEXT NOT NULL, spectators INTEGER NOT NULL,
    move_time DOUBLE PRECISION, forfeit INTEGER, status TEXT NOT NULL DEFAULT 'ongoing',
    rematch TEXT, updated DOUBLE PRECISION, hints INTEGER, deadline DOUBLE PRECISION,
    undos INTEGER NOT NULL DEFAULT 0, ending TEXT
);
CREATE TABLE IF NOT EXISTS actions (
    match TEXT NOT NULL, number INTEGER NOT NULL, text TEXT NOT NULL,
    PRIMARY KEY (match, number)
);
CREATE TABLE IF NOT EXISTS claims (
    match TEXT NOT NULL, seat INTEGER NOT NULL, PRIMARY KEY (match, seat)
);
CREATE TABLE IF NOT EXISTS open_seats (
    match TEXT NOT NULL, seat INTEGER NOT NULL, taken DOUBLE PRECISION,
    PRIMARY KEY (match, seat)
);
CREATE TABLE IF NOT EXISTS leases (
    match TEXT PRIMARY KEY, holder TEXT NOT NULL, expires DOUBLE PRECISION NOT NULL
);
CREATE TABLE IF NOT EXISTS timeouts (
    match TEXT PRIMARY KEY, number INTEGER NOT NULL, player INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS sealed (
    match TEXT NOT NULL, seat INTEGER NOT NULL, number INTEGER NOT NULL, text TEXT NOT NULL,
    PRIMARY KEY (match, seat)
);
CREATE TABLE IF NOT EXISTS names (
    match TEXT NOT NULL, seat INTEGER NOT NULL, name TEXT NOT NULL, folded TEXT NOT NULL,
    PRIMARY KEY (match, seat), UNIQUE (match, folded)
);
CREATE TABLE IF NOT EXISTS undo_requests (
    match TEXT PRIMARY KEY, seat INTEGER NOT NULL, number INTEGER NOT NULL,
    undos INTEGER NOT NULL, count INTEGER NOT NULL, waiting TEXT NOT NULL,
    asked DOUBLE PRECISION NOT NULL
);
CREATE TABLE IF NOT EXISTS chat (
    match TEXT NOT NULL, at DOUBLE PRECISION NOT NULL, seat INTEGER, name TEXT NOT NULL,
    text TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS chat_by_match ON chat (match, at);
CREATE TABLE IF NOT EXISTS chat_open (match TEXT PRIMARY KEY);
"""

VERSION = 5
# What brings a database of version N-1 to N (version 2: the ``sealed`` table of pending
# sealed choices, which SCHEMA creates; version 3: how a match ended at the table;
# version 4: the ``names`` table of the seats' display names, which SCHEMA creates;
# version 5: the ``undo_requests`` table of the undo requests waiting, which SCHEMA creates).
MIGRATIONS: dict[int, list[str]] = {
    2: [],
    3: ["ALTER TABLE matches ADD COLUMN IF NOT EXISTS ending TEXT"],
    4: [],
    5: [],
}
LOCK = 7_524_001  # the advisory lock the servers migrate under


def is_url(spec: str) -> bool:
    return spec.startswith(("postgresql://", "postgres://"))


def shown(url: str) -> str:
    """The URL without its password, for messages."""
    info = psycopg.conninfo.conninfo_to_dict(url)
    return f"postgresql://{info.get('user', '')}@{info.get('host', '')}:" \
        f"{info.get('port', 5432)}/{info.get('dbname', '')}"


def sql_of(statement: str) -> str:
    return statement.replace("?", "%s")


async def migrate(conn: psycopg.AsyncConnection[Any]) -> None:
    """Create the schema, or bring it up to :data:`VERSION`; StoreError if it is newer."""
    async with conn.transaction():
        await conn.execute("SELECT pg_advisory_xact_lock(%s)", (LOCK,))
        await conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER)")
        row = await (await conn.execute("SELECT version FROM schema_version")).fetchone()
        version = VERSION if row is None else int(row[0])
        if version > VERSION:
            raise StoreError(
                f"the database is of a newer tabletop (schema {version}; this one reads up "
                f"to {VERSION})"
            )
        for part in SCHEMA.split(";"):
            if part.strip():
                await conn.execute(part)
        for step in range(version + 1, VERSION + 1):
            for sql in MIGRATIONS[step]:
                await conn.execute(sql)
        if row is None:
            await conn.execute("INSERT INTO schema_version VALUES (%s)", (VERSION,))
        else:
            await conn.execute("UPDATE schema_version SET version=%s", (VERSION,))


async def _check(url: str) -> None:
    async with await psycopg.AsyncConnection.connect(url, autocommit=True) as conn:
        await migrate(conn)


def check(url: str) -> None:
    """Open ``url`` as the server would (schema made or migrated); StoreError says in one
    line why it cannot be used."""
    try:
        asyncio.run(_check(url))
    except StoreError:
        raise
    except (psycopg.Error, OSError, ValueError) as exc:
        reason = " ".join(str(exc).split())
        raise StoreError(
            _("cannot use the database {path}: {reason}", path=shown(url), reason=reason)
        ) from None


_Job = tuple[list[Statement], asyncio.Future[None]]


class PostgresStore:
    """A shared PostgreSQL store (:class:`tabletop.web.store.MatchStore`); make it with
    :meth:`open` inside the event loop."""

    shared = True

    def __init__(self, url: str) -> None:
        self.url = url
        self._writer: psycopg.AsyncConnection[Any] | None = None
        self._reader: psycopg.AsyncConnection[Any] | None = None
        self._reading = asyncio.Lock()
        self._jobs: asyncio.Queue[_Job | None] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None

    async def open(self) -> PostgresStore:
        self._writer = await self._connect()
        await migrate(self._writer)
        self._reader = await self._connect()
        self._task = asyncio.create_task(self._write())
        return self

    async def _connect(self) -> psycopg.AsyncConnection[Any]:
        return await psycopg.AsyncConnection.connect(self.url, autocommit=True)

    # -- writing -------------------------------------------------------------------------
    def submit(self, statements: list[Statement]) -> asyncio.Future[None]:
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._jobs.put_nowait((statements, future))
        return future

    async def _write(self) -> None:
        while True:
            first = await self._jobs.get()
            if first is None:
                return
            batch = [first]
            while not self._jobs.empty():
                job = self._jobs.get_nowait()
                if job is None:
                    self._jobs.put_nowait(None)
                    break
                batch.append(job)
            await self._commit(batch)

    async def _commit(self, batch: list[_Job]) -> None:
        results: list[BaseException | None] = []
        try:
            conn = await self._writing()
            async with conn.transaction():
                for statements, _ in batch:
                    results.append(await self._step(conn, statements))
        except (psycopg.Error, OSError) as exc:
            log.error("the database refused a commit: %s", exc)
            results = [exc] * len(batch)
            await self._drop_writer()
        for (_, future), error in zip(batch, results, strict=True):
            store.settle(future, error)

    async def _step(
        self, conn: psycopg.AsyncConnection[Any], statements: list[Statement]
    ) -> BaseException | None:
        """One step in its own savepoint: None, or why it was refused."""
        try:
            async with conn.transaction():
                for sql, args in statements:
                    cursor = await conn.execute(sql_of(sql), tuple(args))
                    if cursor.rowcount == 0 and sql.startswith(ONE_ROW):
                        raise Stale("another writer stored this step first")
        except Stale as exc:
            return exc
        except psycopg.errors.IntegrityError as exc:
            return Stale(" ".join(str(exc).split()))
        except (psycopg.errors.DataError, psycopg.errors.DeadlockDetected) as exc:
            # a bad value, or a deadlock with another server's batch: this step alone is
            # refused (its savepoint let go of its locks), the others go on
            return exc
        return None

    async def _writing(self) -> psycopg.AsyncConnection[Any]:
        if self._writer is None or self._writer.closed:
            self._writer = await self._connect()
        return self._writer

    async def _drop_writer(self) -> None:
        if self._writer is not None:
            with contextlib.suppress(Exception):
                await self._writer.close()
        self._writer = None

    # -- reading -------------------------------------------------------------------------
    async def _fetch(self, sql: str, args: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        async with self._reading:
            for attempt in (1, 2):  # a connection the server closed: once more, anew
                try:
                    if self._reader is None or self._reader.closed:
                        self._reader = await self._connect()
                    cursor = await self._reader.execute(sql_of(sql), tuple(args))
                    return list(await cursor.fetchall())
                except psycopg.OperationalError:
                    self._reader = None
                    if attempt == 2:
                        raise
            raise AssertionError("unreachable")

    async def load_all(self) -> tuple[list[StoredMatch], list[Unserved]]:
        found: dict[str, StoredMatch] = {}
        unserved: list[Unserved] = []
        for row in await self._fetch(f"SELECT {store.COLUMNS} FROM matches ORDER BY created"):
            try:
                found[row[0]] = store.read_match(row, [], [])
            except (ValueError, TypeError, KeyError) as exc:
                unserved.append(Unserved(str(row[0]), f"its stored row cannot be read ({exc})"))
        rows = await self._fetch("SELECT match, text FROM actions ORDER BY match, number")
        for match_id, text in rows:
            if match_id in found:
                found[match_id].actions.append(str(text))
        for match_id, seat in await self._fetch("SELECT match, seat FROM claims"):
            if match_id in found:
                found[match_id].claimed.add(int(seat))
        for match_id, *choice in await self._fetch(store.ALL_SEALED):
            if match_id in found:
                store.add_sealed(found[match_id], [choice])
        for match_id, *named in await self._fetch(store.ALL_NAMES):
            if match_id in found:
                store.add_names(found[match_id], [named])
        for match_id, *asked in await self._fetch(store.ALL_UNDO):
            if match_id in found:
                store.add_undo(found[match_id], [asked])
        return list(found.values()), unserved

    async def load(self, match_id: str) -> StoredMatch | None:
        rows = await self._fetch(store.ONE_MATCH, (match_id,))
        if not rows:
            return None
        actions = await self._fetch(store.ITS_ACTIONS, (match_id,))
        claims = await self._fetch(store.ITS_CLAIMS, (match_id,))
        sealed = await self._fetch(store.ITS_SEALED, (match_id,))
        names = await self._fetch(store.ITS_NAMES, (match_id,))
        undo = await self._fetch(store.ITS_UNDO, (match_id,))
        return store.read_match(rows[0], actions, claims, sealed, names, undo)

    async def rows(self, sql: str, args: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        return await self._fetch(sql, args)

    async def chat_rows(self) -> ChatRows:
        opened = [str(m) for (m,) in await self._fetch(store.CHAT_OPEN)]
        return opened, await self._fetch(store.CHAT_ROWS)

    async def positions(self, since: float) -> dict[str, Mark]:
        rows = await self._fetch(store.POSITIONS, (since,))
        return {
            str(r[0]): (
                int(r[1]), int(r[2]), str(r[3]), r[4], int(r[5]), r[6], int(r[7]), int(r[8]),
                None if r[9] is None else float(r[9]), r[10],
            )
            for r in rows
        }

    async def lease(self, match_id: str, holder: str, seconds: float) -> bool:
        now = time.time()
        statements: list[Statement] = [
            (ONE_ROW + store.TAKE_LEASE, (match_id, holder, now + seconds, now))
        ]
        try:
            await self.submit(statements)
        except Stale:
            return False
        return True

    async def release(self, match_id: str, holder: str) -> None:
        await self.submit([(store.DROP_LEASE, (match_id, holder))])

    def close(self) -> None:
        """Stop writing once the queued steps are committed (the connections close with
        the loop)."""
        self._jobs.put_nowait(None)

    async def aclose(self) -> None:
        self.close()
        if self._task is not None:
            with contextlib.suppress(Exception):
                await self._task
        for conn in (self._writer, self._reader):
            if conn is not None:
                with contextlib.suppress(Exception):
                    await conn.close()

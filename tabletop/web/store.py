"""Where matches live: one SQLite file (stdlib ``sqlite3``, WAL, ``synchronous=FULL``).

A match is stored as its record (game, version, players, options, seed, seats, move
clock) and its actions in notation, one row each, so that restarting the server replays
every match through the checked path to exactly its last stored action.

All writes go through one writer thread that commits them in groups: every write
submitted while the previous commit was on disk goes into the next transaction (one
fsync for many actions). ``submit`` returns an asyncio future that is done once the
write is durable; the server tells nobody of an action before that.

The schema has a version (SQLite's ``user_version``); :func:`connect` brings an older
file up to :data:`VERSION` step by step (:data:`MIGRATIONS`). :func:`check` opens a file
before the server starts and says in one line why it cannot be used.

:class:`MatchStore` (:mod:`tabletop.web.store_records`, with the stored record) is what
the server asks of any store; :class:`Store` is SQLite's,
:class:`tabletop.web.postgres.PostgresStore` PostgreSQL's (several servers on one
database). The statements (:mod:`tabletop.web.store_steps`) are written in the SQL both
speak (``?`` placeholders, ``ON CONFLICT``); each action is one row keyed by (match,
number), so the database orders a match's actions: a second action at a number already
stored is refused as :class:`Stale`, and a second loss on time of one match too (table
``timeouts``).
"""

from __future__ import annotations

import asyncio
import queue
import sqlite3
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tabletop.core.i18n.text import Domain
from tabletop.web.store_records import (
    ALL_NAMES,
    ALL_SEALED,
    ALL_UNDO,
    CHAT_OF,
    CHAT_OPEN,
    CHAT_ROWS,
    COLUMNS,
    DROP_LEASE,
    ITS_ACTIONS,
    ITS_CLAIMS,
    ITS_NAMES,
    ITS_SEALED,
    ITS_UNDO,
    ONE_MATCH,
    POSITIONS,
    TAKE_LEASE,
    ChatRows,
    Mark,
    MatchStore,
    SeatRow,
    Stale,
    Statement,
    StoredMatch,
    StoredUndo,
    StoreError,
    Unserved,
    add_names,
    add_sealed,
    add_undo,
    ended,
    read_match,
    row_match,
)
from tabletop.web.store_steps import (
    ONE_ROW,
    append,
    claim,
    clock,
    forfeit,
    rematch,
    rewritten,
    truncate,
    withdraw,
)

__all__ = [
    "ALL_NAMES", "ALL_SEALED", "ALL_UNDO", "CHAT_OF", "CHAT_OPEN", "CHAT_ROWS",
    "CHAT_SCHEMA", "COLUMNS", "DROP_LEASE", "ITS_ACTIONS", "ITS_CLAIMS", "ITS_NAMES",
    "ITS_SEALED", "ITS_UNDO", "MIGRATIONS", "ONE_MATCH", "ONE_ROW", "POSITIONS", "SCHEMA",
    "TAKE_LEASE", "VERSION", "ChatRows", "Mark", "MatchStore", "SeatRow", "Stale",
    "Statement", "Store", "StoreError", "StoredMatch", "StoredUndo", "Unserved",
    "add_names", "add_sealed", "add_undo", "append", "check", "claim", "clock", "connect",
    "ended", "forfeit", "load_all", "read_match", "rematch", "rewritten", "settle",
    "truncate", "withdraw",
]  # fmt: skip

_ = Domain("tabletop")

SCHEMA = """
CREATE TABLE IF NOT EXISTS matches (
    id TEXT PRIMARY KEY, created REAL NOT NULL, game TEXT NOT NULL,
    game_version TEXT NOT NULL, players INTEGER NOT NULL, options TEXT NOT NULL,
    seed INTEGER NOT NULL, seats TEXT NOT NULL, spectators INTEGER NOT NULL,
    move_time REAL, forfeit INTEGER, status TEXT NOT NULL DEFAULT 'ongoing', rematch TEXT,
    updated REAL, hints INTEGER, deadline REAL, undos INTEGER NOT NULL DEFAULT 0, ending TEXT
);
CREATE TABLE IF NOT EXISTS actions (
    match TEXT NOT NULL, number INTEGER NOT NULL, text TEXT NOT NULL,
    PRIMARY KEY (match, number)
);
CREATE TABLE IF NOT EXISTS claims (
    match TEXT NOT NULL, seat INTEGER NOT NULL, PRIMARY KEY (match, seat)
);
CREATE TABLE IF NOT EXISTS open_seats (
    match TEXT NOT NULL, seat INTEGER NOT NULL, taken REAL, PRIMARY KEY (match, seat)
);
CREATE TABLE IF NOT EXISTS leases (
    match TEXT PRIMARY KEY, holder TEXT NOT NULL, expires REAL NOT NULL
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
    undos INTEGER NOT NULL, count INTEGER NOT NULL, waiting TEXT NOT NULL, asked REAL NOT NULL
);
"""

# table talk (tabletop.web.chat): each match's messages, and the matches whose spectators
# may write too
CHAT_SCHEMA = """
CREATE TABLE IF NOT EXISTS chat (
    match TEXT NOT NULL, at REAL NOT NULL, seat INTEGER, name TEXT NOT NULL, text TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS chat_by_match ON chat (match, at);
CREATE TABLE IF NOT EXISTS chat_open (match TEXT PRIMARY KEY);
"""

VERSION = 8
# What brings a file of version N-1 to N (version 1: no ``updated`` column; version 4: the
# stored move clock, the undo count, and the ``leases`` and ``timeouts`` tables, which
# SCHEMA creates; version 5: the ``sealed`` table of pending sealed choices, which SCHEMA
# creates too; version 6: how a match ended at the table, ``ending``; version 7: the
# ``names`` table of the seats' display names, which SCHEMA creates; version 8: the
# ``undo_requests`` table of the undo requests waiting (:mod:`tabletop.web.undo_requests`),
# which SCHEMA creates too)
MIGRATIONS = {
    2: ["ALTER TABLE matches ADD COLUMN updated REAL"],
    3: ["ALTER TABLE matches ADD COLUMN hints INTEGER"],
    4: [
        "ALTER TABLE matches ADD COLUMN deadline REAL",
        "ALTER TABLE matches ADD COLUMN undos INTEGER NOT NULL DEFAULT 0",
    ],
    5: [],
    6: ["ALTER TABLE matches ADD COLUMN ending TEXT"],
    7: [],
    8: [],
}


def connect(path: Path) -> sqlite3.Connection:
    """A connection in WAL mode that syncs every commit (``synchronous=FULL``), with the
    schema at :data:`VERSION`."""
    db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=FULL")
    version = db.execute("PRAGMA user_version").fetchone()[0]
    if version > VERSION:
        db.close()
        raise StoreError(
            f"the database {path} is of a newer tabletop (schema {version}; this one reads "
            f"up to {VERSION})"
        )
    existed = db.execute("SELECT count(*) FROM sqlite_master WHERE name='matches'").fetchone()[0]
    db.executescript(SCHEMA)
    db.executescript(CHAT_SCHEMA)
    if not existed:
        version = VERSION
    for step in range(max(version, 1) + 1, VERSION + 1):
        for sql in MIGRATIONS[step]:
            db.execute(sql)
    db.execute(f"PRAGMA user_version={VERSION}")
    return db


def check(path: Path) -> None:
    """Open ``path`` as the server would, and write to it; StoreError says in one line why
    it cannot be used (a folder, not a database, damaged, unwritable, too new)."""
    try:
        if path.is_dir():
            raise StoreError(
                _("--db {path} is a folder; name the database file in it", path=str(path))
            )
        db = connect(path)
    except StoreError:
        raise
    except (sqlite3.Error, OSError) as exc:
        raise StoreError(
            _("cannot use the database {path}: {reason}", path=str(path), reason=str(exc))
        ) from None
    try:
        problem = db.execute("PRAGMA quick_check").fetchone()[0]
        if problem != "ok":
            raise StoreError(
                _("the database {path} is damaged: {problem}", path=str(path), problem=problem)
            )
        db.execute("BEGIN IMMEDIATE")
        db.execute("UPDATE matches SET status=status WHERE 0")
        db.execute("ROLLBACK")
    except sqlite3.Error as exc:
        raise StoreError(
            _("cannot write to the database {path}: {reason}", path=str(path), reason=str(exc))
        ) from None
    finally:
        db.close()



def load_all(path: Path) -> tuple[list[StoredMatch], list[Unserved]]:
    """Every stored match with its actions, oldest first; and the rows that cannot be
    read (bad JSON, wrong types), each with its reason."""
    db = connect(path)
    try:
        return _load_all(db)
    finally:
        db.close()


def _load_all(db: sqlite3.Connection) -> tuple[list[StoredMatch], list[Unserved]]:
    found: dict[str, StoredMatch] = {}
    unserved: list[Unserved] = []
    for row in db.execute(f"SELECT {COLUMNS} FROM matches ORDER BY created"):
        try:
            found[row[0]] = row_match(row)
        except (ValueError, TypeError, KeyError) as exc:
            unserved.append(Unserved(str(row[0]), f"its stored row cannot be read ({exc})"))
    for match_id, _, text in db.execute(
        "SELECT match, number, text FROM actions ORDER BY match, number"
    ):
        if match_id in found:
            found[match_id].actions.append(str(text))
    for match_id, seat in db.execute("SELECT match, seat FROM claims"):
        if match_id in found:
            found[match_id].claimed.add(seat)
    for match_id, *row in db.execute(ALL_SEALED):
        if match_id in found:
            add_sealed(found[match_id], [row])
    for match_id, *row in db.execute(ALL_NAMES):
        if match_id in found:
            add_names(found[match_id], [row])
    for match_id, *row in db.execute(ALL_UNDO):
        if match_id in found:
            add_undo(found[match_id], [row])
    return list(found.values()), unserved



_Job = tuple[list[Statement], asyncio.Future[None], asyncio.AbstractEventLoop]


class Store:
    """SQLite's store and its one writer: ``submit`` statements, await their commit."""

    shared = False

    def __init__(self, path: Path) -> None:
        self.path = path
        self._db = connect(path)
        self._jobs: queue.Queue[_Job | None] = queue.Queue()
        self._thread = threading.Thread(target=self._write, name="tabletop-store", daemon=True)
        self._thread.start()

    def submit(self, statements: list[Statement]) -> asyncio.Future[None]:
        """Queue ``statements`` (one all-or-nothing step); the future is done once they
        are committed to disk, or carries :class:`Stale` or the sqlite error."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        self._jobs.put((statements, future, loop))
        return future

    # -- reading (each on its own connection, in a thread) -------------------------------
    def _read(self) -> sqlite3.Connection:
        return sqlite3.connect(self.path, isolation_level=None)

    async def load_all(self) -> tuple[list[StoredMatch], list[Unserved]]:
        def work() -> tuple[list[StoredMatch], list[Unserved]]:
            db = self._read()
            try:
                return _load_all(db)
            finally:
                db.close()

        return await asyncio.to_thread(work)

    async def load(self, match_id: str) -> StoredMatch | None:
        def work() -> StoredMatch | None:
            db = self._read()
            try:
                row = db.execute(ONE_MATCH, (match_id,)).fetchone()
                if row is None:
                    return None
                actions = db.execute(ITS_ACTIONS, (match_id,)).fetchall()
                claims = db.execute(ITS_CLAIMS, (match_id,)).fetchall()
                sealed = db.execute(ITS_SEALED, (match_id,)).fetchall()
                names = db.execute(ITS_NAMES, (match_id,)).fetchall()
                undo = db.execute(ITS_UNDO, (match_id,)).fetchall()
                return read_match(row, actions, claims, sealed, names, undo)
            finally:
                db.close()

        return await asyncio.to_thread(work)

    async def chat_rows(self) -> ChatRows:
        def work() -> ChatRows:
            db = self._read()
            try:
                opened = [str(m) for (m,) in db.execute(CHAT_OPEN)]
                return opened, db.execute(CHAT_ROWS).fetchall()
            finally:
                db.close()

        return await asyncio.to_thread(work)

    async def rows(self, sql: str, args: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """The rows of one read (``sql`` in the SQL both stores speak)."""

        def work() -> list[tuple[Any, ...]]:
            db = self._read()
            try:
                return db.execute(sql, tuple(args)).fetchall()
            finally:
                db.close()

        return await asyncio.to_thread(work)

    async def positions(self, since: float) -> dict[str, Mark]:
        """The :data:`Mark` (number, undos, status, forfeit, claims, rematch, sealed
        choosers, chat messages) of every match ongoing or touched after ``since`` (a finished match
        older than that no longer changes; a server loads it when someone asks for it)."""

        def work() -> dict[str, Mark]:
            db = self._read()
            try:
                return {str(r[0]): tuple(r[1:]) for r in db.execute(POSITIONS, (since,))}
            finally:
                db.close()

        return await asyncio.to_thread(work)

    async def lease(self, match_id: str, holder: str, seconds: float) -> bool:
        """Take or renew the lease of ``match_id``'s computer seats for ``seconds``;
        False while another holder's lease runs."""
        now = time.time()
        statements: list[Statement] = [
            (ONE_ROW + TAKE_LEASE, (match_id, holder, now + seconds, now))
        ]
        try:
            await self.submit(statements)
        except Stale:
            return False
        return True

    async def release(self, match_id: str, holder: str) -> None:
        await self.submit([(DROP_LEASE, (match_id, holder))])

    def close(self) -> None:
        self._jobs.put(None)
        self._thread.join()
        self._db.close()

    def _write(self) -> None:
        while True:
            first = self._jobs.get()
            if first is None:
                return
            batch = [first]
            while True:
                try:
                    job = self._jobs.get_nowait()
                except queue.Empty:
                    break
                if job is None:
                    self._jobs.put(None)
                    break
                batch.append(job)
            self._commit(batch)

    def _commit(self, batch: list[_Job]) -> None:
        results: list[BaseException | None] = []
        db = self._db
        try:
            db.execute("BEGIN IMMEDIATE")
            for statements, _, _ in batch:
                db.execute("SAVEPOINT step")
                try:
                    for sql, args in statements:
                        if db.execute(sql, args).rowcount == 0 and sql.startswith(ONE_ROW):
                            raise Stale("another writer stored this step first")
                    db.execute("RELEASE step")
                    results.append(None)
                except (sqlite3.Error, Stale) as exc:
                    db.execute("ROLLBACK TO step")
                    db.execute("RELEASE step")
                    stale = isinstance(exc, sqlite3.IntegrityError)
                    results.append(Stale(str(exc)) if stale else exc)
            db.execute("COMMIT")
        except sqlite3.Error as exc:
            if db.in_transaction:
                db.execute("ROLLBACK")
            results = [exc] * len(batch)
        for (_, future, loop), error in zip(batch, results, strict=True):
            loop.call_soon_threadsafe(_settle, future, error)


def settle(future: asyncio.Future[None], error: BaseException | None) -> None:
    """Finish a submitted step's future (unless its waiter gave up)."""
    if future.done():
        return
    if error is None:
        future.set_result(None)
    else:
        future.set_exception(error)


_settle = settle

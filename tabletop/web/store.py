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
"""

from __future__ import annotations

import asyncio
import json
import queue
import sqlite3
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tabletop.core.errors import TabletopError

SCHEMA = """
CREATE TABLE IF NOT EXISTS matches (
    id TEXT PRIMARY KEY, created REAL NOT NULL, game TEXT NOT NULL,
    game_version TEXT NOT NULL, players INTEGER NOT NULL, options TEXT NOT NULL,
    seed INTEGER NOT NULL, seats TEXT NOT NULL, spectators INTEGER NOT NULL,
    move_time REAL, forfeit INTEGER, status TEXT NOT NULL DEFAULT 'ongoing', rematch TEXT,
    updated REAL, hints INTEGER
);
CREATE TABLE IF NOT EXISTS actions (
    match TEXT NOT NULL, number INTEGER NOT NULL, text TEXT NOT NULL,
    PRIMARY KEY (match, number)
);
CREATE TABLE IF NOT EXISTS claims (
    match TEXT NOT NULL, seat INTEGER NOT NULL, PRIMARY KEY (match, seat)
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

VERSION = 3
# What brings a file of version N-1 to N (version 1: no ``updated`` column).
MIGRATIONS = {
    2: "ALTER TABLE matches ADD COLUMN updated REAL",
    3: "ALTER TABLE matches ADD COLUMN hints INTEGER",
}

Statement = tuple[str, Sequence[Any]]


class StoreError(TabletopError):
    """The database cannot be used: missing folder, not a database, unwritable, too new."""


@dataclass
class SeatRow:
    """One seat: a person (with a secret token) or a computer at ``ai`` level."""

    seat: int
    ai: str | None
    token: str | None


@dataclass
class StoredMatch:
    """A match as the database holds it."""

    id: str
    created: float
    game: str
    game_version: str
    players: int
    options: dict[str, Any]
    seed: int
    seats: list[SeatRow]
    spectators: bool
    move_time: float | None
    forfeit: int | None = None
    status: str = "ongoing"
    rematch: str | None = None
    updated: float | None = None
    hints: bool | None = None  # the coach's hints allowed (None: only against the computer)
    actions: list[str] = field(default_factory=list)
    claimed: set[int] = field(default_factory=set)

    def insert(self) -> Statement:
        seats = json.dumps([vars(s) for s in self.seats])
        return (
            "INSERT INTO matches (id, created, game, game_version, players, options, seed, "
            "seats, spectators, move_time, hints) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
            (self.id, self.created, self.game, self.game_version, self.players,
             json.dumps(self.options), self.seed, seats, int(self.spectators), self.move_time,
             None if self.hints is None else int(self.hints)),
        )  # fmt: skip


def append(match_id: str, number: int, text: str, status: str, at: float) -> list[Statement]:
    """Store action ``number`` (1-based), the match's status after it and when."""
    return [
        ("INSERT INTO actions (match, number, text) VALUES (?,?,?)", (match_id, number, text)),
        ("UPDATE matches SET status=?, updated=? WHERE id=?", (status, at, match_id)),
    ]


def truncate(match_id: str, keep: int) -> list[Statement]:
    """Forget every action after the first ``keep`` (an undo) and any forfeit."""
    return [
        ("DELETE FROM actions WHERE match=? AND number>?", (match_id, keep)),
        ("UPDATE matches SET forfeit=NULL, status='ongoing' WHERE id=?", (match_id,)),
    ]


def forfeit(match_id: str, player: int, at: float) -> list[Statement]:
    return [
        (
            "UPDATE matches SET forfeit=?, status='over', updated=? WHERE id=?",
            (player, at, match_id),
        )
    ]


def claim(match_id: str, seat: int) -> list[Statement]:
    return [("INSERT OR IGNORE INTO claims (match, seat) VALUES (?,?)", (match_id, seat))]


def rematch(match_id: str, new_id: str) -> list[Statement]:
    return [("UPDATE matches SET rematch=? WHERE id=?", (new_id, match_id))]


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
        db.execute(MIGRATIONS[step])
    db.execute(f"PRAGMA user_version={VERSION}")
    return db


def check(path: Path) -> None:
    """Open ``path`` as the server would, and write to it; StoreError says in one line why
    it cannot be used (a folder, not a database, damaged, unwritable, too new)."""
    try:
        if path.is_dir():
            raise StoreError(f"--db {path} is a folder; name the database file in it")
        db = connect(path)
    except StoreError:
        raise
    except (sqlite3.Error, OSError) as exc:
        raise StoreError(f"cannot use the database {path}: {exc}") from None
    try:
        problem = db.execute("PRAGMA quick_check").fetchone()[0]
        if problem != "ok":
            raise StoreError(f"the database {path} is damaged: {problem}")
        db.execute("BEGIN IMMEDIATE")
        db.execute("UPDATE matches SET status=status WHERE 0")
        db.execute("ROLLBACK")
    except sqlite3.Error as exc:
        raise StoreError(f"cannot write to the database {path}: {exc}") from None
    finally:
        db.close()


@dataclass
class Unserved:
    """A stored match that cannot be served at all, and why."""

    id: str
    reason: str


def _row(row: Sequence[Any]) -> StoredMatch:
    seats = [SeatRow(**s) for s in json.loads(row[7])]
    options = json.loads(row[5])
    if not isinstance(options, dict):
        raise ValueError("its options are not a JSON object")
    return StoredMatch(
        row[0], row[1], row[2], row[3], row[4], options, row[6], seats,
        bool(row[8]), row[9], row[10], row[11], row[12], row[13],
        None if row[14] is None else bool(row[14]),
    )  # fmt: skip


def load_all(path: Path) -> tuple[list[StoredMatch], list[Unserved]]:
    """Every stored match with its actions, oldest first; and the rows that cannot be
    read (bad JSON, wrong types), each with its reason."""
    db = connect(path)
    try:
        found: dict[str, StoredMatch] = {}
        unserved: list[Unserved] = []
        for row in db.execute(
            "SELECT id, created, game, game_version, players, options, seed, seats, "
            "spectators, move_time, forfeit, status, rematch, updated, hints FROM matches "
            "ORDER BY created"
        ):
            try:
                found[row[0]] = _row(row)
            except (ValueError, TypeError, KeyError) as exc:
                unserved.append(Unserved(str(row[0]), f"its stored row cannot be read ({exc})"))
        for match_id, _, text in db.execute("SELECT * FROM actions ORDER BY match, number"):
            if match_id in found:
                found[match_id].actions.append(str(text))
        for match_id, seat in db.execute("SELECT match, seat FROM claims"):
            if match_id in found:
                found[match_id].claimed.add(seat)
        return list(found.values()), unserved
    finally:
        db.close()


_Job = tuple[list[Statement], asyncio.Future[None], asyncio.AbstractEventLoop]


class Store:
    """The database's one writer: ``submit`` statements, await their commit."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._db = connect(path)
        self._jobs: queue.Queue[_Job | None] = queue.Queue()
        self._thread = threading.Thread(target=self._write, name="tabletop-store", daemon=True)
        self._thread.start()

    def submit(self, statements: list[Statement]) -> asyncio.Future[None]:
        """Queue ``statements`` (one all-or-nothing step); the future is done once they
        are committed to disk, or carries the sqlite error."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        self._jobs.put((statements, future, loop))
        return future

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
                        db.execute(sql, args)
                    db.execute("RELEASE step")
                    results.append(None)
                except sqlite3.Error as exc:
                    db.execute("ROLLBACK TO step")
                    db.execute("RELEASE step")
                    results.append(exc)
            db.execute("COMMIT")
        except sqlite3.Error as exc:
            if db.in_transaction:
                db.execute("ROLLBACK")
            results = [exc] * len(batch)
        for (_, future, loop), error in zip(batch, results, strict=True):
            loop.call_soon_threadsafe(_settle, future, error)


def _settle(future: asyncio.Future[None], error: BaseException | None) -> None:
    if future.done():
        return
    if error is None:
        future.set_result(None)
    else:
        future.set_exception(error)

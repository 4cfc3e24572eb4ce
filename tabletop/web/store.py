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

:class:`MatchStore` is what the server asks of any store; :class:`Store` is SQLite's,
:class:`tabletop.web.postgres.PostgresStore` PostgreSQL's (several servers on one
database). The statements below are written in the SQL both speak (``?`` placeholders,
``ON CONFLICT``); each action is one row keyed by (match, number), so the database orders
a match's actions: a second action at a number already stored is refused as
:class:`Stale`, and a second loss on time of one match too (table ``timeouts``).
"""

from __future__ import annotations

import asyncio
import json
import queue
import sqlite3
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from tabletop.core.errors import TabletopError
from tabletop.core.i18n.text import Domain

_ = Domain("tabletop")

SCHEMA = """
CREATE TABLE IF NOT EXISTS matches (
    id TEXT PRIMARY KEY, created REAL NOT NULL, game TEXT NOT NULL,
    game_version TEXT NOT NULL, players INTEGER NOT NULL, options TEXT NOT NULL,
    seed INTEGER NOT NULL, seats TEXT NOT NULL, spectators INTEGER NOT NULL,
    move_time REAL, forfeit INTEGER, status TEXT NOT NULL DEFAULT 'ongoing', rematch TEXT,
    updated REAL, hints INTEGER, deadline REAL, undos INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS actions (
    match TEXT NOT NULL, number INTEGER NOT NULL, text TEXT NOT NULL,
    PRIMARY KEY (match, number)
);
CREATE TABLE IF NOT EXISTS claims (
    match TEXT NOT NULL, seat INTEGER NOT NULL, PRIMARY KEY (match, seat)
);
CREATE TABLE IF NOT EXISTS leases (
    match TEXT PRIMARY KEY, holder TEXT NOT NULL, expires REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS timeouts (
    match TEXT PRIMARY KEY, number INTEGER NOT NULL, player INTEGER NOT NULL
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

VERSION = 4
# What brings a file of version N-1 to N (version 1: no ``updated`` column; version 4: the
# stored move clock, the undo count, and the ``leases`` and ``timeouts`` tables, which
# SCHEMA creates)
MIGRATIONS = {
    2: ["ALTER TABLE matches ADD COLUMN updated REAL"],
    3: ["ALTER TABLE matches ADD COLUMN hints INTEGER"],
    4: [
        "ALTER TABLE matches ADD COLUMN deadline REAL",
        "ALTER TABLE matches ADD COLUMN undos INTEGER NOT NULL DEFAULT 0",
    ],
}
COLUMNS = (
    "id, created, game, game_version, players, options, seed, seats, spectators, "
    "move_time, forfeit, status, rematch, updated, hints, deadline, undos"
)

Statement = tuple[str, Sequence[Any]]


class StoreError(TabletopError):
    """The database cannot be used: missing folder, not a database, unwritable, too new."""


class Stale(TabletopError):
    """A write refused because another server (or this one) stored that step first: an
    action at a number already taken, a second loss on time."""


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
    deadline: float | None = None  # wall-clock time by which the person to act must act
    undos: int = 0  # undos so far: with the number of actions, names the position
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


ONE_ROW = "/* one row */ "  # a statement marked so must change a row, else Stale


def append(
    match_id: str, number: int, text: str, status: str, at: float,
    deadline: float | None = None, undos: int | None = None,
) -> list[Statement]:
    """Store action ``number`` (1-based), the match's status after it, when, and the
    deadline (wall clock) of the person to act next. Refused (:class:`Stale`) when
    action ``number`` is already stored, when fewer than ``number - 1`` are (no gap), when
    the match was lost on time, or (given ``undos``) when another server has undone since
    (the action was chosen on a history that is gone). The match's row is written first:
    its lock orders the writers of one match on a shared database."""
    undone = "" if undos is None else " AND (SELECT undos FROM matches WHERE id=?)=?"
    return [
        ("UPDATE matches SET status=?, updated=?, deadline=? WHERE id=?",
         (status, at, deadline, match_id)),
        (ONE_ROW + "INSERT INTO actions (match, number, text) SELECT ?,?,? "
         "WHERE NOT EXISTS (SELECT 1 FROM timeouts WHERE match=?) "
         "AND (SELECT count(*) FROM actions WHERE match=?)=?" + undone,
         (match_id, number, text, match_id, match_id, number - 1,
          *(() if undos is None else (match_id, undos)))),
    ]  # fmt: skip


def truncate(
    match_id: str, keep: int, deadline: float | None = None,
    seen: int | None = None, undos: int | None = None,
) -> list[Statement]:
    """Forget every action after the first ``keep`` (an undo) and any forfeit. Given
    ``seen`` (the actions the undoing server knows) and ``undos`` (the undos it knows),
    refused (:class:`Stale`) when another server has stored an action or undone since:
    an undo never deletes an action someone else was told of."""
    guard = ""
    args: tuple[Any, ...] = ()
    if seen is not None and undos is not None:
        guard = " AND undos=? AND (SELECT count(*) FROM actions WHERE match=?)=?"
        args = (undos, match_id, seen)
    return [
        ((ONE_ROW if guard else "")
         + "UPDATE matches SET forfeit=NULL, status='ongoing', deadline=?, undos=undos+1 "
         "WHERE id=?" + guard, (deadline, match_id, *args)),
        ("DELETE FROM actions WHERE match=? AND number>?", (match_id, keep)),
        ("DELETE FROM timeouts WHERE match=?", (match_id,)),
    ]  # fmt: skip


def rewritten(match_id: str, texts: list[str]) -> list[Statement]:
    """Store ``texts`` as the match's actions in place of those stored (a match stored
    before its game declared chance steps, its chance outcomes now among them)."""
    insert = "INSERT INTO actions (match, number, text) VALUES (?,?,?)"
    return [
        ("DELETE FROM actions WHERE match=?", (match_id,)),
        *((insert, (match_id, number, text)) for number, text in enumerate(texts, start=1)),
    ]


def forfeit(match_id: str, player: int, at: float, number: int | None = None) -> list[Statement]:
    """``player`` lost on time. Given the position ``number`` it happened at, refused as
    :class:`Stale` when the match lost on time already or is no longer at ``number``
    (another server stored an action first): a game ends on time exactly once."""
    steps: list[Statement] = [(
        "UPDATE matches SET forfeit=?, status='over', updated=?, deadline=NULL WHERE id=?",
        (player, at, match_id),
    )]  # fmt: skip
    if number is not None:
        steps.append((
            ONE_ROW + "INSERT INTO timeouts (match, number, player) SELECT ?,?,? WHERE "
            "(SELECT count(*) FROM actions WHERE match=?)=? "
            "AND NOT EXISTS (SELECT 1 FROM timeouts WHERE match=?)",
            (match_id, number, player, match_id, number, match_id),
        ))  # fmt: skip
    return steps


def clock(match_id: str, deadline: float | None, first: bool = False) -> list[Statement]:
    """The deadline of the person to act (set when the last seat is first opened);
    ``first``: only if none is stored (else Stale: another server started the clock)."""
    if first:
        return [(ONE_ROW + "UPDATE matches SET deadline=? WHERE id=? AND deadline IS NULL",
                 (deadline, match_id))]  # fmt: skip
    return [("UPDATE matches SET deadline=? WHERE id=?", (deadline, match_id))]


def claim(match_id: str, seat: int) -> list[Statement]:
    return [(
        "INSERT INTO claims (match, seat) VALUES (?,?) ON CONFLICT DO NOTHING",
        (match_id, seat),
    )]  # fmt: skip


def rematch(match_id: str, new_id: str) -> list[Statement]:
    """The rematch of ``match_id`` is ``new_id`` (Stale when it has one already: made
    by another server meanwhile); the match counts as touched now (:data:`POSITIONS`)."""
    return [(
        ONE_ROW + "UPDATE matches SET rematch=?, updated=? WHERE id=? AND rematch IS NULL",
        (new_id, time.time(), match_id),
    )]  # fmt: skip


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
        None if row[14] is None else bool(row[14]), row[15], int(row[16] or 0),
    )  # fmt: skip


def read_match(row: Sequence[Any], actions: list[Any], claims: list[Any]) -> StoredMatch:
    """A match from its row, its actions' texts (in order) and its claimed seats."""
    match = _row(row)
    match.actions = [str(text) for (text,) in actions]
    match.claimed = {int(seat) for (seat,) in claims}
    return match


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
            found[row[0]] = _row(row)
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
    return list(found.values()), unserved


# The reads every store answers, in the SQL both databases speak.
ONE_MATCH = f"SELECT {COLUMNS} FROM matches WHERE id=?"
ITS_ACTIONS = "SELECT text FROM actions WHERE match=? ORDER BY number"
ITS_CLAIMS = "SELECT seat FROM claims WHERE match=?"
CHAT_OPEN = "SELECT match FROM chat_open"
CHAT_ROWS = "SELECT match, at, seat, name, text FROM chat ORDER BY match, at"
TAKE_LEASE = (
    "INSERT INTO leases (match, holder, expires) VALUES (?,?,?) "
    "ON CONFLICT (match) DO UPDATE SET holder=excluded.holder, expires=excluded.expires "
    "WHERE leases.holder=excluded.holder OR leases.expires<?"
)
DROP_LEASE = "DELETE FROM leases WHERE match=? AND holder=?"
# each match's position as the servers sharing a store compare it: number, undos, status,
# forfeit and claimed seats (a change of any is a change of what its connections see)
POSITIONS = (  # the matches that can still change: ongoing, or touched since ``?``
    "SELECT m.id, (SELECT count(*) FROM actions a WHERE a.match=m.id), m.undos, m.status, "
    "m.forfeit, (SELECT count(*) FROM claims c WHERE c.match=m.id), m.rematch FROM matches m "
    "WHERE m.status = 'ongoing' OR m.updated > ?"
)
Mark = tuple[int, int, str, "int | None", int, "str | None"]

ChatRows = tuple[list[str], list[tuple[Any, ...]]]


class MatchStore(Protocol):
    """What the server asks of a store (SQLite's :class:`Store`, PostgreSQL's
    :class:`tabletop.web.postgres.PostgresStore`).

    ``submit`` queues one all-or-nothing step; its future is done once committed, or
    carries :class:`Stale` (another writer was first) or the database's error.
    """

    shared: bool  # several servers may use it at once

    def submit(self, statements: list[Statement]) -> asyncio.Future[None]: ...

    async def load_all(self) -> tuple[list[StoredMatch], list[Unserved]]: ...

    async def load(self, match_id: str) -> StoredMatch | None: ...

    async def chat_rows(self) -> ChatRows: ...

    async def lease(self, match_id: str, holder: str, seconds: float) -> bool: ...

    async def positions(self, since: float) -> dict[str, Mark]: ...

    async def release(self, match_id: str, holder: str) -> None: ...

    def close(self) -> None: ...


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
                return read_match(row, actions, claims)
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

    async def positions(self, since: float) -> dict[str, Mark]:
        """The :data:`Mark` (number, undos, status, forfeit, claims, rematch) of every match
        ongoing or touched after ``since`` (a finished match older than that no longer
        changes; a server loads it when someone asks for it)."""

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

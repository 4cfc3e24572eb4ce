"""What a store holds and answers, whichever database it is: the stored match's record,
the store's errors, the protocol every store follows (:class:`MatchStore`), and the reads
written in the SQL both SQLite and PostgreSQL speak."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from tabletop.core.errors import TabletopError
from tabletop.core.records import Forfeit

COLUMNS = (
    "id, created, game, game_version, players, options, seed, seats, spectators, "
    "move_time, forfeit, status, rematch, updated, hints, deadline, undos, ending"
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
class StoredUndo:
    """An undo request waiting (:mod:`tabletop.web.undo_requests`): ``seat`` asked at
    wall-clock time ``asked`` to take back ``count`` actions at position ``number``
    (after ``undos`` undos); ``waiting`` still to answer."""

    seat: int
    number: int
    undos: int
    count: int
    waiting: frozenset[int]
    asked: float


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
    # how the match ended at the table with ``forfeit`` the player: "resigned",
    # "agreed-draw", or None (on time, as every match stored before resigning)
    ending: str | None = None
    actions: list[str] = field(default_factory=list)
    claimed: set[int] = field(default_factory=set)
    # the sealed choices of the simultaneous step now (by seat), told to no one else
    sealed: dict[int, str] = field(default_factory=dict)
    # the display names the seats chose (:mod:`tabletop.web.names`), by seat
    names: dict[int, str] = field(default_factory=dict)
    undo: StoredUndo | None = None  # the undo request waiting at this position, if any

    def insert(self) -> Statement:
        seats = json.dumps([vars(s) for s in self.seats])
        return (
            "INSERT INTO matches (id, created, game, game_version, players, options, seed, "
            "seats, spectators, move_time, hints) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
            (self.id, self.created, self.game, self.game_version, self.players,
             json.dumps(self.options), self.seed, seats, int(self.spectators), self.move_time,
             None if self.hints is None else int(self.hints)),
        )  # fmt: skip



def ended(stored: StoredMatch) -> Forfeit | None:
    """How ``stored`` ended at the table (:class:`~tabletop.core.records.Forfeit`), if it did."""
    if not stored.forfeit:
        return None
    reason = stored.ending if stored.ending in ("resigned", "agreed-draw") else "time"
    return Forfeit(player=stored.forfeit, reason=reason)  # type: ignore[arg-type]


@dataclass
class Unserved:
    """A stored match that cannot be served at all, and why."""

    id: str
    reason: str


def row_match(row: Sequence[Any]) -> StoredMatch:
    """A match from its row (:data:`COLUMNS`), without its actions and claims."""
    seats = [SeatRow(**s) for s in json.loads(row[7])]
    options = json.loads(row[5])
    if not isinstance(options, dict):
        raise ValueError("its options are not a JSON object")
    return StoredMatch(
        row[0], row[1], row[2], row[3], row[4], options, row[6], seats,
        bool(row[8]), row[9], row[10], row[11], row[12], row[13],
        None if row[14] is None else bool(row[14]), row[15], int(row[16] or 0), row[17],
    )  # fmt: skip


def read_match(
    row: Sequence[Any],
    actions: list[Any],
    claims: list[Any],
    sealed: Sequence[Any] = (),
    names: Sequence[Any] = (),
    undo: Sequence[Any] = (),
) -> StoredMatch:
    """A match from its row, its actions' texts (in order), its claimed seats, its
    sealed choices (seat, number, text: those made at its last stored action), its
    seats' names (seat, name) and its undo request (:data:`ITS_UNDO`)."""
    match = row_match(row)
    match.actions = [str(text) for (text,) in actions]
    match.claimed = {int(seat) for (seat,) in claims}
    add_sealed(match, sealed)
    add_names(match, names)
    add_undo(match, undo)
    return match


def add_undo(match: StoredMatch, rows: Sequence[Any]) -> None:
    """Keep the undo request (seat, number, undos, count, waiting, asked) asked where
    ``match`` stands now; one of another position, or unreadable, is left out."""
    for seat, number, undos, count, waiting, asked in rows:
        try:
            seats = json.loads(waiting)
            request = StoredUndo(
                int(seat), int(number), int(undos), int(count),
                frozenset(int(s) for s in seats), float(asked),
            )  # fmt: skip
        except (ValueError, TypeError):
            continue
        if request.number == len(match.actions) and request.undos == match.undos:
            match.undo = request


def add_names(match: StoredMatch, rows: Sequence[Any]) -> None:
    """Keep the seats' names (seat, name) of ``match``; a row of the wrong types is left out."""
    for seat, name in rows:
        if isinstance(name, str) and str(seat).isdigit():
            match.names[int(seat)] = name


def add_sealed(match: StoredMatch, rows: Sequence[Any]) -> None:
    """Keep the sealed choices (seat, number, text) made where ``match`` stands now."""
    for seat, number, text in rows:
        if int(number) == len(match.actions):
            match.sealed[int(seat)] = str(text)



# The reads every store answers, in the SQL both databases speak.
ONE_MATCH = f"SELECT {COLUMNS} FROM matches WHERE id=?"
ITS_ACTIONS = "SELECT text FROM actions WHERE match=? ORDER BY number"
ITS_CLAIMS = "SELECT seat FROM claims WHERE match=?"
ITS_SEALED = "SELECT seat, number, text FROM sealed WHERE match=?"
ALL_SEALED = "SELECT match, seat, number, text FROM sealed"
ITS_NAMES = "SELECT seat, name FROM names WHERE match=?"
ALL_NAMES = "SELECT match, seat, name FROM names"
ITS_UNDO = "SELECT seat, number, undos, count, waiting, asked FROM undo_requests WHERE match=?"
ALL_UNDO = "SELECT match, seat, number, undos, count, waiting, asked FROM undo_requests"
CHAT_OPEN = "SELECT match FROM chat_open"
CHAT_ROWS = "SELECT match, at, seat, name, text FROM chat ORDER BY match, at"
CHAT_OF = "SELECT match, at, seat, name, text FROM chat WHERE match=? ORDER BY at"
TAKE_LEASE = (
    "INSERT INTO leases (match, holder, expires) VALUES (?,?,?) "
    "ON CONFLICT (match) DO UPDATE SET holder=excluded.holder, expires=excluded.expires "
    "WHERE leases.holder=excluded.holder OR leases.expires<?"
)
DROP_LEASE = "DELETE FROM leases WHERE match=? AND holder=?"
# each match's position as the servers sharing a store compare it: number, undos, status,
# forfeit, claimed seats, rematch, who has a sealed choice stored (the sum of 2**seat), the
# chat messages, and the undo request waiting (when it was asked, who is still to answer)
# (a change of any is a change of what its connections see)
POSITIONS = (  # the matches that can still change: ongoing, or touched since ``?``
    "SELECT m.id, (SELECT count(*) FROM actions a WHERE a.match=m.id), m.undos, m.status, "
    "m.forfeit, (SELECT count(*) FROM claims c WHERE c.match=m.id), m.rematch, "
    "(SELECT coalesce(sum(1 << s.seat), 0) FROM sealed s WHERE s.match=m.id), "
    "(SELECT count(*) FROM chat h WHERE h.match=m.id), "
    "(SELECT u.asked FROM undo_requests u WHERE u.match=m.id), "
    "(SELECT u.waiting FROM undo_requests u WHERE u.match=m.id) FROM matches m "
    "WHERE m.status = 'ongoing' OR m.updated > ?"
)
# number, undos, status, forfeit, claims, rematch, sealed choosers, chat messages, undo
# request (asked, waiting)
Mark = tuple[
    int, int, str, "int | None", int, "str | None", int, int, "float | None", "str | None"
]

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

    async def rows(self, sql: str, args: Sequence[Any] = ()) -> list[tuple[Any, ...]]: ...

    async def lease(self, match_id: str, holder: str, seconds: float) -> bool: ...

    async def positions(self, since: float) -> dict[str, Mark]: ...

    async def release(self, match_id: str, holder: str) -> None: ...

    def close(self) -> None: ...

"""Open seats: a person's seat the host leaves for whoever takes it first from the lobby.

An open seat is made like every person's seat (its secret token is stored with the
match), but its link is given to nobody at creation; a row of the table ``open_seats``
says it is open. Taking it (``POST /api/matches/{id}/seats/{seat}/take``) marks the row
taken with one statement that must change a row (``taken IS NULL``), so of any number of
takers, on one server or on several sharing a store, the database lets exactly one
through; that one is answered the seat's link, the others a refusal. Until the taker
opens the link, the match waits for that seat as for any person who has not opened
theirs (the move clock starts once every person seat was opened).
"""

from __future__ import annotations

import logging
import time
from pathlib import Path

from tabletop.core.errors import one_line
from tabletop.core.i18n.text import Domain
from tabletop.game import JSON
from tabletop.web.guard import Admission
from tabletop.web.match_request import Refused
from tabletop.web.room import Room
from tabletop.web.store import connect
from tabletop.web.store_records import MatchStore, Stale, Statement
from tabletop.web.store_steps import ONE_ROW

log = logging.getLogger("tabletop.web")
_ = Domain("tabletop")

# the table, in the SQL both databases speak (each store's SCHEMA holds it too)
STILL_OPEN = "SELECT match, seat FROM open_seats WHERE taken IS NULL ORDER BY match, seat"
ITS_SEAT = "SELECT taken FROM open_seats WHERE match=? AND seat=?"
ITS_OPEN = "SELECT seat FROM open_seats WHERE match=? AND taken IS NULL"


def opened(match_id: str, seats: set[int]) -> list[Statement]:
    """Store ``seats`` of a new match as open (in the step that stores the match)."""
    return [
        ("INSERT INTO open_seats (match, seat) VALUES (?,?)", (match_id, seat))
        for seat in sorted(seats)
    ]


def taking(match_id: str, seat: int, at: float) -> list[Statement]:
    """Take an open seat: refused as :class:`Stale` unless it is still open (someone
    else took it first, or it never was open)."""
    return [(
        ONE_ROW + "UPDATE open_seats SET taken=? WHERE match=? AND seat=? AND taken IS NULL",
        (at, match_id, seat),
    )]  # fmt: skip


async def still_open(store: MatchStore) -> dict[str, list[int]]:
    """Every match's seats still open, as the store holds them now (a shared store: the
    takes of every server)."""
    found: dict[str, list[int]] = {}
    for match_id, seat in await store.rows(STILL_OPEN):
        found.setdefault(str(match_id), []).append(int(seat))
    return found


def mark(rooms: dict[str, Room], rows: list[tuple[object, ...]]) -> None:
    """Note in each served room its seats still open (rows of :data:`STILL_OPEN`): the
    match page says such a seat is open to anyone in the lobby."""
    for match_id, seat in rows:
        room = rooms.get(str(match_id))
        if room is not None:
            room.open_seats.add(int(str(seat)))


def rows_of(path: Path) -> list[tuple[object, ...]]:
    """The rows of :data:`STILL_OPEN` in the SQLite file ``path``."""
    db = connect(path)
    try:
        return db.execute(STILL_OPEN).fetchall()
    finally:
        db.close()


async def open_of(store: MatchStore, match_id: str) -> set[int]:
    """The seats of ``match_id`` still open (the host page shows them as open)."""
    return {int(seat) for (seat,) in await store.rows(ITS_OPEN, (match_id,))}


async def take(
    room: Room | None, store: MatchStore, admission: Admission, seat: int, base: str,
    address: str,
) -> JSON:
    """Give ``seat`` of ``room``'s match (as ``Hub.find`` found it) to the client at
    ``address``: ``{"seat", "url"}`` (its private link, built on ``base``), or
    :class:`Refused` saying why not (404 no such match or open seat, 409 taken already or
    the game over, 429 too many takes from one address, 503 the store failed)."""
    if room is None:
        raise Refused(404, _("no such match"))
    status, refusal = admission.take_refusal(address)
    if refusal:
        raise Refused(status, refusal)
    meta = room.meta
    row = next((r for r in meta.seats if r.seat == seat), None)
    if row is None or row.token is None:
        raise Refused(404, _("seat {seat} of this match is not open to take", seat=seat))
    if meta.status == "over":
        raise Refused(409, _("the game is over: its seats are no longer open"))
    admission.took(address)  # counted before any await: the limit holds
    try:
        await store.submit(taking(meta.id, seat, time.time()))
    except Stale:
        found = await store.rows(ITS_SEAT, (meta.id, seat))
        if found:
            raise Refused(409, _("seat {seat} was taken by someone else", seat=seat)) from None
        raise Refused(404, _("seat {seat} of this match is not open to take", seat=seat)) from None
    except Exception as exc:  # sqlite3.Error, psycopg.Error and whatever the disk says
        log.error("an open seat could not be taken: %s", exc)
        raise Refused(
            503,
            _(
                "the server could not store the taken seat ({reason}); try again later",
                reason=one_line(str(exc)),
            ),
        ) from None
    room.open_seats.discard(seat)  # taken: the match page waits for its link now
    room.presence_changed()
    return {"seat": seat, "url": f"{base}match/{meta.id}?token={row.token}"}

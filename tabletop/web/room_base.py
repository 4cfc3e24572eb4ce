"""A room's state, how its changes are stored and how every connection is told.

Every change follows one order: the table changes the match in memory (checked path),
the change is committed to the database, then every connection is sent its own view.
A room's lock serialises its changes. A sealed choice (or its taking back) is a change
too: stored (:mod:`tabletop.web.store_sealed`) before its chooser is told.

Presence (who is online, how many watch) is coalesced: a join or a leave schedules one
``presence`` message to everyone :data:`PRESENCE_EVERY` seconds later, whatever else
joins or leaves meanwhile. Spectators are told of changes at most every
:data:`SPECTATORS_EVERY` seconds, one text for all of a language.

The room itself (:class:`tabletop.web.room.Room`) builds on this: :mod:`room_flow
<tabletop.web.room_flow>` adds what moves a match on by itself, :mod:`room
<tabletop.web.room>` what a connection asks for.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections import Counter
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field
from typing import Any, Protocol

from tabletop.core.i18n.text import Domain
from tabletop.core.table import Change, Table, told
from tabletop.game import JSON
from tabletop.web import logs, protocol, sealed, store, store_sealed
from tabletop.web.chat import Chat
from tabletop.web.connection import Connection, fan_out
from tabletop.web.store import MatchStore, Stale, StoredMatch
from tabletop.web.thinking import Thinkers

_ = Domain("tabletop")

log = logging.getLogger("tabletop.web")
PRESENCE_EVERY = 1.0  # seconds between two presence messages to a connection, at least
RETRY_FIRST = 0.5  # seconds before a computer seat tries again to store its action
RETRY_MOST = 10.0
SPECTATORS_EVERY = 1.0  # seconds: spectators are told of changes at most this often


@dataclass
class UndoRequest:
    """An undo request waiting (stored: :mod:`tabletop.web.undo_requests`)."""

    by: int
    number: int
    count: int
    waiting: set[int] = field(default_factory=set)
    origin: str | None = None  # the server it was asked on, when another (shared store)
    asked: float = 0.0  # wall-clock time it was asked: its name in the store


def stored_request(meta: StoredMatch, number: int, damage: str) -> UndoRequest | None:
    """The undo request stored with ``meta`` (at ``number`` actions), as a room keeps it."""
    undo = meta.undo
    if undo is None or damage or undo.number != number:
        return None
    return UndoRequest(undo.seat, undo.number, undo.count, set(undo.waiting), None, undo.asked)


class Peers(Protocol):
    """What a room asks of the other servers of a shared store
    (:class:`tabletop.web.shared.Sharing` is it)."""

    server: str  # this server's name among them

    def publish(self, notice: JSON) -> None: ...

    def changed(self, room: RoomBase) -> None: ...

    def chat(self, room: RoomBase, entry: JSON) -> None: ...

    def presence(self, room: RoomBase) -> None: ...

    async def lead(self, match_id: str) -> bool: ...

    def leading(self, match_id: str) -> AbstractAsyncContextManager[None]: ...


class RoomBase:
    """A match being served: its state, its storage and its telling."""

    def __init__(
        self,
        meta: StoredMatch,
        table: Table,
        db: MatchStore,
        thinkers: Thinkers,
        damage: str = "",
        sharing: Peers | None = None,
    ) -> None:
        self.meta = meta
        self.table = table
        self.db = db
        self.thinkers = thinkers
        self.owner = meta.id  # whose computer time its moves are: the creating address
        self.damage = damage  # why the stored match no longer replays whole ('' if it does)
        self.updated = meta.updated or meta.created  # wall clock of the last change
        self.active = max(self.updated, time.time())  # ... of the last change or visitor
        self.connections: list[Connection] = []
        self.lock = asyncio.Lock()
        self.undo_request = stored_request(meta, len(table.match.actions), damage)
        self._undo_timer: asyncio.Task[None] | None = None  # the request's lapse
        self._pending: list[asyncio.Future[None]] = []
        self._clock: asyncio.Task[None] | None = None
        self._computer: asyncio.Task[None] | None = None
        self._told: dict[tuple[int, int | None], bool] = {}
        self._presence: asyncio.Task[None] | None = None
        self._undos = 0  # undos so far: a spectator's cached texts name the position by it
        self._joining: tuple[Any, tuple[str, ...]] = (None, ())  # (key, spectator's texts)
        self._present: Counter[int | None] = Counter()  # connections by seat (None: watching)
        self._watchers: asyncio.Task[None] | None = None
        self._retry = RETRY_FIRST
        self._retrying: asyncio.TimerHandle | None = None
        # the first game-log entry not yet told to the players, and to the spectators
        self._log_from = self._watch_log_from = len(table.match.actions)
        self._seen = len(table.match.actions)  # the actions stored, as far as we know
        self.chat = Chat()
        self.open_seats: set[int] = set()  # person seats still open to take in the lobby
        self.sharing = sharing  # the other servers of a shared store (None: this one only)
        self.remote: dict[str, int] = {}  # the other servers' connections ("s": watching)
        self._refused: BaseException | None = None  # why the store refused the last step
        # the sealed choices stored (by seat, their texts), as of the last commit, and as
        # they will be once the writes queued are committed
        self._sealed_rows = sealed.texts(table.match)
        self._sealed_next = dict(self._sealed_rows)
        table.autosave = self._autosave
        self._hold_clock()

    # -- storage -------------------------------------------------------------------------
    def _autosave(self, change: Change) -> None:
        """The table's autosave: queue the change's write (awaited before telling anyone)."""
        match, mid = self.table.match, self.meta.id
        self.updated = self.active = time.time()
        self._hold_clock()
        if change.kind in ("draw-offer", "draw-declined"):  # a question, not a change: not stored
            return
        if change.kind == "sealed" or (change.kind == "undo" and change.number == self._seen):
            self._seal(change)
            return
        first = change.number - 1 if change.kind == "action" else change.number
        self._log_from = min(self._log_from, first)
        self._watch_log_from = min(self._watch_log_from, first)
        deadline = self.table.deadline
        if change.kind == "action":
            status = "ongoing" if match.outcome() is None else "over"
            applies, self._sealed_next = self._sealed_next, {}  # a joint action's others
            statements = store.append(
                mid, change.number, change.text, status, self.updated, deadline,
                self.meta.undos, applies,
            )
            self._seen = change.number
        elif change.kind == "undo":
            self._told.clear()
            self._undos += 1
            statements = store.truncate(
                mid, change.number, deadline, self._seen, self.meta.undos
            )
            self.meta.undos += 1
            self._seen = change.number
            self._sealed_next = {}  # truncate forgets them all: those still held again
            statements += self._sealed_writes(change.number)
        else:  # on time, resigned, or a draw agreed
            ending = "time" if change.kind == "forfeit" else change.kind
            statements = store.forfeit(
                mid, change.player or 0, self.updated, change.number, ending
            )
        self.meta.status = "ongoing" if match.outcome() is None else "over"
        self._pending.append(self.db.submit(statements))

    def _seal(self, change: Change) -> None:
        """Queue the write of a sealed choice, or of one taken back (an undo that took no
        action back)."""
        statements = self._sealed_writes(change.number)
        if statements:
            self._pending.append(self.db.submit(statements))

    def _sealed_writes(self, number: int) -> list[store.Statement]:
        """The writes that make the stored sealed choices the match's (at ``number``
        actions stored): the ones taken back forgotten, the new ones stored."""
        match, mid = self.table.match, self.meta.id
        now, stored = sealed.texts(match), self._sealed_next
        statements: list[store.Statement] = []
        for seat in [s for s in stored if now.get(s) != stored[s]]:
            statements += store_sealed.taken_back(mid, number, seat, self.updated)
            del stored[seat]
        actor = match.game.to_act(match.state)
        choosers = len(actor) if isinstance(actor, frozenset) else 1
        for seat, text in now.items():
            if seat not in stored:
                statements += store_sealed.chosen(
                    mid, number, seat, text, choosers, self.meta.undos, self.updated
                )
                stored[seat] = text
        return statements

    async def _commit(self) -> None:
        pending, self._pending = self._pending, []
        try:
            for future in pending:
                await future
        except BaseException:
            self._sealed_next = dict(self._sealed_rows)
            raise
        self._sealed_rows = dict(self._sealed_next)

    async def _stored(self) -> bool:
        """Commit the last action; if the database refuses it, take it back in memory too
        (nobody was told of it) and say False."""
        self._refused = None
        try:
            await self._commit()
        except Exception as exc:
            self._refused = exc
            if not isinstance(exc, Stale):
                logs.failed(log, f"match {self.meta.id}: an action could not be stored", exc)
            self.table.match.undo()
            sealed.restore(self.table.match, self._sealed_rows)  # a joint action's others
            left = self._seen = len(self.table.match.actions)
            for key in [k for k in self._told if k[0] >= left]:
                del self._told[key]  # what may be told of the refused action
            self._log_from = min(self._log_from, left)
            self._watch_log_from = min(self._watch_log_from, left)
            self.meta.status = "ongoing" if self.table.match.outcome() is None else "over"
            return False
        return True

    # -- telling -------------------------------------------------------------------------
    def online(self) -> set[int]:
        """The seats with a connection open (on this server or another)."""
        here = {seat for seat, count in self._present.items() if count and seat is not None}
        return here | {int(k) for k, n in self.remote.items() if n and k != "s"}

    def presence(self) -> JSON:
        """Each seat's state (``online``, ``offline``, ``computer``), how many watch, the
        names the seats chose and the seats still open to take in the lobby."""
        seats = {}
        online = self.online()
        for row in self.meta.seats:
            state = "computer" if row.ai is not None else "offline"
            seats[str(row.seat)] = "online" if row.seat in online else state
        return {
            "seats": seats,
            "spectators": self._present[None] + self.remote.get("s", 0),
            "names": {str(seat): name for seat, name in sorted(self.meta.names.items())},
            "open": sorted(self.open_seats - self.meta.claimed),
        }

    def counts(self) -> dict[str, int]:
        """This server's connections by seat (``"s"``: spectators), for the others."""
        counts = {str(k): n for k, n in self._present.items() if k is not None and n}
        counts["s"] = self._present[None]
        return counts

    async def tell(self, connection: Connection) -> None:
        """Send one connection the last actions, the whole game log and its position.
        A spectator's texts are built once a language, a position and a second: a crowd
        joining costs the room one text, not one each."""
        seat, lang = connection.seat, connection.lang
        if seat is not None:
            texts = self.texts(seat, self.presence(), 0, lang)
        else:
            key = (len(self.table.match.actions), self._undos, int(time.monotonic()), lang)
            if self._joining[0] != key:
                self._joining = (key, self.texts(None, self.presence(), 0, lang))
            texts = self._joining[1]
        for text in texts:
            connection.post(text)

    def told(self, index: int, seat: int | None) -> bool:
        """Whether ``seat`` may be told action ``index``'s text (cached until an undo)."""
        key = (index, seat)
        if key not in self._told:
            self._told[key] = told(self.table.match, index, seat)
        return self._told[key]

    def texts(
        self, seat: int | None, presence: JSON, start: int, lang: str = "en"
    ) -> tuple[str, ...]:
        """The ``last``, ``log`` (entries from ``start`` on) and ``position`` messages for
        ``seat``, as text, their prose in ``lang``."""
        last = protocol.last_actions(self.table, seat, self.told)
        entries = protocol.log(self.table, seat, self.told, start)
        position = protocol.position(self.table, seat, presence, self.unopened())
        return tuple(
            json.dumps(protocol.localised(m, lang), ensure_ascii=False)
            for m in (last, entries, position)
        )

    async def broadcast(self) -> None:
        """Queue every player's connection its own last actions and position at once;
        the spectators (who may be thousands) get theirs :data:`SPECTATORS_EVERY`
        seconds later at most, one text for all of a language, coalescing the changes
        meanwhile."""
        presence = self.presence()
        start, self._log_from = self._log_from, len(self.table.match.actions)
        texts: dict[tuple[int | None, str], tuple[str, ...]] = {}
        for connection in self.connections:
            seat = connection.seat
            if seat is None:
                continue
            key = (seat, connection.lang)
            if key not in texts:
                texts[key] = self.texts(seat, presence, start, connection.lang)
            for text in texts[key]:
                connection.post(text)
        if self._watchers is None or self._watchers.done():
            self._watchers = asyncio.create_task(self._tell_spectators())

    async def _tell_spectators(self) -> None:
        """After :data:`SPECTATORS_EVERY` seconds, every spectator the position then. The
        texts are built before anything is sent, and the task stops being the pending one
        first, so a change during the fan-out schedules the next telling: none is lost."""
        await asyncio.sleep(SPECTATORS_EVERY)
        async with self.lock:  # never an action still being stored (it may be refused)
            self._watchers = None
            spectators = [c for c in self.connections if c.seat is None]
            start, self._watch_log_from = self._watch_log_from, len(self.table.match.actions)
            presence = self.presence()
            by_lang: dict[str, list[Connection]] = {}
            for connection in spectators:
                by_lang.setdefault(connection.lang, []).append(connection)
            texts = {lang: self.texts(None, presence, start, lang) for lang in by_lang}
        for lang, group in by_lang.items():  # one text for all spectators of a language
            await fan_out(group, texts[lang])

    async def send_all(self, message: JSON) -> None:
        for connection in list(self.connections):
            await connection.send(message)

    def presence_changed(self) -> None:
        """Schedule one presence message to everyone (unless one is already due)."""
        self.active = time.time()
        if self._presence is None or self._presence.done():
            self._presence = asyncio.create_task(self._send_presence())

    async def _send_presence(self) -> None:
        await asyncio.sleep(PRESENCE_EVERY)
        self._presence = None  # a change during the fan-out schedules the next message
        message = json.dumps(protocol.presence(self.presence()))
        await fan_out(list(self.connections), (message,))

    def damaged(self) -> str:
        number = len(self.table.match.actions)
        return _(
            "this match is damaged and cannot go on: it is shown up to action {number}, "
            "its last that still replays ({damage})",
            number=number,
            damage=self.damage,
        )

    def unopened(self) -> list[int]:
        """The person seats whose link nobody has opened yet (the clock waits for them)."""
        return [r.seat for r in self.meta.seats if r.ai is None and r.seat not in self.meta.claimed]

    def _hold_clock(self) -> None:
        """No move clock runs before every person seat has been opened once."""
        if self.unopened():
            self.table.deadline = None

    def hear(self, entry: JSON) -> None:
        """A chat message stored by another server: kept and sent to every connection,
        once (it may come by its notice and by the store, in either order)."""
        said = (entry.get("at"), entry.get("seat"), entry.get("text"))
        if any((m.get("at"), m.get("seat"), m.get("text")) == said for m in self.chat.messages):
            return
        self.chat.messages.append(entry)
        text = json.dumps(entry, ensure_ascii=False)
        for other in list(self.connections):
            other.post(text)

    def close(self) -> None:
        tasks = (self._clock, self._computer, self._presence, self._watchers, self._undo_timer)
        for task in tasks:
            if task is not None:
                task.cancel()
        if self._retrying is not None:
            self._retrying.cancel()

"""One live match on the server: its table, its connections, undo requests and the clock.

Every change follows one order: the table changes the match in memory (checked path),
the change is committed to the database, then every connection is sent its own view.
A room's lock serialises its changes; computer seats think in worker processes
(:mod:`tabletop.web.thinking`). When the database refuses a computer's action, the room
tries again later (:data:`RETRY_FIRST` seconds, doubling up to :data:`RETRY_MOST`), so the
match goes on once the store accepts writes again, without a restart.

Presence (who is online, how many watch) is coalesced: a join or a leave schedules one
``presence`` message to everyone :data:`PRESENCE_EVERY` seconds later, whatever else
joins or leaves meanwhile.

On a store shared with other servers (:mod:`tabletop.web.shared`: ``sharing`` is set),
the room is this server's cache of the stored match: an action refused by the store as
stale (another server stored one at that number first) is taken back and the room reads
the store (:meth:`Room.sync`); every commit is announced to the other servers; the
computer seats think only while this server holds their lease; the clock is the stored
deadline and its ring is stored at its position number, so a game ends on time once.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections import Counter, deque
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from tabletop.core.errors import ActionError, TabletopError
from tabletop.core.i18n.text import Domain
from tabletop.core.table import Change, Table, told
from tabletop.game import JSON
from tabletop.web import chat, logs, protocol, sealed, store
from tabletop.web.catchup import catch_up
from tabletop.web.chat import Chat
from tabletop.web.store import Mark, MatchStore, Stale, StoredMatch
from tabletop.web.thinking import Job, Thinkers

if TYPE_CHECKING:
    from tabletop.web.shared import Sharing

_ = Domain("tabletop")

log = logging.getLogger("tabletop.web")
PRESENCE_EVERY = 1.0  # seconds between two presence messages to a connection, at least
RETRY_FIRST = 0.5  # seconds before a computer seat tries again to store its action
RETRY_MOST = 10.0
SPECTATORS_EVERY = 1.0  # seconds: spectators are told of changes at most this often
FAN_OUT_CHUNK = 25  # connections told of a change at once
FAN_OUT_PAUSE = 0.004  # seconds between two chunks: a person's action goes first
OUTBOX_MOST = 1000  # messages queued for one connection before it is dropped as not reading


class Connection:
    """One websocket: its seat (None: spectator), its language and its outbox.

    Every message's prose (``error``, ``reason``, ``prompt``) is translated into the
    connection's ``lang`` where it is sent: a Czech and a Polish friend in one match each
    read their own.

    Messages are queued (:meth:`post`) and a writer task of the connection's own sends
    them in order, so telling thousands of spectators never holds the room's lock; a
    connection whose outbox grows past :data:`OUTBOX_MOST` (it does not read) is dropped.
    """

    def __init__(
        self,
        seat: int | None,
        send: Callable[[str], Awaitable[None]],
        drop: Callable[[], Coroutine[Any, Any, None]] | None = None,
        lang: str = "en",
    ) -> None:
        self.seat = seat
        self.lang = lang
        self.base = ""  # the origin its page came from (the links it is sent start so)
        self._send = send
        self._drop = drop
        self._outbox: deque[str] = deque()
        self._ready = asyncio.Event()
        self._writer: asyncio.Task[None] | None = None
        self.dropped = False

    async def send(self, message: JSON) -> None:
        self.post(json.dumps(protocol.localised(message, self.lang), ensure_ascii=False))

    def post(self, text: str) -> None:
        """Queue ``text`` for this connection."""
        if self.dropped:
            return
        if len(self._outbox) >= OUTBOX_MOST:
            self.dropped = True
            self._outbox.clear()
            if self._drop is not None:
                self._writer = asyncio.create_task(self._drop())
            return
        self._outbox.append(text)
        self._ready.set()
        if self._writer is None:
            self._writer = asyncio.create_task(self._write())

    async def _write(self) -> None:
        while True:
            while self._outbox:
                # a closed socket: its reader notices and leaves the room
                with contextlib.suppress(Exception):
                    await self._send(self._outbox.popleft())
            self._ready.clear()
            await self._ready.wait()

    async def flush(self) -> None:
        """Wait until every queued message was handed to the socket."""
        while self._outbox and not self.dropped:
            await asyncio.sleep(0.005)

    def close(self) -> None:
        if self._writer is not None:
            self._writer.cancel()


@dataclass
class UndoRequest:
    by: int
    number: int
    count: int
    waiting: set[int] = field(default_factory=set)
    origin: str | None = None  # the server it was asked on, when another (shared store)


class Room:
    """A match being served."""

    def __init__(
        self,
        meta: StoredMatch,
        table: Table,
        db: MatchStore,
        thinkers: Thinkers,
        damage: str = "",
        sharing: Sharing | None = None,
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
        self.undo_request: UndoRequest | None = None
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
        self.sharing = sharing  # the other servers of a shared store (None: this one only)
        self.remote: dict[str, int] = {}  # the other servers' connections ("s": watching)
        self._refused: BaseException | None = None  # why the store refused the last step
        table.autosave = self._autosave
        self._hold_clock()

    # -- storage -------------------------------------------------------------------------
    def _autosave(self, change: Change) -> None:
        """The table's autosave: queue the change's write (awaited before telling anyone)."""
        match, mid = self.table.match, self.meta.id
        self.updated = self.active = time.time()
        self._hold_clock()
        if sealed.stores_nothing(change, self._seen):  # kept here until the round is whole
            return
        first = change.number - 1 if change.kind == "action" else change.number
        self._log_from = min(self._log_from, first)
        self._watch_log_from = min(self._watch_log_from, first)
        deadline = self.table.deadline
        if change.kind == "action":
            status = "ongoing" if match.outcome() is None else "over"
            statements = store.append(
                mid, change.number, change.text, status, self.updated, deadline,
                self.meta.undos,
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
        else:
            statements = store.forfeit(mid, change.player or 0, self.updated, change.number)
        self.meta.status = "ongoing" if match.outcome() is None else "over"
        self._pending.append(self.db.submit(statements))

    async def _commit(self) -> None:
        pending, self._pending = self._pending, []
        for future in pending:
            await future

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
        """Each seat's state (``online``, ``offline``, ``computer``) and how many watch."""
        seats = {}
        online = self.online()
        for row in self.meta.seats:
            state = "computer" if row.ai is not None else "offline"
            seats[str(row.seat)] = "online" if row.seat in online else state
        return {"seats": seats, "spectators": self._present[None] + self.remote.get("s", 0)}

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

    # -- joining -------------------------------------------------------------------------
    async def join(self, connection: Connection, hello: JSON) -> None:
        async with self.lock:
            self.connections.append(connection)
            self._present[connection.seat] += 1
            seat = connection.seat
            first = seat is not None and seat not in self.meta.claimed
            if seat is not None and first:
                self.meta.claimed.add(seat)
                claimed = self.db.submit(store.claim(self.meta.id, seat))
                if self.sharing is not None:  # the others wait for it (their clocks too)
                    with contextlib.suppress(Exception):
                        await claimed
                    self.sharing.changed(self)
            await connection.send(hello)
            for message in self.chat.recent():
                await connection.send(message)
            await self.tell(connection)
            if first and not self.unopened() and self.table.move_time:
                await self._start_clock()  # every person has sat down: the clock starts
                self.arm_clock()
                await self.broadcast()
            if self.damage:
                await connection.send(protocol.error(self.damaged()))
            self.presence_changed()
            if self.undo_request is not None:
                await connection.send(self._undo_message(self.undo_request))
        if self.sharing is not None:
            self.sharing.presence(self)

    async def leave(self, connection: Connection) -> None:
        connection.close()
        self.chat.forget(id(connection))
        if connection in self.connections:
            self.connections.remove(connection)
            self._present[connection.seat] -= 1
            self.presence_changed()
            if self.sharing is not None:
                self.sharing.presence(self)

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

    # -- acting --------------------------------------------------------------------------
    async def act(self, connection: Connection, text: str, number: int) -> None:
        """A person's action: refused (error to them) or stored, then told to everyone."""
        async with self.lock:
            match = self.table.match
            if connection.seat is None:
                await connection.send(protocol.error(_("spectators cannot act")))
                return
            if self.damage:
                await connection.send(protocol.error(self.damaged()))
                return
            if number != len(match.actions):
                await connection.send(
                    protocol.error(
                        _(
                            "position {number} is stale: the match is at position {now}; "
                            "act on the position you were sent last",
                            number=number,
                            now=len(match.actions),
                        )
                    )
                )
                return
            try:
                self.table.play(connection.seat, text)
            except ActionError as exc:
                await connection.send(protocol.error(exc.reason))
                return
            if not await self._stored():
                if isinstance(self._refused, Stale):  # another server's action came first
                    await self._adopt_stored()
                    await connection.send(protocol.error(self._stale(number)))
                    return
                await connection.send(
                    protocol.error(_("the server could not store the action; nothing changed"))
                )
                return
            await self._after_change()
        self.start_computers()

    def _stale(self, number: int) -> str:
        return _(
            "position {number} is stale: the match is at position {now}; "
            "act on the position you were sent last",
            number=number,
            now=len(self.table.match.actions),
        )

    async def _after_change(self) -> None:
        """Commit, drop a stale undo request, tell everyone, re-arm the clock."""
        await self._commit()
        request = self.undo_request
        if request is not None and request.number != len(self.table.match.actions):
            self.undo_request = None
            await self.send_all(protocol.undo_declined(request.by, _("the match moved on")))
        await self.broadcast()
        self.arm_clock()
        if self.sharing is not None:
            self.sharing.changed(self)

    # -- a shared store: the others' changes ---------------------------------------------
    def mark(self) -> Mark:
        """The position as :meth:`~tabletop.web.store.MatchStore.positions` gives it."""
        match, meta = self.table.match, self.meta
        forfeit = match.forfeit.player if match.forfeit is not None else None
        status = "ongoing" if match.outcome() is None else "over"
        return (len(match.actions), meta.undos, status, forfeit, len(meta.claimed),
                meta.rematch)  # fmt: skip

    async def sync(self) -> None:
        """Read the match from the store and become it (another server changed it)."""
        async with self.lock:
            await self._adopt_stored()
        self.start_computers()

    async def _adopt_stored(self) -> None:
        stored = await self.db.load(self.meta.id)
        if stored is not None:
            await self._adopt(stored)

    async def _adopt(self, stored: StoredMatch) -> None:
        """Become ``stored`` (under the lock) and tell this server's connections."""
        try:
            result = catch_up(self.table.match, stored, self.meta.undos)
        except TabletopError as exc:
            log.error("match %s: the stored match does not replay here: %s", self.meta.id, exc)
            return
        meta = self.meta
        self._seen = len(stored.actions)
        if result.replayed:
            self.table.match = result.match
            self._told.clear()
            self._undos += 1
        self._log_from = min(self._log_from, result.first)
        self._watch_log_from = min(self._watch_log_from, result.first)
        claimed = stored.claimed - meta.claimed
        meta.claimed |= stored.claimed
        meta.undos, meta.rematch = stored.undos, stored.rematch
        meta.status = "ongoing" if self.table.match.outcome() is None else "over"
        clock = self.table.deadline
        if self.table.move_time:
            self.table.deadline = stored.deadline
            self._hold_clock()
            if self._clock_unstarted(stored):
                await self._start_clock()
        if result.changed or claimed or clock != self.table.deadline:
            self.updated = self.active = time.time()
            request = self.undo_request
            moved = request is not None and request.number != len(self.table.match.actions)
            # a request asked on another server and carried out there (an undo: replayed)
            # is answered by that server's result
            if request is not None and moved and not (request.origin and result.replayed):
                self.undo_request = None
                await self.send_all(protocol.undo_declined(request.by, _("the match moved on")))
            await self.broadcast()
            self.arm_clock()

    async def _start_clock(self) -> None:
        """Start the clock of the person to act and store its deadline; on a shared store
        only if no other server started it first (then that deadline it is)."""
        self.table.start_clock()
        if self.sharing is None:
            self.db.submit(store.clock(self.meta.id, self.table.deadline))
            return
        try:
            await self.db.submit(store.clock(self.meta.id, self.table.deadline, first=True))
            self.sharing.changed(self)
        except Stale:
            stored = await self.db.load(self.meta.id)
            if stored is not None:
                self.table.deadline = stored.deadline
        except Exception as exc:
            logs.failed(log, f"match {self.meta.id}: the clock could not be stored", exc)

    def _clock_unstarted(self, stored: StoredMatch) -> bool:
        """Every person has sat down, a person is to act, and no server stored a clock
        (the last seat was opened on a server that did not know of the others yet)."""
        player = self.table.match.player()
        return bool(
            self.table.move_time and stored.deadline is None and not self.unopened()
            and player is not None and player not in self.table.computers
        )

    def hear(self, entry: JSON) -> None:
        """A chat message stored by another server: kept and sent to every connection."""
        self.chat.messages.append(entry)
        text = json.dumps(entry, ensure_ascii=False)
        for other in list(self.connections):
            other.post(text)

    def ring_if_due(self) -> None:
        """Arm the clock again when it has run out and no ring is pending (another
        server's ring may have been refused as stale, or this one was not running)."""
        left = self.table.time_left()
        if left == 0 and (self._clock is None or self._clock.done()):
            self.arm_clock()

    def start_computers(self) -> None:
        """Let the computer seats play (in the background) if one is to act."""
        if self.damage or self.table.computer_to_act() is None:
            return
        if self._computer is None or self._computer.done():
            self._computer = asyncio.create_task(self._computers())

    def _job(self) -> Job:
        match = self.table.match
        player = self.table.computer_to_act()  # at a sealed step: sees no one's choice
        assert player is not None
        level = next(r.ai for r in self.meta.seats if r.seat == player)
        return Job(
            self.meta.id, match.game.info.id, level or "", match.state, player,
            match.players, match.options, match.seed, len(match.actions),
        )  # fmt: skip

    async def _computers(self) -> None:
        """Play the computer seats until a person is to act (on a shared store: only
        while this server holds their lease, from the stored position on)."""
        sharing = self.sharing
        if sharing is None:
            await self._think()
            return
        if not await sharing.lead(self.meta.id):
            return  # another server thinks for them
        async with sharing.leading(self.meta.id):
            async with self.lock:
                await self._adopt_stored()
            await self._think()

    async def _think(self) -> None:
        """Play the computer seats until a person is to act; on a store failure, try
        again later (the players are told once)."""
        background = not self.table.persons()
        async with self.lock:
            while self.table.computer_to_act() is not None:
                try:
                    action = await self.thinkers.decide(self._job(), background, self.owner)
                    self.table.push(action)
                except Exception:  # an agent's bug: the match waits, the server goes on
                    log.exception("the computer seat of match %s failed", self.meta.id)
                    await self.send_all(protocol.error(_("the computer player failed to act")))
                    return
                if not await self._stored():
                    if isinstance(self._refused, Stale):  # another server stored one
                        await self._adopt_stored()
                        continue
                    if self._retry == RETRY_FIRST:
                        await self.send_all(
                            protocol.error(
                                _(
                                    "the server could not store the computer's action; "
                                    "it tries again until the database accepts it"
                                )
                            )
                        )
                    delay, self._retry = self._retry, min(RETRY_MOST, self._retry * 2)
                    loop = asyncio.get_running_loop()
                    self._retrying = loop.call_later(delay, self.start_computers)
                    return
                self._retry = RETRY_FIRST
                await self._after_change()

    # -- the clock -----------------------------------------------------------------------
    def unopened(self) -> list[int]:
        """The person seats whose link nobody has opened yet (the clock waits for them)."""
        return [r.seat for r in self.meta.seats if r.ai is None and r.seat not in self.meta.claimed]

    def _hold_clock(self) -> None:
        """No move clock runs before every person seat has been opened once."""
        if self.unopened():
            self.table.deadline = None

    def arm_clock(self) -> None:
        if self._clock is not None:
            self._clock.cancel()
            self._clock = None
        self._hold_clock()
        left = self.table.time_left()
        if left is not None:
            self._clock = asyncio.create_task(self._ring(left))

    async def _ring(self, left: float) -> None:
        await asyncio.sleep(left + 0.01)
        async with self.lock:
            if self.table.expire():
                self._clock = None
                if not await self._stored():  # another server rang (or acted) first
                    if isinstance(self._refused, Stale):
                        await self._adopt_stored()
                    return
                await self._after_change()

    # -- undo ----------------------------------------------------------------------------
    async def ask_undo(self, connection: Connection) -> None:
        seat = connection.seat
        async with self.lock:
            if seat is None or seat not in self.table.persons():
                await connection.send(protocol.error(_("only a player can ask for an undo")))
                return
            if self.damage:
                await connection.send(protocol.error(self.damaged()))
                return
            if self.undo_request is not None:
                by = self.undo_request.by
                asker = "you" if by == seat else f"player {by}"
                await connection.send(protocol.error(
                    f"an undo request is already waiting (asked by {asker}); "
                    "it must be answered first"
                ))  # fmt: skip
                return
            plan = self.table.undo_plan(seat)
            if plan.sealed:  # one's own sealed choice: nobody else was told of it
                await sealed.take_back(self, seat)
                return
            if plan.refusal:
                await connection.send(
                    protocol.error(_("cannot undo: {reason}", reason=plan.refusal))
                )
                return
            others = {p for p in self.table.persons() if p != seat}
            request = UndoRequest(seat, len(self.table.match.actions), plan.count, others)
            self.undo_request = request
            if others:
                await self.send_all(self._undo_message(request))
                if self.sharing is not None:
                    self.sharing.publish({
                        "k": "uq", "m": self.meta.id, "o": self.sharing.server,
                        "r": self._undo_message(request),
                    })  # fmt: skip
            else:
                await self._carry_out(request)

    async def answer_undo(self, connection: Connection, agree: bool) -> None:
        async with self.lock:
            request = self.undo_request
            if request is None or connection.seat not in request.waiting:
                await connection.send(protocol.error(_("no undo request is waiting for you")))
                return
            if request.origin is not None and self.sharing is not None:  # asked elsewhere
                self.sharing.publish({"k": "ua", "m": self.meta.id, "o": request.origin,
                                      "seat": connection.seat, "agree": agree})  # fmt: skip
                return
            await self._answered(request, connection.seat, agree)

    async def _answered(self, request: UndoRequest, seat: int, agree: bool) -> None:
        if not agree:
            self.undo_request = None
            declined = protocol.undo_declined(request.by, _("player {n} declined", n=seat))
            await self._undo_told(declined)
            return
        request.waiting.discard(seat)
        if not request.waiting:
            await self._carry_out(request)

    async def _undo_told(self, message: JSON) -> None:
        """An undo's result to everyone, on the other servers too."""
        await self.send_all(message)
        if self.sharing is not None:
            self.sharing.publish({"k": "ur", "m": self.meta.id, "r": message})

    async def undo_notice(self, notice: JSON) -> None:
        """Another server's undo request (``uq``), an answer to this server's (``ua``),
        or a result (``ur``)."""
        kind, message = notice.get("k"), notice.get("r")
        async with self.lock:
            request = self.undo_request
            if kind == "uq" and isinstance(message, dict):
                self.undo_request = UndoRequest(
                    int(message["by"]), int(message["number"]), int(message["count"]),
                    {int(w) for w in message["waiting"]}, str(notice.get("o")),
                )  # fmt: skip
                await self.send_all(message)
            elif kind == "ua" and request is not None and request.origin is None:
                assert self.sharing is not None
                seat = notice.get("seat")
                if notice.get("o") == self.sharing.server and seat in request.waiting:
                    await self._answered(request, int(seat), bool(notice.get("agree")))
            elif kind == "ur" and request is not None and request.origin is not None:
                self.undo_request = None
                if isinstance(message, dict):
                    await self.send_all(message)

    async def _carry_out(self, request: UndoRequest) -> None:
        self.undo_request = None
        plan = self.table.undo_plan(request.by)
        if plan.refusal or plan.count != request.count:
            reason = plan.refusal or _("the match moved on")
            await self._undo_told(protocol.undo_declined(request.by, reason))
            return
        self.table.undo(request.by)
        try:
            await self._commit()  # stored before anyone is told
        except Exception as exc:  # another server acted or undid first, or the store failed
            if not isinstance(exc, Stale):
                logs.failed(log, f"match {self.meta.id}: an undo could not be stored", exc)
            with contextlib.suppress(Exception):
                await self._adopt_stored()  # the stored match, as it is
            await self._undo_told(protocol.undo_declined(request.by, _("the match moved on")))
            return
        await self._undo_told(protocol.undo_done(request.by, plan.count))
        await self._after_change()
        self.start_computers()

    def _undo_message(self, request: UndoRequest) -> JSON:
        return protocol.undo_request(request.by, request.number, request.count, request.waiting)

    # -- table talk ----------------------------------------------------------------------
    async def talk(self, connection: Connection, text: str) -> None:
        """A chat message from ``connection``: refused (error to it) or stored, then sent to
        everyone."""
        seat = connection.seat
        why = chat.refusal(text)
        if not why and not self.chat.may_write(seat):
            why = chat.READ_ONLY
        if not why and self.chat.too_fast(id(connection)):
            why = chat.TOO_FAST
        if why:
            await connection.send(protocol.error(why))
            return
        name = self.table.name(seat) if seat is not None else "spectator"
        entry = self.chat.message(seat, name, text)
        try:
            await self.db.submit(chat.insert(self.meta.id, entry))
        except Exception as exc:
            logs.failed(log, f"match {self.meta.id}: a chat message could not be stored", exc)
            self.chat.messages.remove(entry)
            await connection.send(protocol.error(_("the server could not store the message")))
            return
        text_out = json.dumps(entry, ensure_ascii=False)
        for other in list(self.connections):
            other.post(text_out)
        if self.sharing is not None:
            self.sharing.chat(self, entry)

    def close(self) -> None:
        for task in (self._clock, self._computer, self._presence, self._watchers):
            if task is not None:
                task.cancel()
        if self._retrying is not None:
            self._retrying.cancel()


async def fan_out(connections: list[Connection], texts: tuple[str, ...]) -> None:
    """Queue ``texts`` for every connection, :data:`FAN_OUT_CHUNK` connections at a time
    with :data:`FAN_OUT_PAUSE` between: the crowd's sending is spread out (2,000
    spectators: about half a second), so the event loop is never busy with it for more
    than a chunk's writes and a person's action waits at most that long."""
    for start in range(0, len(connections), FAN_OUT_CHUNK):
        if start:
            await asyncio.sleep(FAN_OUT_PAUSE)
        for connection in connections[start : start + FAN_OUT_CHUNK]:
            for text in texts:
                connection.post(text)


def seat_of(meta: StoredMatch, token: str | None) -> Any:
    """The seat whose token is ``token`` (constant-time compare), else None."""
    import secrets

    if not token:
        return None
    for row in meta.seats:
        if row.token is not None and secrets.compare_digest(row.token, token):
            return row.seat
    return None

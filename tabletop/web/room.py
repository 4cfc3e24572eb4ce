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
from typing import Any

from tabletop.core.errors import ActionError
from tabletop.core.i18n.text import Domain
from tabletop.core.table import Change, Table, told
from tabletop.game import JSON
from tabletop.web import chat, protocol, store
from tabletop.web.chat import Chat
from tabletop.web.store import Store, StoredMatch
from tabletop.web.thinking import Job, Thinkers

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


class Room:
    """A match being served."""

    def __init__(
        self, meta: StoredMatch, table: Table, db: Store, thinkers: Thinkers, damage: str = ""
    ) -> None:
        self.meta = meta
        self.table = table
        self.db = db
        self.thinkers = thinkers
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
        self.chat = Chat()
        table.autosave = self._autosave
        self._hold_clock()

    # -- storage -------------------------------------------------------------------------
    def _autosave(self, change: Change) -> None:
        """The table's autosave: queue the change's write (awaited before telling anyone)."""
        match, mid = self.table.match, self.meta.id
        self.updated = self.active = time.time()
        self._hold_clock()
        first = change.number - 1 if change.kind == "action" else change.number
        self._log_from = min(self._log_from, first)
        self._watch_log_from = min(self._watch_log_from, first)
        if change.kind == "action":
            status = "ongoing" if match.outcome() is None else "over"
            statements = store.append(mid, change.number, change.text, status, self.updated)
        elif change.kind == "undo":
            self._told.clear()
            self._undos += 1
            statements = store.truncate(mid, change.number)
        else:
            statements = store.forfeit(mid, change.player or 0, self.updated)
        self.meta.status = "ongoing" if match.outcome() is None else "over"
        self._pending.append(self.db.submit(statements))

    async def _commit(self) -> None:
        pending, self._pending = self._pending, []
        for future in pending:
            await future

    async def _stored(self) -> bool:
        """Commit the last action; if the database refuses it, take it back in memory too
        (nobody was told of it) and say False."""
        try:
            await self._commit()
        except Exception:
            log.exception("match %s: an action could not be stored", self.meta.id)
            self.table.match.undo()
            left = len(self.table.match.actions)
            self._log_from = min(self._log_from, left)
            self._watch_log_from = min(self._watch_log_from, left)
            self.meta.status = "ongoing" if self.table.match.outcome() is None else "over"
            return False
        return True

    # -- telling -------------------------------------------------------------------------
    def online(self) -> set[int]:
        """The seats with a connection open."""
        return {seat for seat, count in self._present.items() if count and seat is not None}

    def presence(self) -> JSON:
        """Each seat's state (``online``, ``offline``, ``computer``) and how many watch."""
        seats = {}
        for row in self.meta.seats:
            state = "computer" if row.ai is not None else "offline"
            seats[str(row.seat)] = "online" if self._present[row.seat] else state
        return {"seats": seats, "spectators": self._present[None]}

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
                self.db.submit(store.claim(self.meta.id, seat))
            await connection.send(hello)
            for message in self.chat.recent():
                await connection.send(message)
            await self.tell(connection)
            if first and not self.unopened() and self.table.move_time:
                self.table.start_clock()  # every person has sat down: the clock starts
                self.arm_clock()
                await self.broadcast()
            if self.damage:
                await connection.send(protocol.error(self.damaged()))
            self.presence_changed()
            if self.undo_request is not None:
                await connection.send(self._undo_message(self.undo_request))

    async def leave(self, connection: Connection) -> None:
        connection.close()
        self.chat.forget(id(connection))
        if connection in self.connections:
            self.connections.remove(connection)
            self._present[connection.seat] -= 1
            self.presence_changed()

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
                await connection.send(
                    protocol.error(_("the server could not store the action; nothing changed"))
                )
                return
            await self._after_change()
        self.start_computers()

    async def _after_change(self) -> None:
        """Commit, drop a stale undo request, tell everyone, re-arm the clock."""
        await self._commit()
        request = self.undo_request
        if request is not None and request.number != len(self.table.match.actions):
            self.undo_request = None
            await self.send_all(protocol.undo_declined(request.by, _("the match moved on")))
        await self.broadcast()
        self.arm_clock()

    def start_computers(self) -> None:
        """Let the computer seats play (in the background) if one is to act."""
        if self.damage or self.table.computer_to_act() is None:
            return
        if self._computer is None or self._computer.done():
            self._computer = asyncio.create_task(self._computers())

    def _job(self) -> Job:
        match = self.table.match
        player = match.to_act()
        assert player is not None
        level = next(r.ai for r in self.meta.seats if r.seat == player)
        return Job(
            self.meta.id, match.game.info.id, level or "", match.state, player,
            match.players, match.options, match.seed, len(match.actions),
        )  # fmt: skip

    async def _computers(self) -> None:
        """Play the computer seats until a person is to act; on a store failure, try
        again later (the players are told once)."""
        background = not self.table.persons()
        async with self.lock:
            while self.table.computer_to_act() is not None:
                try:
                    action = await self.thinkers.decide(self._job(), background)
                    self.table.push(action)
                except Exception:  # an agent's bug: the match waits, the server goes on
                    log.exception("the computer seat of match %s failed", self.meta.id)
                    await self.send_all(protocol.error(_("the computer player failed to act")))
                    return
                if not await self._stored():
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
            else:
                await self._carry_out(request)

    async def answer_undo(self, connection: Connection, agree: bool) -> None:
        async with self.lock:
            request = self.undo_request
            if request is None or connection.seat not in request.waiting:
                await connection.send(protocol.error(_("no undo request is waiting for you")))
                return
            if not agree:
                self.undo_request = None
                await self.send_all(
                    protocol.undo_declined(request.by, _("player {n} declined", n=connection.seat))
                )
                return
            request.waiting.discard(connection.seat)
            if not request.waiting:
                await self._carry_out(request)

    async def _carry_out(self, request: UndoRequest) -> None:
        self.undo_request = None
        plan = self.table.undo_plan(request.by)
        if plan.refusal or plan.count != request.count:
            reason = plan.refusal or _("the match moved on")
            await self.send_all(protocol.undo_declined(request.by, reason))
            return
        self.table.undo(request.by)
        await self.send_all(protocol.undo_done(request.by, plan.count))
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
        except Exception:
            log.exception("match %s: a chat message could not be stored", self.meta.id)
            self.chat.messages.remove(entry)
            await connection.send(protocol.error(_("the server could not store the message")))
            return
        text_out = json.dumps(entry, ensure_ascii=False)
        for other in list(self.connections):
            other.post(text_out)

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

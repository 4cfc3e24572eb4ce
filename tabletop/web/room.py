"""One live match on the server: its table, its connections, undo requests and the clock.

Every change follows one order: the table changes the match in memory (checked path),
the change is committed to the database, then every connection is sent its own view.
A room's lock serialises its changes; computer seats think on a worker thread.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import Any

from tabletop.core.errors import ActionError
from tabletop.core.table import Change, Table, told
from tabletop.game import JSON
from tabletop.web import chat, gamelog, protocol, store
from tabletop.web.chat import Chat
from tabletop.web.store import Store, StoredMatch

log = logging.getLogger("tabletop.web")


class Connection:
    """One websocket: its seat (None: spectator) and how to send it text."""

    def __init__(self, seat: int | None, send: Callable[[str], Awaitable[None]]) -> None:
        self.seat = seat
        self._send = send

    async def send(self, message: JSON) -> None:
        # a closed socket: its reader notices and leaves the room
        with contextlib.suppress(Exception):
            await self._send(json.dumps(message, ensure_ascii=False))


@dataclass
class UndoRequest:
    by: int
    number: int
    count: int
    waiting: set[int] = field(default_factory=set)


class Room:
    """A match being served."""

    def __init__(self, meta: StoredMatch, table: Table, db: Store, pool: Executor) -> None:
        self.meta = meta
        self.table = table
        self.db = db
        self.pool = pool
        self.connections: list[Connection] = []
        self.lock = asyncio.Lock()
        self.undo_request: UndoRequest | None = None
        self._pending: list[asyncio.Future[None]] = []
        self._clock: asyncio.Task[None] | None = None
        self._computer: asyncio.Task[None] | None = None
        self._told: dict[tuple[int, int | None], bool] = {}
        self._log_from = len(table.match.actions)  # the first log entry not yet told
        self.chat = Chat()
        table.autosave = self._autosave
        self._hold_clock()

    # -- storage -------------------------------------------------------------------------
    def _autosave(self, change: Change) -> None:
        """The table's autosave: queue the change's write (awaited before telling anyone)."""
        match, mid = self.table.match, self.meta.id
        self._hold_clock()
        if change.kind == "action":
            self._log_from = min(self._log_from, change.number - 1)
            status = "ongoing" if match.outcome() is None else "over"
            statements = store.append(mid, change.number, change.text, status)
        elif change.kind == "undo":
            self._told.clear()
            self._log_from = min(self._log_from, change.number)
            statements = store.truncate(mid, change.number)
        else:
            statements = store.forfeit(mid, change.player or 0)
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
            self._log_from = min(self._log_from, len(self.table.match.actions))
            self.meta.status = "ongoing" if self.table.match.outcome() is None else "over"
            return False
        return True

    # -- telling -------------------------------------------------------------------------
    def presence(self) -> JSON:
        online = {c.seat for c in self.connections}
        seats = {}
        for row in self.meta.seats:
            state = "computer" if row.ai is not None else "offline"
            seats[str(row.seat)] = "online" if row.seat in online else state
        spectators = sum(1 for c in self.connections if c.seat is None)
        return {"seats": seats, "spectators": spectators}

    async def tell(self, connection: Connection) -> None:
        """Send one connection the last actions, the whole log and its position."""
        seat = connection.seat
        await connection.send(protocol.last_actions(self.table, seat, self.told))
        await connection.send(gamelog.message(self.table, seat, self.told))
        await connection.send(
            protocol.position(self.table, seat, self.presence(), self.unopened())
        )

    def told(self, index: int, seat: int | None) -> bool:
        """Whether ``seat`` may be told action ``index``'s text (cached until an undo)."""
        key = (index, seat)
        if key not in self._told:
            self._told[key] = told(self.table.match, index, seat)
        return self._told[key]

    async def broadcast(self) -> None:
        presence = self.presence()
        waiting = self.unopened()
        start, self._log_from = self._log_from, len(self.table.match.actions)
        messages: dict[int | None, tuple[JSON, JSON, JSON]] = {}
        for connection in list(self.connections):
            seat = connection.seat
            if seat not in messages:
                messages[seat] = (
                    protocol.last_actions(self.table, seat, self.told),
                    gamelog.message(self.table, seat, self.told, start),
                    protocol.position(self.table, seat, presence, waiting),
                )
            for message in messages[seat]:
                await connection.send(message)

    async def send_all(self, message: JSON) -> None:
        for connection in list(self.connections):
            await connection.send(message)

    # -- joining -------------------------------------------------------------------------
    async def join(self, connection: Connection, hello: JSON) -> None:
        async with self.lock:
            self.connections.append(connection)
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
            await self.send_all({"type": "presence", "presence": self.presence()})
            if self.undo_request is not None:
                await connection.send(self._undo_message(self.undo_request))

    async def leave(self, connection: Connection) -> None:
        self.chat.forget(id(connection))
        if connection in self.connections:
            self.connections.remove(connection)
            await self.send_all({"type": "presence", "presence": self.presence()})

    # -- acting --------------------------------------------------------------------------
    async def act(self, connection: Connection, text: str, number: int) -> None:
        """A person's action: refused (error to them) or stored, then told to everyone."""
        async with self.lock:
            match = self.table.match
            if connection.seat is None:
                await connection.send(protocol.error("spectators cannot act"))
                return
            if number != len(match.actions):
                await connection.send(
                    protocol.error(
                        f"position {number} is stale: the match is at position "
                        f"{len(match.actions)}; act on the position you were sent last"
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
                    protocol.error("the server could not store the action; nothing changed")
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
            await self.send_all(
                {"type": "undo-result", "by": request.by, "done": False,
                 "reason": "the match moved on"}
            )  # fmt: skip
        await self.broadcast()
        self.arm_clock()

    def start_computers(self) -> None:
        """Let the computer seats play (in the background) if one is to act."""
        if self.table.computer_to_act() is None:
            return
        if self._computer is None or self._computer.done():
            self._computer = asyncio.create_task(self._computers())

    async def _computers(self) -> None:
        loop = asyncio.get_running_loop()
        async with self.lock:
            while self.table.computer_to_act() is not None:
                try:
                    action = await loop.run_in_executor(self.pool, self.table.choose)
                    self.table.push(action)
                except Exception:  # an agent's bug: the match waits, the server goes on
                    log.exception("the computer seat of match %s failed", self.meta.id)
                    await self.send_all(protocol.error("the computer player failed to act"))
                    return
                if not await self._stored():
                    await self.send_all(protocol.error("the server could not store an action"))
                    return
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
                await connection.send(protocol.error("only a player can ask for an undo"))
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
                await connection.send(protocol.error(f"cannot undo: {plan.refusal}"))
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
                await connection.send(protocol.error("no undo request is waiting for you"))
                return
            if not agree:
                self.undo_request = None
                await self.send_all(
                    {"type": "undo-result", "by": request.by, "done": False,
                     "reason": f"player {connection.seat} declined"}
                )  # fmt: skip
                return
            request.waiting.discard(connection.seat)
            if not request.waiting:
                await self._carry_out(request)

    async def _carry_out(self, request: UndoRequest) -> None:
        self.undo_request = None
        plan = self.table.undo_plan(request.by)
        if plan.refusal or plan.count != request.count:
            reason = plan.refusal or "the match moved on"
            await self.send_all(
                {"type": "undo-result", "by": request.by, "done": False, "reason": reason}
            )
            return
        self.table.undo(request.by)
        await self.send_all(
            {"type": "undo-result", "by": request.by, "done": True, "count": plan.count}
        )
        await self._after_change()
        self.start_computers()

    def _undo_message(self, request: UndoRequest) -> JSON:
        return {
            "type": "undo-request", "by": request.by, "number": request.number,
            "count": request.count, "waiting": sorted(request.waiting),
        }  # fmt: skip

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
            await connection.send(protocol.error("the server could not store the message"))
            return
        await self.send_all(entry)

    def close(self) -> None:
        for task in (self._clock, self._computer):
            if task is not None:
                task.cancel()


def seat_of(meta: StoredMatch, token: str | None) -> Any:
    """The seat whose token is ``token`` (constant-time compare), else None."""
    import secrets

    if not token:
        return None
    for row in meta.seats:
        if row.token is not None and secrets.compare_digest(row.token, token):
            return row.seat
    return None

"""One live match on the server, and what its connections ask of it: to join or leave,
to act, to ask for an undo or answer one, and to talk at the table (to resign or agree a
draw: :mod:`tabletop.web.room_endings`; to choose a name: :mod:`tabletop.web.room_names`).

A room is built in layers, one job each: :mod:`tabletop.web.connection` (one websocket's
outbox), :mod:`tabletop.web.room_base` (state, storage, telling), :mod:`tabletop.web.room_flow`
(the clock, the computer seats, a shared store's changes), :mod:`room_endings
<tabletop.web.room_endings>` and this module.
"""

from __future__ import annotations

import contextlib
import json
from typing import Any

from tabletop.core.errors import ActionError
from tabletop.game import JSON
from tabletop.web import chat, logs, notices, protocol, sealed, store
from tabletop.web.connection import FAN_OUT_CHUNK, FAN_OUT_PAUSE, OUTBOX_MOST, Connection, fan_out
from tabletop.web.room_base import (
    PRESENCE_EVERY,
    RETRY_FIRST,
    RETRY_MOST,
    SPECTATORS_EVERY,
    UndoRequest,
    _,
    log,
)
from tabletop.web.room_names import RoomNames
from tabletop.web.store import Stale, StoredMatch

ATTEMPTS = 3  # times a sealed choice is entered again when another's was stored first

__all__ = [
    "FAN_OUT_CHUNK", "FAN_OUT_PAUSE", "OUTBOX_MOST", "PRESENCE_EVERY", "RETRY_FIRST",
    "RETRY_MOST", "SPECTATORS_EVERY", "Connection", "Room", "UndoRequest", "fan_out",
    "seat_of",
]  # fmt: skip


class Room(RoomNames):
    """A match being served."""

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
            for attempt in range(1, ATTEMPTS + 1):
                try:
                    self.table.play(connection.seat, text)
                except ActionError as exc:
                    await connection.send(protocol.error(exc.reason))
                    return
                if await self._stored():
                    break
                if not isinstance(self._refused, Stale):
                    await connection.send(protocol.error(
                        _("the server could not store the action; nothing changed")
                    ))  # fmt: skip
                    return
                undos = self.meta.undos  # another server's action or sealed choice came first
                await self._adopt_stored()
                if attempt == ATTEMPTS or not self._same_step(number, undos):
                    await connection.send(protocol.error(self._stale(number)))
                    return
            await self._after_change()
        self.start_computers()

    def _same_step(self, number: int, undos: int) -> bool:
        """Whether the match is still at the simultaneous step ``number`` (``undos`` undos
        so far): only the sealed choices stored changed, so a choice is entered again."""
        match = self.table.match
        return (
            len(match.actions) == number and self.meta.undos == undos
            and isinstance(match.game.to_act(match.state), frozenset)
        )  # fmt: skip

    def _stale(self, number: int) -> str:
        return _(
            "position {number} is stale: the match is at position {now}; "
            "act on the position you were sent last",
            number=number,
            now=len(self.table.match.actions),
        )

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
                waiting = (
                    _(
                        "an undo request is already waiting (asked by you); "
                        "it must be answered first"
                    )
                    if by == seat
                    else _(
                        "an undo request is already waiting (asked by player {n}); "
                        "it must be answered first",
                        n=by,
                    )
                )
                await connection.send(protocol.error(waiting))
                return
            plan = self.table.undo_plan(seat)
            if plan.sealed:  # one's own sealed choice: nobody else was told of it
                await self.take_back_sealed(seat)
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
                    self.sharing.publish(notices.undo_asked(
                        self.meta.id, self.sharing.server, self._undo_message(request)
                    ))  # fmt: skip
            else:
                await self._carry_out(request)

    async def take_back_sealed(self, seat: int) -> None:
        """Take back ``seat``'s sealed choice (the lock held): tell that seat's
        connections, then everyone their position (the seat is choosing again)."""
        match = self.table.match
        own = match.sealed[seat]
        self.table.undo(seat)
        try:
            await self._commit()  # stored before anyone is told
        except Exception as exc:
            if isinstance(exc, Stale):  # applied meanwhile (another server): as stored
                with contextlib.suppress(Exception):
                    await self._adopt_stored()
                why = _("cannot undo: {reason}", reason=_("the match moved on"))
            else:
                logs.failed(log, f"match {self.meta.id}: a take-back could not be stored", exc)
                match.sealed[seat] = own  # still stored: it stands
                why = _("the server could not store the undo; nothing changed")
            message = protocol.error(why)
        else:
            message = sealed.undone(seat)
        for connection in list(self.connections):
            if connection.seat == seat:
                await connection.send(message)
        await self.broadcast()
        self.arm_clock()
        if self.sharing is not None:
            self.sharing.changed(self)

    async def answer_undo(self, connection: Connection, agree: bool) -> None:
        async with self.lock:
            request = self.undo_request
            if request is None or connection.seat not in request.waiting:
                await connection.send(protocol.error(_("no undo request is waiting for you")))
                return
            if request.origin is not None and self.sharing is not None:  # asked elsewhere
                self.sharing.publish(
                    notices.undo_answered(self.meta.id, request.origin, connection.seat, agree)
                )
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
            self.sharing.publish(notices.undo_result(self.meta.id, message))

    async def undo_notice(self, notice: JSON) -> None:
        """Another server's undo request, an answer to this server's, or a result
        (:mod:`tabletop.web.notices`)."""
        kind, message = notice.get("k"), notice.get("r")
        async with self.lock:
            request = self.undo_request
            if kind == notices.UNDO_ASKED and isinstance(message, dict):
                self.undo_request = UndoRequest(
                    int(message["by"]), int(message["number"]), int(message["count"]),
                    {int(w) for w in message["waiting"]}, str(notice.get("o")),
                )  # fmt: skip
                await self.send_all(message)
            elif kind == notices.UNDO_ANSWERED and request is not None and request.origin is None:
                assert self.sharing is not None
                seat = notice.get("seat")
                if notice.get("o") == self.sharing.server and seat in request.waiting:
                    await self._answered(request, int(seat), bool(notice.get("agree")))
            elif kind == notices.UNDO_RESULT and request is not None and request.origin is not None:
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

    def undo_asked_here(self) -> JSON | None:
        """The ``undo-request`` message of a request asked on this server and still
        waiting (None: none, or asked elsewhere)."""
        request = self.undo_request
        if request is None or request.origin is not None:
            return None
        return self._undo_message(request)

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
        entry = self.chat.message(seat, self.name_of(connection), text)
        try:
            await self.db.submit(chat.insert(self.meta.id, entry))
        except Exception as exc:
            logs.failed(log, f"match {self.meta.id}: a chat message could not be stored", exc)
            self.chat.messages.remove(entry)
            await connection.send(protocol.error(_("the server could not store the message")))
            return
        text_out = json.dumps(entry, ensure_ascii=False)
        mine = json.dumps({**entry, "mine": True}, ensure_ascii=False)
        for other in list(self.connections):
            other.post(mine if other is connection else text_out)
        if self.sharing is not None:
            self.sharing.chat(self, entry)


def seat_of(meta: StoredMatch, token: str | None) -> Any:
    """The seat whose token is ``token`` (constant-time compare), else None."""
    import secrets

    if not token:
        return None
    for row in meta.seats:
        if row.token is not None and secrets.compare_digest(row.token, token):
            return row.seat
    return None

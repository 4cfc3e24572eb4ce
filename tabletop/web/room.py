"""One live match on the server, and what its connections ask of it: to join or leave,
to act, and to talk at the table (to ask for an undo or answer one:
:mod:`tabletop.web.room_undo`; to resign or agree a draw: :mod:`tabletop.web.room_endings`;
to choose a name: :mod:`tabletop.web.room_names`).

A room is built in layers, one job each: :mod:`tabletop.web.connection` (one websocket's
outbox), :mod:`tabletop.web.room_base` (state, storage, telling), :mod:`tabletop.web.room_flow`
(the clock, the computer seats, a shared store's changes), :mod:`room_endings
<tabletop.web.room_endings>`, :mod:`room_names <tabletop.web.room_names>`, :mod:`room_undo
<tabletop.web.room_undo>` and this module.
"""

from __future__ import annotations

import contextlib
import json
from typing import Any

from tabletop.core.errors import ActionError
from tabletop.game import JSON
from tabletop.web import chat, logs, protocol, store
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
from tabletop.web.room_undo import RoomUndo
from tabletop.web.store import Stale, StoredMatch

ATTEMPTS = 3  # times a sealed choice is entered again when another's was stored first

__all__ = [
    "FAN_OUT_CHUNK", "FAN_OUT_PAUSE", "OUTBOX_MOST", "PRESENCE_EVERY", "RETRY_FIRST",
    "RETRY_MOST", "SPECTATORS_EVERY", "Connection", "Room", "UndoRequest", "fan_out",
    "seat_of",
]  # fmt: skip


class Room(RoomUndo):
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

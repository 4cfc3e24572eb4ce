"""What a connection asks of a room about its display name (:mod:`tabletop.web.names`).

A seat's name is stored (table ``names``) before anyone is told, then everyone is sent
the players list (``presence``, with ``names``) and the other servers of a shared store a
notice; a spectator's name lives with its connection. A refusal changes nothing and is
told to the asker alone (an ``error`` about ``name``).
"""

from __future__ import annotations

import json
import time

from tabletop.game import JSON
from tabletop.web import logs, names, notices, protocol
from tabletop.web.connection import Connection
from tabletop.web.room_base import _, log
from tabletop.web.room_endings import RoomEndings
from tabletop.web.store import Stale


class RoomNames(RoomEndings):
    """A served match's display names."""

    def name_of(self, connection: Connection) -> str:
        """The name ``connection`` chose ('' if none: the page calls it by its seat)."""
        if connection.seat is None:
            return connection.name
        return self.meta.names.get(connection.seat, "")

    async def rename(self, connection: Connection, text: str) -> None:
        """``connection`` asks to be called ``text``: refused (an error to it, nothing
        changed) or kept, then told."""
        name, seat = names.normalise(text), connection.seat
        async with self.lock:
            others = [n for s, n in self.meta.names.items() if s != seat]
            why = names.refusal(name, others)
            now = time.monotonic()
            changes = name != self.name_of(connection)
            if not why and changes and now - connection.named < names.INTERVAL:
                why = names.TOO_FAST
            if why:
                await connection.send(protocol.error(why, about="name"))
                return
            if not changes:  # the page saying it again (a reconnect)
                await connection.send(protocol.named(seat, name))
                return
            connection.named = now
            if seat is None:
                connection.name = name
                await connection.send(protocol.named(seat, name))
                return
            try:
                await self.db.submit(names.upsert(self.meta.id, seat, name))
            except Stale:  # another server's seat took it first
                await connection.send(protocol.error(names.TAKEN, about="name"))
                return
            except Exception as exc:
                logs.failed(log, f"match {self.meta.id}: a name could not be stored", exc)
                await connection.send(protocol.error(
                    _("the server could not store the name; nothing changed"), about="name"
                ))  # fmt: skip
                return
            self.meta.names[seat] = name
            await connection.send(protocol.named(seat, name))
            self._tell_names()
        if self.sharing is not None:
            self.sharing.publish(notices.named(self.meta.id, seat, name))

    def heard_name(self, notice: JSON) -> None:
        """A seat's name stored by another server (:func:`tabletop.web.notices.named`)."""
        seat, name = notice.get("seat"), notice.get("name")
        if not isinstance(seat, int) or not isinstance(name, str):
            return
        if not 1 <= seat <= self.meta.players:
            return
        if names.normalise(name) != name or len(name) > names.MOST:
            return
        self.meta.names[seat] = name
        self._tell_names()

    def _tell_names(self) -> None:
        """Every connection the players list now (names are rare: not coalesced)."""
        text = json.dumps(protocol.presence(self.presence()), ensure_ascii=False)
        for connection in list(self.connections):
            connection.post(text)

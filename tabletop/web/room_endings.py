"""What a connection asks of a room to end a match before the rules do: to resign, to
offer a draw and to answer one (the rules of it are the table's:
:meth:`~tabletop.core.table.Table.resign`, ``offer_draw``, ``answer_draw``).

A resignation or a draw agreed is stored like a loss on time (``store.forfeit`` with its
``ending``) before anyone is told, so a restarted server shows the same end. A draw
offer is a question, not a change: it is told in every ``position`` (``draw``) and not
stored; it lapses when anyone but its offerer acts, at an undo, or when the server
restarts. The move clock runs on while it waits.
"""

from __future__ import annotations

from tabletop.core.i18n.text import message_of
from tabletop.core.table import TableRefused
from tabletop.web import protocol
from tabletop.web.connection import Connection
from tabletop.web.room_base import _
from tabletop.web.room_flow import RoomFlow
from tabletop.web.store import Stale


class RoomEndings(RoomFlow):
    """A served match's resignations and draw offers."""

    async def resign(self, connection: Connection) -> None:
        """``connection``'s seat resigns: stored, then everyone is told the end."""
        async with self.lock:
            seat = await self._person(connection, _("spectators cannot resign"))
            if seat is None:
                return
            try:
                self.table.resign(seat)
            except TableRefused as exc:
                await connection.send(protocol.error(message_of(exc)))
                return
            await self._ended(connection)

    async def offer_draw(self, connection: Connection) -> None:
        """``connection``'s seat offers a draw: told to everyone in their position, or
        declined at once by a computer seat."""
        async with self.lock:
            seat = await self._person(connection, _("spectators cannot offer a draw"))
            if seat is None:
                return
            try:
                standing = self.table.offer_draw(seat)
            except TableRefused as exc:
                await connection.send(protocol.error(message_of(exc)))
                return
            if not standing:
                computer = min(self.table.computers)
                said = _("{player} (computer) declines the draw; play on",
                         player=self.table.name(computer))  # fmt: skip
                await self.send_all(protocol.draw_declined(seat, computer, said))
            await self.broadcast()

    async def answer_draw(self, connection: Connection, accept: bool) -> None:
        """``connection``'s seat answers the draw offered; the last yes ends the match."""
        async with self.lock:
            seat = await self._person(connection, _("spectators cannot answer a draw offer"))
            offer = self.table.offer
            if seat is None:
                return
            try:
                agreed = self.table.answer_draw(seat, accept)
            except TableRefused as exc:
                await connection.send(protocol.error(message_of(exc)))
                return
            if agreed:
                await self._ended(connection)
                return
            if not accept and offer is not None:
                said = _("{player} declines the draw; play on", player=self.table.name(seat))
                await self.send_all(protocol.draw_declined(offer.offerer, seat, said))
            await self.broadcast()

    async def _person(self, connection: Connection, spectator: str) -> int | None:
        """``connection``'s seat, or None once it was told why it may not (a spectator,
        a damaged match)."""
        if connection.seat is None:
            await connection.send(protocol.error(spectator))
            return None
        if self.damage:
            await connection.send(protocol.error(self.damaged()))
            return None
        return connection.seat

    async def _ended(self, connection: Connection) -> None:
        """Store the end (the lock held), then tell everyone; if the store refuses it, it
        is taken back and ``connection`` is told why."""
        if not await self._stored():
            if isinstance(self._refused, Stale):  # another server changed the match first
                await self._adopt_stored()
            said = _("the server could not store the end of the match; nothing changed")
            await connection.send(protocol.error(said))
            return
        await self._after_change()

"""Several servers sharing every match (``--db postgresql://… --bus redis://…``).

Each server's rooms are caches of the stored matches. The store is the truth and orders
each match's actions (:class:`~tabletop.web.store.Stale` refuses a second action at a
number); after a commit the server publishes a notice of the match's new position
(:mod:`tabletop.web.bus`: the match, its number and undo count, never a view), and every
other server holding that match reads the store and tells its own connections their own
views. A notice lost (Redis down) is made up for by reading the store every
:data:`~tabletop.web.bus.RECHECK` seconds and at every reconnect: positions may come
late, never lost nor stale.

Computer seats think on one server at a time: the one holding the match's lease in the
store (:data:`LEASE` seconds, renewed while it thinks); when it dies, the lease runs out
and another server's next check takes it over. The computer's action is stored at its
number like anyone's, so it is applied once whichever server thought.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import socket
import time
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any, Protocol

from tabletop.game import JSON
from tabletop.web import chat, logs, notices
from tabletop.web.store_records import CHAT_OF

if TYPE_CHECKING:
    from tabletop.web.bus import Bus, Notice
    from tabletop.web.room import Room
    from tabletop.web.room_base import RoomBase
    from tabletop.web.store import MatchStore, Unserved

log = logging.getLogger("tabletop.web")

LEASE = 4.0  # seconds a server's hold on a match's computer seats lasts unless renewed
RECHECK = 1.0  # seconds between two readings of every match's position in the store
RECENT = 3600.0  # seconds a finished match is still read (a rematch link may come late)
PRESENCE_RENEW = 10.0  # seconds between two writes of a room's presence counts


class Served(Protocol):
    """What the sharing asks of this server's matches (:class:`tabletop.web.hub.Hub` is
    it)."""

    rooms: dict[str, Room]
    unserved: list[Unserved]

    def store(self) -> MatchStore: ...

    async def load(self, match_id: str) -> Room | None: ...

    async def announce_rematch(self, room: Room) -> None: ...


class Sharing:
    """One server's part in a group of servers sharing a store (and a bus)."""

    def __init__(self, hub: Served, bus_url: str | None) -> None:
        self.hub = hub
        self.server = f"{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(3)}"
        self.bus: Bus | None = None
        if bus_url:
            from tabletop.web.bus import Bus

            self.bus = Bus(bus_url, self.server, self.notice, self.recheck_soon)
        self._tasks: set[asyncio.Task[Any]] = set()
        self._loop: asyncio.Task[None] | None = None
        self._wake = asyncio.Event()
        self._syncing: dict[str, asyncio.Task[None]] = {}
        self._again: set[str] = set()  # changed again while being read: read once more
        self._outbox: asyncio.Queue[JSON] = asyncio.Queue()  # notices, sent in order
        self._sender: asyncio.Task[None] | None = None

    # -- life ----------------------------------------------------------------------------
    def open(self) -> None:
        if self.bus is not None:
            self.bus.open()
        self._loop = asyncio.create_task(self._recheck_forever())
        if self.bus is not None:
            self._sender = asyncio.create_task(self._send_forever(self.bus))

    async def close(self) -> None:
        for loop in (self._loop, self._sender):
            if loop is not None:
                loop.cancel()
        for task in list(self._tasks):
            task.cancel()
        for room in list(self.hub.rooms.values()):
            with contextlib.suppress(Exception):
                await self.hub.store().release(room.meta.id, self.server)
        if self.bus is not None:
            await self.bus.close()

    def spawn(self, work: Any) -> None:
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # -- telling the others ----------------------------------------------------------------
    def publish(self, notice: JSON) -> None:
        """Send ``notice`` to the other servers, after every notice published before it
        (one sender: notices of one match arrive in the order they were made)."""
        if self.bus is not None:
            self._outbox.put_nowait(notice)

    async def _send_forever(self, bus: Bus) -> None:
        while True:
            batch = [await self._outbox.get()]
            while not self._outbox.empty():  # every notice waiting, in one round trip
                batch.append(self._outbox.get_nowait())
            try:
                await bus.publish(*batch)  # best effort: the store is read again anyway
            except Exception as exc:
                logs.failed(log, "a notice could not be sent", exc)

    def changed(self, room: RoomBase) -> None:
        """``room``'s match changed in the store (an action, undo, loss on time, claim)."""
        number, undos = len(room.table.match.actions), room.meta.undos
        self.publish(notices.changed(room.meta.id, number, undos))

    def chat(self, room: RoomBase, entry: JSON) -> None:
        """A chat message (text every connection of the match reads)."""
        self.publish(notices.chat(room.meta.id, entry))

    def presence(self, room: RoomBase) -> None:
        """This server's connections of ``room`` changed: write its counts, tell."""
        if self.bus is None:
            return
        bus, match_id, counts = self.bus, room.meta.id, room.counts()

        async def work() -> None:
            await bus.set_presence(match_id, counts)
            await bus.publish(notices.presence(match_id))

        self.spawn(work())

    # -- hearing from them -----------------------------------------------------------------
    def notice(self, notice: Notice) -> None:
        kind, match_id = notice.get("k"), notice.get("m")
        if not isinstance(match_id, str):
            return
        room = self.hub.rooms.get(match_id)
        if kind == notices.CHANGED:
            self.sync(match_id)
        elif kind == notices.CHAT and room is not None and isinstance(notice.get("e"), dict):
            room.hear(notice["e"])  # once: the store's copy may have come first
        elif kind == notices.NAMED and room is not None:
            room.heard_name(notice)
        elif kind == notices.PRESENCE and room is not None:
            self.spawn(self._their_presence(room))
        elif kind in notices.UNDO_KINDS and room is not None:
            self.spawn(room.undo_notice(notice))

    async def _their_presence(self, room: Room) -> None:
        if self.bus is not None:
            room.remote = await self.bus.presence(room.meta.id)
            room.presence_changed()

    def sync(self, match_id: str) -> None:
        """Read ``match_id`` from the store soon (once, however many notices came; once
        more after a reading under way, which may have read it before this change)."""
        if match_id in self._syncing:
            self._again.add(match_id)
            return
        self._syncing[match_id] = asyncio.create_task(self._sync(match_id))

    async def _sync(self, match_id: str) -> None:
        try:
            room = self.hub.rooms.get(match_id)
            if room is None:
                await self.hub.load(match_id)
            else:
                before = room.meta.rematch
                if not await room.sync():  # withdrawn by the server that made it
                    self.hub.rooms.pop(match_id, None)
                    room.close()
                    return
                if before is None and room.meta.rematch is not None:
                    await self.hub.announce_rematch(room)
                await self.hear_stored(room)
        except Exception as exc:
            logs.failed(log, f"match {match_id} could not be read from the store", exc)
        finally:
            self._syncing.pop(match_id, None)
            if match_id in self._again:
                self._again.discard(match_id)
                self.sync(match_id)

    async def hear_stored(self, room: Room) -> None:
        """The chat messages the store holds for ``room`` and its connections have not
        been sent (their notices lost while the bus was away), sent now, in order."""
        rows = await self.hub.store().rows(CHAT_OF, (room.meta.id,))
        if len(rows) == len(room.chat.messages):
            return
        for entry in chat.from_rows(([], rows)).get(room.meta.id, chat.Chat()).messages:
            room.hear(entry)  # kept and sent once: a message already heard is skipped

    def recheck_soon(self) -> None:
        """Read every match's position now (the bus came back: notices may be lost), and
        say again what the others may have missed (:meth:`reannounce`)."""
        self._wake.set()
        self.reannounce()

    def reannounce(self) -> None:
        """Each room's presence written again (a seat that left while the bus was away
        is no longer shown online elsewhere) and each undo request asked here published
        again (the other servers' players can answer it)."""
        for room in list(self.hub.rooms.values()):
            if room.meta.status == "ongoing":  # its counts here, none if all left
                self.presence(room)
            asked = room.undo_asked_here(self.server)
            if asked is not None:
                self.publish(asked)

    async def _recheck_forever(self) -> None:
        renewed = asyncio.get_running_loop().time()
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), RECHECK)
            self._wake.clear()
            try:
                await self.recheck()
            except Exception as exc:  # the store away for a moment: the next check
                log.warning("the shared store could not be read: %s", exc)
            now = asyncio.get_running_loop().time()
            if now - renewed > PRESENCE_RENEW:
                renewed = now
                for room in list(self.hub.rooms.values()):
                    if room.connections:
                        self.presence(room)

    async def recheck(self) -> None:
        """Every stored match that can still change (ongoing, or touched in the last
        :data:`RECENT` seconds) against its room: unknown ones loaded, changed ones read;
        a computer seat to act or a clock run out is taken up by this server if no other
        holds it."""
        marks = await self.hub.store().positions(time.time() - RECENT)
        unserved = {u.id for u in self.hub.unserved}
        for match_id, mark in marks.items():
            room = self.hub.rooms.get(match_id)
            if room is None:
                if match_id not in unserved:
                    self.sync(match_id)
            elif room.mark() != mark:
                self.sync(match_id)
            else:
                room.start_computers()
                room.ring_if_due()

    async def discover(self) -> None:
        """Load every stored match this server has not met yet (another server made it),
        and wait for them: the lobby lists every match, whichever server is asked."""
        marks = await self.hub.store().positions(time.time() - RECENT)
        unserved = {u.id for u in self.hub.unserved}
        for match_id in marks:
            if match_id not in self.hub.rooms and match_id not in unserved:
                await self.hub.load(match_id)

    # -- the computer seats' lease -----------------------------------------------------------
    async def lead(self, match_id: str) -> bool:
        """Take or renew this server's lease of ``match_id``'s computer seats."""
        try:
            return await self.hub.store().lease(match_id, self.server, LEASE)
        except Exception as exc:
            log.warning("the lease of match %s could not be taken: %s", match_id, exc)
            return False

    @contextlib.asynccontextmanager
    async def leading(self, match_id: str) -> AsyncIterator[None]:
        """Renew the lease every third of :data:`LEASE` while the body runs (thinking)."""

        async def renew() -> None:
            while True:
                await asyncio.sleep(LEASE / 3)
                await self.lead(match_id)

        task = asyncio.create_task(renew())
        try:
            yield
        finally:
            task.cancel()

"""What moves a served match on without a connection asking: the move clock, the
computer seats, and (on a store shared with other servers) the others' changes.

Computer seats think in worker processes (:mod:`tabletop.web.thinking`). When the
database refuses a computer's action, the room tries again later
(:data:`~tabletop.web.room_base.RETRY_FIRST` seconds, doubling up to
:data:`~tabletop.web.room_base.RETRY_MOST`), so the match goes on once the store accepts
writes again, without a restart.

On a store shared with other servers (:mod:`tabletop.web.shared`: ``sharing`` is set),
the room is this server's cache of the stored match: an action refused by the store as
stale (another server stored one at that number first) is taken back and the room reads
the store (:meth:`RoomFlow.sync`); every commit is announced to the other servers; the
computer seats think only while this server holds their lease; the clock is the stored
deadline and its ring is stored at its position number, so a game ends on time once.
"""

from __future__ import annotations

import asyncio
import time

from tabletop.core.errors import TabletopError
from tabletop.web import logs, protocol, sealed, store, undo_requests
from tabletop.web.catchup import catch_up
from tabletop.web.room_base import RETRY_FIRST, RETRY_MOST, RoomBase, _, log
from tabletop.web.store import Mark, Stale, StoredMatch
from tabletop.web.thinking import Job


class RoomFlow(RoomBase):
    """A served match's clock, computer seats and other servers' changes."""

    async def _after_change(self) -> None:
        """Commit, drop an undo request made moot (an action, an undo, the end), tell
        everyone, re-arm the clock."""
        await self._commit()
        request, match = self.undo_request, self.table.match
        if request is not None and (
            request.number != len(match.actions) or match.outcome() is not None
        ):  # its stored row went in the same step
            self.undo_request = None
            if self._undo_timer is not None:
                self._undo_timer.cancel()
                self._undo_timer = None
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
        request = self.undo_request
        asked = None if request is None else request.asked
        waiting = None if request is None else undo_requests.waiting_text(request.waiting)
        return (len(match.actions), meta.undos, status, forfeit, len(meta.claimed),
                meta.rematch, sealed.mask(match), len(self.chat.messages), asked,
                waiting)  # fmt: skip

    async def sync(self) -> bool:
        """Read the match from the store and become it (another server changed it);
        False when the store holds it no more (withdrawn: a rematch that lost a race)."""
        async with self.lock:
            found = await self._adopt_stored()
        if found:
            self.start_computers()
        return found

    async def _adopt_stored(self) -> bool:
        stored = await self.db.load(self.meta.id)
        if stored is not None:
            await self._adopt(stored)
        return stored is not None

    async def _adopt(self, stored: StoredMatch) -> None:
        """Become ``stored`` (under the lock) and tell this server's connections."""
        try:
            result = catch_up(self.table.match, stored, self.meta.undos)
        except TabletopError as exc:
            log.error("match %s: the stored match does not replay here: %s", self.meta.id, exc)
            return
        meta = self.meta
        undos = meta.undos  # before: an undo carried out elsewhere answers a request here
        self._seen = len(stored.actions)
        self._sealed_rows = sealed.texts(result.match)
        self._sealed_next = dict(self._sealed_rows)
        if result.replayed:
            self.table.match = result.match
            self._told.clear()
            self._undos += 1
        self._log_from = min(self._log_from, result.first)
        self._watch_log_from = min(self._watch_log_from, result.first)
        claimed = stored.claimed - meta.claimed
        meta.claimed |= stored.claimed
        meta.undos, meta.rematch = stored.undos, stored.rematch
        renamed = stored.names != meta.names  # a name whose notice was lost
        meta.names = dict(stored.names)
        meta.status = "ongoing" if self.table.match.outcome() is None else "over"
        clock = self.table.deadline
        if self.table.move_time:
            self.table.deadline = stored.deadline
            self._hold_clock()
            if self._clock_unstarted(stored):
                await self._start_clock()
        await self._adopt_undo(stored, undos)
        if result.changed or claimed or renamed or clock != self.table.deadline:
            self.updated = self.active = time.time()
            await self.broadcast()
            self.arm_clock()

    async def _adopt_undo(self, stored: StoredMatch, undos: int) -> None:
        """The stored undo request made this room's, the one gone told
        (:class:`tabletop.web.room_undo.RoomUndo` does it)."""

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

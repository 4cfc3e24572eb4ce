"""What a connection asks of a room about undoing: to ask for an undo (one's own sealed
choice is taken back at once) and to answer the others' request.

A request waiting is stored (:mod:`tabletop.web.undo_requests`) before anyone is told,
and so is each answer: the server an answer comes to writes it, and the last agreement
carries the undo out there, whichever server the request was asked on. A request that
nobody answers within :func:`~tabletop.web.undo_requests.expiry` seconds lapses (its
asker is told). Servers sharing the store tell one another of a request and its result
on the bus (:mod:`tabletop.web.notices`); when a notice is lost, a room reading the
store (:meth:`RoomUndo._adopt_undo`) takes the request it finds there, or tells the
result of the one gone.
"""

from __future__ import annotations

import asyncio
import contextlib
import time

from tabletop.game import JSON
from tabletop.web import logs, notices, protocol, sealed, undo_requests
from tabletop.web.connection import Connection
from tabletop.web.room_base import RETRY_MOST, UndoRequest, _, log
from tabletop.web.room_names import RoomNames
from tabletop.web.store import Stale, StoredMatch


class RoomUndo(RoomNames):
    """A served match's undo requests."""

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
                await connection.send(protocol.error(self._busy(seat)))
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
            number = len(self.table.match.actions)
            request = UndoRequest(seat, number, plan.count, others, None, time.time())
            if not others:
                await self._carry_out(request)
                return
            try:  # stored before anyone is told
                await self.db.submit(undo_requests.asked(
                    self.meta.id, seat, number, self.meta.undos, plan.count, others,
                    request.asked,
                ))  # fmt: skip
            except Stale:  # another server's request came first, or the match moved on
                with contextlib.suppress(Exception):
                    await self._adopt_stored()
                why = (
                    self._busy(seat) if self.undo_request is not None
                    else _("cannot undo: {reason}", reason=_("the match moved on"))
                )  # fmt: skip
                await connection.send(protocol.error(why))
                return
            except Exception as exc:
                logs.failed(log, f"match {self.meta.id}: an undo request could not be stored", exc)
                await connection.send(protocol.error(
                    _("the server could not store the undo request; nothing changed")
                ))  # fmt: skip
                return
            self.undo_request = request
            await self._tell_request(request)
            self.arm_undo()

    def _busy(self, seat: int) -> str:
        assert self.undo_request is not None
        by = self.undo_request.by
        if by == seat:
            return _(
                "an undo request is already waiting (asked by you); it must be answered first"
            )
        return _(
            "an undo request is already waiting (asked by player {n}); "
            "it must be answered first",
            n=by,
        )

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
        """``connection``'s seat answers the request waiting: stored (here, whichever
        server it was asked on), then told; the last agreement carries the undo out."""
        seat = connection.seat
        async with self.lock:
            request = self.undo_request
            if request is None or seat is None or seat not in request.waiting:
                await connection.send(protocol.error(_("no undo request is waiting for you")))
                return
            left = request.waiting - {seat}
            mid = self.meta.id
            try:
                await self.db.submit(
                    undo_requests.agreed(mid, request.asked, left) if agree and left
                    else undo_requests.settled(mid, request.asked)
                )  # fmt: skip
            except Stale:  # answered, lapsed or moot meanwhile (another server): as stored
                with contextlib.suppress(Exception):
                    await self._adopt_stored()
                if self.undo_request is request:
                    await connection.send(protocol.error(_("no undo request is waiting for you")))
                return
            except Exception as exc:
                logs.failed(log, f"match {mid}: an answer to an undo could not be stored", exc)
                await connection.send(protocol.error(
                    _("the server could not store the answer; nothing changed")
                ))  # fmt: skip
                return
            if agree and left:
                request.waiting = left
                await self._tell_request(request)  # who is still waited for
                return
            self._drop_request()
            if not agree:
                declined = protocol.undo_declined(request.by, _("player {n} declined", n=seat))
                await self._undo_told(declined, request)
                return
            await self._carry_out(request)

    async def _tell_request(self, request: UndoRequest) -> None:
        """The request to every connection, and to the other servers."""
        message = self._undo_message(request)
        await self.send_all(message)
        if self.sharing is not None:
            origin = request.origin or self.sharing.server
            self.sharing.publish(notices.undo_asked(self.meta.id, origin, message, request.asked))

    async def _undo_told(self, message: JSON, request: UndoRequest) -> None:
        """An undo's result to everyone, on the other servers too."""
        await self.send_all(message)
        if self.sharing is not None:
            self.sharing.publish(notices.undo_result(self.meta.id, message, request.asked))

    async def _carry_out(self, request: UndoRequest) -> None:
        self._drop_request()
        plan = self.table.undo_plan(request.by)
        if plan.refusal or plan.count != request.count:
            reason = plan.refusal or _("the match moved on")
            await self._undo_told(protocol.undo_declined(request.by, reason), request)
            return
        self.table.undo(request.by)
        try:
            await self._commit()  # stored before anyone is told
        except Exception as exc:  # another server acted or undid first, or the store failed
            if not isinstance(exc, Stale):
                logs.failed(log, f"match {self.meta.id}: an undo could not be stored", exc)
            with contextlib.suppress(Exception):
                await self._adopt_stored()  # the stored match, as it is
            declined = protocol.undo_declined(request.by, _("the match moved on"))
            await self._undo_told(declined, request)
            return
        await self._undo_told(protocol.undo_done(request.by, plan.count), request)
        await self._after_change()
        self.start_computers()

    def _drop_request(self) -> None:
        self.undo_request = None
        if self._undo_timer is not None:
            self._undo_timer.cancel()
            self._undo_timer = None

    # -- the lapse -----------------------------------------------------------------------
    def arm_undo(self) -> None:
        """Lapse the request waiting once its time is up (counted from when it was asked:
        a restart does not give it more)."""
        if self._undo_timer is not None:
            self._undo_timer.cancel()
            self._undo_timer = None
        request = self.undo_request
        if request is not None:
            delay = max(0.0, request.asked + undo_requests.expiry() - time.time())
            self._undo_timer = asyncio.create_task(self._lapse(request, delay))

    async def _lapse(self, request: UndoRequest, delay: float) -> None:
        await asyncio.sleep(delay)
        async with self.lock:
            if self.undo_request is not request:
                return
            self._undo_timer = None
            try:
                await self.db.submit(undo_requests.settled(self.meta.id, request.asked))
            except Stale:  # answered, moot, or lapsed on another server: as stored
                with contextlib.suppress(Exception):
                    await self._adopt_stored()
                return
            except Exception as exc:  # the store away: try again later
                logs.failed(log, f"match {self.meta.id}: a lapsed undo request stays", exc)
                self._undo_timer = asyncio.create_task(self._lapse(request, RETRY_MOST))
                return
            self.undo_request = None
            lapsed = protocol.undo_declined(request.by, undo_requests.lapsed())
            await self._undo_told(lapsed, request)

    # -- other servers -------------------------------------------------------------------
    async def undo_notice(self, notice: JSON) -> None:
        """Another server's undo request (or its answers so far), or a result
        (:mod:`tabletop.web.notices`); the store is read too, so either may come first."""
        kind, message, asked = notice.get("k"), notice.get("r"), notice.get("t")
        if not isinstance(message, dict) or not isinstance(asked, int | float):
            return
        async with self.lock:
            mine = self.undo_request
            if kind == notices.UNDO_RESULT:
                if mine is not None and mine.asked == asked:
                    self._drop_request()
                    await self.send_all(message)
                return
            try:
                request = UndoRequest(
                    int(message["by"]), int(message["number"]), int(message["count"]),
                    {int(w) for w in message["waiting"]}, str(notice.get("o")), float(asked),
                )  # fmt: skip
            except (KeyError, TypeError, ValueError):
                return
            if request.number != len(self.table.match.actions):
                return  # of another position: the store says what stands
            if mine is not None and mine.asked == asked:
                if mine.waiting == request.waiting:
                    return  # said again (the bus came back)
                mine.waiting = request.waiting
                await self.send_all(message)
                return
            if mine is not None and mine.asked > asked:
                return
            self.undo_request = request
            await self.send_all(message)
            self.arm_undo()

    async def _adopt_undo(self, stored: StoredMatch, undos: int) -> None:
        """The stored request made this room's (its notice lost, or this server new to
        it); the one this room held and the store no longer does is told as ended: done
        (an undo carried out elsewhere), moot, lapsed or declined (``undos``: this room's
        count before reading ``stored``)."""
        mine, theirs = self.undo_request, stored.undo
        if mine is not None and (theirs is None or theirs.asked != mine.asked):
            self._drop_request()
            await self.send_all(self._request_ended(mine, stored, undos))
            mine = None
        if theirs is None or self.damage:
            return
        if mine is not None and mine.waiting == set(theirs.waiting):
            return
        origin = mine.origin if mine is not None else "store"
        request = UndoRequest(
            theirs.seat, theirs.number, theirs.count, set(theirs.waiting), origin, theirs.asked
        )
        self.undo_request = request
        await self.send_all(self._undo_message(request))
        self.arm_undo()

    def _request_ended(self, request: UndoRequest, stored: StoredMatch, undos: int) -> JSON:
        """The result of ``request``, gone from the store, as far as the store tells it."""
        left = len(stored.actions)
        if stored.undos > undos and left == request.number - request.count:
            return protocol.undo_done(request.by, request.count)
        if left != request.number or stored.undos != undos or stored.status != "ongoing":
            return protocol.undo_declined(request.by, _("the match moved on"))
        if time.time() >= request.asked + undo_requests.expiry() - 1:
            return protocol.undo_declined(request.by, undo_requests.lapsed())
        if len(request.waiting) == 1:
            seat = next(iter(request.waiting))
            return protocol.undo_declined(request.by, _("player {n} declined", n=seat))
        return protocol.undo_declined(request.by, _("a player declined"))

    def undo_asked_here(self, server: str) -> JSON | None:
        """The notice of a request asked on this server and still waiting, said again
        when the bus comes back (None: none, or asked elsewhere)."""
        request = self.undo_request
        if request is None or request.origin is not None:
            return None
        message = self._undo_message(request)
        return notices.undo_asked(self.meta.id, server, message, request.asked)

    def _undo_message(self, request: UndoRequest) -> JSON:
        return protocol.undo_request(request.by, request.number, request.count, request.waiting)

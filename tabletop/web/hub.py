"""The server's matches: create (checked like the CLI), load after a restart, list, rematch
(made once, on a player's ``rematch`` message; every connection told its own link).

Every stored match is loaded at start-up by replaying its actions through the checked
path (``Match.from_record``), so a restart resumes each at its last stored action. The
move clock restarts with a full ``move_time`` for the person to act (see ``docs/web.md``).
A match whose stored actions no longer replay is served up to its last good action,
read-only and marked damaged; one whose row cannot be read is listed as not served.
Either way every other match is served.

With ``--db postgresql://…`` several servers share every match (:mod:`.shared`): a match
another server created is loaded from the store when it is first asked for (or seen in
the store's positions), and every room follows the store.

The lobby (:mod:`tabletop.web.lobby`) lists the matches still going and those finished
lately; the others stay in the database and their links keep working. A stored match is
made live again by :mod:`tabletop.web.replay`; the create request is read by
:mod:`tabletop.web.match_request`.
"""

from __future__ import annotations

import logging
import random
import secrets
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tabletop.agents.seat import make_seat
from tabletop.core import flags
from tabletop.core.configured import Configured
from tabletop.core.errors import TabletopError, UsageError, one_line
from tabletop.core.i18n.text import Domain
from tabletop.core.records import Record
from tabletop.core.registry import registry
from tabletop.core.table import Table
from tabletop.game import JSON, Game
from tabletop.web import chat, lobby, open_seats, protocol, sealed, store
from tabletop.web.config import ServerConfig
from tabletop.web.guard import Admission
from tabletop.web.host import host_url
from tabletop.web.match_request import CreateMatch, Refused, SeatSpec, read_body
from tabletop.web.replay import replayed
from tabletop.web.room import Connection, Room
from tabletop.web.store import MatchStore, SeatRow, Stale, Store, StoredMatch, Unserved
from tabletop.web.thinking import Thinkers

if TYPE_CHECKING:
    from tabletop.web.shared import Sharing

__all__ = ["CreateMatch", "Hub", "Refused", "SeatSpec", "read_body"]

log = logging.getLogger("tabletop.web")
_ = Domain("tabletop")


class Hub:
    """All matches of one server and the shared pieces: database, computer players."""

    def __init__(self, db_path: Path | str, config: ServerConfig | None = None) -> None:
        self.db_path = db_path  # a SQLite file, or a postgresql:// URL (shared)
        self.config = config or ServerConfig()
        self.registry = registry()
        self.rooms: dict[str, Room] = {}
        self.unserved: list[Unserved] = []
        self.creators: dict[str, str] = {}  # match id -> the client address that made it
        self.pending: dict[str, int] = {}  # address -> its creates being stored now
        self.thinkers = Thinkers(self.config.ai_workers)
        self.admission = Admission(self.config.limits)
        self.db: MatchStore | None = None
        self.chats: dict[str, chat.Chat] = {}
        self.sharing: Sharing | None = None

    # -- life ----------------------------------------------------------------------------
    async def start(self) -> None:
        """Open the database and load every stored match (with a shared store, also
        join the other servers)."""
        if isinstance(self.db_path, Path):
            self.open()
            return
        from tabletop.web.postgres import PostgresStore
        from tabletop.web.shared import Sharing

        self.db = await PostgresStore(self.db_path).open()
        self.sharing = Sharing(self, self.config.bus)
        self.thinkers.warm()
        matches, self.unserved = await self.db.load_all()
        self.chats = chat.from_rows(await self.db.chat_rows())
        self._serve(matches)
        open_seats.mark(self.rooms, await self.db.rows(open_seats.STILL_OPEN))
        self.sharing.open()

    async def stop(self) -> None:
        if self.sharing is not None:
            await self.sharing.close()
        self.close()
        closing = getattr(self.db, "aclose", None)
        if closing is not None:
            await closing()

    def store(self) -> MatchStore:
        assert self.db is not None, "the hub is not open"
        return self.db

    def open(self) -> None:
        """Open the SQLite file and load every stored match (inside the event loop)."""
        assert isinstance(self.db_path, Path)
        self.db = Store(self.db_path)
        self.thinkers.warm()
        matches, self.unserved = store.load_all(self.db_path)
        self.chats = chat.load_all(self.db_path)
        self._serve(matches)
        open_seats.mark(self.rooms, open_seats.rows_of(self.db_path))

    def _serve(self, matches: list[StoredMatch]) -> None:
        for meta in matches:
            try:
                room = self.rooms[meta.id] = self._room(meta)
            except TabletopError as exc:
                self.unserved.append(Unserved(meta.id, one_line(str(exc))))
                continue
            room.start_computers()
            room.arm_clock()
            room.arm_undo()
        for row in self.unserved:
            log.warning("match %s is not served: %s", row.id, row.reason)

    def close(self) -> None:
        for room in self.rooms.values():
            room.close()
        self.thinkers.close()
        if self.db is not None:
            self.db.close()

    async def find(self, match_id: str) -> Room | None:
        """The room of ``match_id``: served here, or (shared store) loaded from it. The one
        way a request looks a match up (``rooms`` is the hub's own map)."""
        room = self.rooms.get(match_id)
        if room is None and self.sharing is not None:
            room = await self.load(match_id)
        return room

    async def load(self, match_id: str) -> Room | None:
        """Serve a stored match this server has not loaded yet (another server made it)."""
        if match_id in self.rooms:
            return self.rooms[match_id]
        meta = await self.store().load(match_id)
        if meta is None or match_id in self.rooms:
            return self.rooms.get(match_id)
        try:
            room = self._room(meta)
        except TabletopError as exc:
            if all(u.id != match_id for u in self.unserved):
                self.unserved.append(Unserved(meta.id, one_line(str(exc))))
            return None
        chats = chat.from_rows(await self.store().chat_rows())
        room.chat = chats.get(match_id, chat.Chat())
        room.open_seats = await open_seats.open_of(self.store(), match_id)
        if match_id in self.rooms:  # loaded meanwhile
            return self.rooms[match_id]
        self.rooms[match_id] = room
        room.start_computers()
        room.arm_clock()
        room.arm_undo()
        return room

    def _room(self, meta: StoredMatch) -> Room:
        game = self.registry.get(meta.game)
        match, damage = replayed(game, meta, self.store())
        computers = {row.seat: make_seat(game, row.ai) for row in meta.seats if row.ai}
        assert self.db is not None
        # the clock is wall time, stored with each position: a restart or another server
        # keeps the same deadline
        table = Table(match, computers, meta.move_time, clock=time.time)
        if meta.deadline is not None and table.deadline is not None:
            table.deadline = meta.deadline
        room = Room(meta, table, self.db, self.thinkers, damage, self.sharing)
        room.chat = self.chats.pop(meta.id, chat.Chat())
        return room

    # -- creating ------------------------------------------------------------------------
    async def create(self, data: Any, base: str, address: str = "") -> JSON:
        """A new match from a create request by ``address``; TabletopError says what was
        wrong (:class:`Refused` with its HTTP status for a limit or a failing store)."""
        body = read_body(data)
        game = self.registry.get(body.game)
        table = Configured.of(game, body.players, body.options, strict=True)
        players = table.players
        ai = self._seats(game, players, body.seats)
        if len(ai) == players and not self.config.allow_computer_matches:
            raise Refused(
                403,
                _(
                    "a match needs at least one person: this server was not started with "
                    "--allow-computer-matches"
                ),
            )
        if body.move_time is not None and not (
            flags.MOVE_TIME_MIN <= body.move_time <= flags.MOVE_TIME_MAX
        ):
            raise UsageError(
                _(
                    "move_time must be a number of seconds in {low}..{high} "
                    "(as 'tabletop play --move-time'), or null",
                    low=round(flags.MOVE_TIME_MIN),
                    high=round(flags.MOVE_TIME_MAX),
                )
            )
        pending = self.pending.get(address, 0)  # being stored now (a concurrent request)
        status, refusal = self.admission.create_refusal(
            address, self.open_matches(address) + pending,
            self.open_matches() + sum(self.pending.values()),
        )  # fmt: skip
        if refusal:
            raise Refused(status, refusal)
        self.admission.created(address)  # counted before any await: the limit holds
        self.pending[address] = pending + 1
        meta = StoredMatch(
            id=secrets.token_urlsafe(8),
            created=time.time(),
            game=game.info.id,
            game_version=game.info.version,
            players=players,
            options=table.values,
            seed=random.SystemRandom().randrange(2**31),
            seats=[
                SeatRow(s, ai.get(s), None if s in ai else secrets.token_urlsafe(24))
                for s in range(1, players + 1)
            ],
            spectators=body.spectators,
            move_time=body.move_time,
            hints=body.hints,
        )
        left = {spec.seat for spec in body.seats if spec.open}  # open seats (open_seats)
        try:
            links = await self._open_match(meta, base, body.spectator_chat, address, left)
            self.creators[meta.id] = address
        except BaseException:
            self.admission.forget(address)
            raise
        finally:
            self.pending[address] -= 1
            if not self.pending[address]:
                del self.pending[address]
        return links

    def open_matches(self, address: str | None = None) -> int:
        """Ongoing matches still listed (created by ``address``, or all)."""
        now = time.time()
        return sum(
            1
            for match_id, room in self.rooms.items()
            if room.meta.status == "ongoing"
            and self.listed(room, now)
            and (address is None or self.creators.get(match_id) == address)
        )

    def _seats(self, game: Game[Any, Any], players: int, specs: list[SeatSpec]) -> dict[int, str]:
        ai: dict[int, str] = {}
        seen: set[int] = set()
        for spec in specs:
            if not 1 <= spec.seat <= players or spec.seat in seen:
                raise UsageError(
                    _(
                        "seat {seat}: seats are the player numbers 1-{players}, each once",
                        seat=spec.seat,
                        players=players,
                    )
                )
            seen.add(spec.seat)
            if spec.ai is not None and spec.open:
                raise UsageError(
                    _(
                        "seat {seat}: a seat is either a computer's (ai) or open to a "
                        "person, not both",
                        seat=spec.seat,
                    )
                )
            if spec.ai is not None:
                ai[spec.seat] = make_seat(game, spec.ai).level
        return ai

    async def _open_match(
        self, meta: StoredMatch, base: str, talk: bool = False, owner: str = "",
        left: set[int] | None = None,
    ) -> JSON:
        """Set the match up (the rules may refuse it: then nothing is stored), store it,
        serve it; its links. ``talk``: spectators may write in its chat; ``left``: its
        open seats (:mod:`.open_seats`), whose links go to nobody now."""
        assert self.db is not None
        room = self._room(meta)
        room.owner = owner or meta.id  # its computers' time is its creator's
        room.chat.spectators_write = talk
        room.open_seats = set(left or ())
        try:
            talking = chat.open_to_spectators(meta.id) if talk else []
            drawn = sealed.drawn(meta.id, room.table.match, meta.created)  # chance's
            left_open = open_seats.opened(meta.id, left or set())
            await self.db.submit([meta.insert(), *drawn, *talking, *left_open])
        except Exception as exc:  # sqlite3.Error and whatever the disk says
            log.error("a new match could not be stored: %s", exc)
            raise Refused(
                503,
                _(
                    "the server could not store the new match ({reason}); "
                    "nothing was created, try again later",
                    reason=one_line(str(exc)),
                ),
            ) from None
        self.rooms[meta.id] = room
        room.start_computers()
        room.arm_clock()
        if self.sharing is not None:
            self.sharing.changed(room)
        return self.links(meta, base, left or set())

    @staticmethod
    def links(meta: StoredMatch, base: str, left: set[int] | frozenset[int] = frozenset()) -> JSON:
        """The links of a new match; an open seat (in ``left``) as ``{"seat", "open"}``."""
        return {
            "id": meta.id,
            "seats": [
                {"seat": r.seat, "open": True} if r.seat in left else
                {"seat": r.seat, "token": r.token, "url": f"{base}match/{meta.id}?token={r.token}"}
                for r in meta.seats
                if r.token is not None
            ],
            "spectator_url": f"{base}match/{meta.id}" if meta.spectators else None,
            "host_url": host_url(meta, base),
        }

    # -- rematch -------------------------------------------------------------------------
    async def rematch(self, room: Room, base: str) -> JSON:
        """The rematch of a finished match (made once): the same game, seats rotated."""
        old = room.meta
        if old.rematch is None:
            n = old.players
            rows = {r.seat: r for r in old.seats}
            seats = [
                SeatRow(s, rows[(s - 2) % n + 1].ai, None) for s in range(1, n + 1)
            ]  # old seat s sits at s % n + 1
            for row in seats:
                row.token = None if row.ai else secrets.token_urlsafe(24)
            meta = StoredMatch(
                secrets.token_urlsafe(8), time.time(), old.game, old.game_version, n,
                old.options, random.SystemRandom().randrange(2**31), seats, old.spectators,
                old.move_time, hints=old.hints,
            )  # fmt: skip
            await self._open_match(meta, base, room.chat.spectators_write, room.owner)
            try:
                await self.store().submit(store.rematch(old.id, meta.id))
                old.rematch = meta.id
            except Stale:  # another server made the rematch first: that one it is, ours
                await self.store().submit(store.withdraw(meta.id))  # withdrawn, no orphan
                orphan = self.rooms.pop(meta.id, None)
                if orphan is not None:
                    orphan.close()
                    if self.sharing is not None:  # servers that loaded it drop it too
                        self.sharing.changed(orphan)
                stored = await self.store().load(old.id)
                old.rematch = stored.rematch if stored is not None else None
            if self.sharing is not None:
                self.sharing.changed(room)
        new = await self.find(old.rematch) if old.rematch is not None else None
        if new is None:
            raise Refused(503, _("the rematch could not be made; try again"))
        return self.links(new.meta, base)

    async def ask_rematch(self, room: Room, connection: Connection, base: str) -> None:
        """A connection's ``rematch`` message: refused (an error to it) before the game
        is over or for a spectator; else the rematch (made once, however many ask at
        once) and every connection of the old match told its own new link."""
        if room.table.match.outcome() is None:
            await connection.send(protocol.error(_("a rematch is offered once the game is over")))
            return
        if connection.seat is None:
            await connection.send(protocol.error(_("only the players can start a rematch")))
            return
        async with room.lock:  # two players asking at once make one rematch
            links = await self.rematch(room, base)
        new = await self.find(str(links["id"]))
        for other in list(room.connections):  # each its own page's links, never the asker's
            mine = self.links(new.meta, other.base or base) if new is not None else links
            await other.send(protocol.rematch(mine, other.seat, room.meta.players))

    async def announce_rematch(self, room: Room) -> None:
        """Another server made ``room``'s rematch: each connection here its own link."""
        new = await self.find(room.meta.rematch) if room.meta.rematch is not None else None
        if new is None:
            return
        for other in list(room.connections):
            links = self.links(new.meta, other.base)
            await other.send(protocol.rematch(links, other.seat, room.meta.players))

    async def tell_rematch(self, room: Room, connection: Connection, base: str) -> None:
        """A connection joining a match that has a rematch is sent its own new link."""
        new = await self.find(room.meta.rematch) if room.meta.rematch is not None else None
        if new is not None:
            links = self.links(new.meta, base)
            await connection.send(protocol.rematch(links, connection.seat, room.meta.players))

    # -- reading -------------------------------------------------------------------------
    def listed(self, room: Room, now: float) -> bool:
        """Whether the lobby still lists ``room`` (:func:`tabletop.web.lobby.listed`)."""
        return lobby.listed(room, now, self.config)

    def listing(self, page: int = 1, left: dict[str, list[int]] | None = None) -> JSON:
        """One page of the lobby (:func:`tabletop.web.lobby.listing`); ``left``: the open
        seats (:func:`tabletop.web.open_seats.still_open`)."""
        return lobby.listing(self.rooms.values(), self.unserved, self.config, page, left)

    def record(self, room: Room | None, token: str | None) -> str:
        """The save file of a finished match (``room``, as :meth:`find` found it), for a
        seat's token only."""
        from tabletop.web.room import seat_of

        if room is None:
            raise UsageError(_("no such match"))
        if seat_of(room.meta, token) is None:
            raise UsageError(_("the record is given only to a seat's token"))
        if room.table.match.outcome() is None:
            raise UsageError(_("the record is given once the game is over"))
        return self._record_of(room).to_text()

    def _record_of(self, room: Room) -> Record:
        meta = room.meta
        seats = {str(r.seat): r.ai for r in meta.seats if r.ai}
        record = room.table.match.record(seats, meta.move_time)
        chosen = {str(seat): name for seat, name in sorted(meta.names.items())}
        return record.model_copy(update={"names": chosen}) if chosen else record

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

The lobby lists the matches still going and those finished in the last
``lobby_keep`` seconds, a page of :data:`PAGE_SIZE` at a time; a match nobody has played
or visited for ``abandoned_after`` seconds leaves it too. Both stay in the database and
their links keep working.
"""

from __future__ import annotations

import logging
import random
import secrets
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from tabletop.agents.seat import make_seat
from tabletop.core import flags
from tabletop.core import options as opts
from tabletop.core.errors import TabletopError, UsageError, one_line
from tabletop.core.i18n.text import Domain
from tabletop.core.legacy import seeded_chance_of
from tabletop.core.match import Match
from tabletop.core.records import Forfeit, Record
from tabletop.core.registry import registry
from tabletop.core.setup import player_count
from tabletop.core.table import Table
from tabletop.game import JSON, Game
from tabletop.web import chat, protocol, sealed, store
from tabletop.web.config import ServerConfig
from tabletop.web.guard import Admission
from tabletop.web.host import host_url
from tabletop.web.room import Connection, Room
from tabletop.web.store import MatchStore, SeatRow, Stale, Store, StoredMatch, Unserved
from tabletop.web.thinking import Thinkers

if TYPE_CHECKING:
    from tabletop.web.shared import Sharing

log = logging.getLogger("tabletop.web")
_ = Domain("tabletop")
PAGE_SIZE = 100  # matches a page of the lobby's listing


class Refused(TabletopError):
    """A request the server will not carry out now; ``status`` is its HTTP status."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


class SeatSpec(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    seat: int
    ai: str | None = None


class CreateMatch(BaseModel):
    """The body of ``POST /api/matches``: strict, as JSON is typed (``true`` is no number,
    ``1`` no yes)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    game: str = Field(max_length=100)
    players: int | None = None
    options: dict[str, Any] = {}
    seats: list[SeatSpec] = []
    spectators: bool = True
    spectator_chat: bool = False  # may spectators write in the chat (they always read it)
    move_time: float | None = None
    hints: bool | None = None  # the coach's hints (default: on against the computer)


def read_body(data: Any) -> CreateMatch:
    """The create request, or UsageError naming the first bad field."""
    try:
        return CreateMatch.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(p) for p in err["loc"]) or "body"
        raise UsageError(
            _("bad match request: {where}: {reason}", where=where, reason=err["msg"])
        ) from None


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

    def _serve(self, matches: list[StoredMatch]) -> None:
        for meta in matches:
            try:
                room = self.rooms[meta.id] = self._room(meta)
            except TabletopError as exc:
                self.unserved.append(Unserved(meta.id, one_line(str(exc))))
                continue
            room.start_computers()
            room.arm_clock()
        for row in self.unserved:
            log.warning("match %s is not served: %s", row.id, row.reason)

    def close(self) -> None:
        for room in self.rooms.values():
            room.close()
        self.thinkers.close()
        if self.db is not None:
            self.db.close()

    async def find(self, match_id: str) -> Room | None:
        """The room of ``match_id``: served here, or (shared store) loaded from it."""
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
        if match_id in self.rooms:  # loaded meanwhile
            return self.rooms[match_id]
        self.rooms[match_id] = room
        room.start_computers()
        room.arm_clock()
        return room

    def _room(self, meta: StoredMatch) -> Room:
        game = self.registry.get(meta.game)
        match, damage = self._replay(game, meta)
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

    def _replay(self, game: Game[Any, Any], meta: StoredMatch) -> tuple[Match, str]:
        """The match replayed through the checked path, and '' ; or, when a stored action
        no longer replays, the match up to its last good action and why."""
        record = self._record(meta)
        try:
            return Match.from_record(game, record, _("match {id}", id=meta.id)), ""
        except TabletopError as exc:
            damage = one_line(str(exc))
        upgraded = self._upgraded(game, record, meta)
        if upgraded is not None:
            return upgraded, ""
        start = record.model_copy(update={"actions": [], "forfeit": None})
        match = Match.from_record(game, start, _("match {id}", id=meta.id))
        for text in meta.actions:
            try:
                match.play(text)
            except TabletopError:
                break
        log.warning("match %s is damaged, served up to action %d: %s",
                    meta.id, len(match.actions), damage)  # fmt: skip
        return match, damage

    def _upgraded(self, game: Game[Any, Any], record: Record, meta: StoredMatch) -> Match | None:
        """A match stored before its game declared chance steps (its actions hold no
        chance outcome), replayed by the game's legacy facet (:mod:`tabletop.core.legacy`);
        its stored actions are rewritten with the outcomes drawn, so that it goes on as
        any other. None when it is not such a match."""
        if seeded_chance_of(game) is None:
            return None
        try:
            old = record.model_copy(update={"chance": "seed"})
            match = Match.from_record(game, old, _("match {id}", id=meta.id))
        except TabletopError:
            return None
        meta.actions = list(match.texts)
        written = self.store().submit(store.rewritten(meta.id, match.texts))
        written.add_done_callback(lambda done: done.cancelled() or done.exception())
        log.info("match %s was stored before chance steps: its actions now hold them", meta.id)
        return match

    @staticmethod
    def _record(meta: StoredMatch) -> Record:
        return Record(
            game=meta.game,
            game_version=meta.game_version,
            players=meta.players,
            options=meta.options,
            seed=meta.seed,
            actions=list(meta.actions),
            chance="actions",
            seats={str(r.seat): r.ai for r in meta.seats if r.ai},
            move_time=meta.move_time,
            forfeit=Forfeit(player=meta.forfeit) if meta.forfeit else None,
        )

    # -- creating ------------------------------------------------------------------------
    async def create(self, data: Any, base: str, address: str = "") -> JSON:
        """A new match from a create request by ``address``; TabletopError says what was
        wrong (:class:`Refused` with its HTTP status for a limit or a failing store)."""
        body = read_body(data)
        game = self.registry.get(body.game)
        players = player_count(game, body.players)
        options = opts.build(game.info.options, body.options, game.info.id, strict=True)
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
            options=opts.dump(options),
            seed=random.SystemRandom().randrange(2**31),
            seats=[
                SeatRow(s, ai.get(s), None if s in ai else secrets.token_urlsafe(24))
                for s in range(1, players + 1)
            ],
            spectators=body.spectators,
            move_time=body.move_time,
            hints=body.hints,
        )
        try:
            links = await self._open_match(meta, base, body.spectator_chat, address)
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
            if spec.ai is not None:
                ai[spec.seat] = make_seat(game, spec.ai).level
        return ai

    async def _open_match(
        self, meta: StoredMatch, base: str, talk: bool = False, owner: str = ""
    ) -> JSON:
        """Set the match up (the rules may refuse it: then nothing is stored), store it,
        serve it; its links. ``talk``: spectators may write in its chat."""
        assert self.db is not None
        room = self._room(meta)
        room.owner = owner or meta.id  # its computers' time is its creator's
        room.chat.spectators_write = talk
        try:
            talking = chat.open_to_spectators(meta.id) if talk else []
            drawn = sealed.drawn(meta.id, room.table.match, meta.created)  # chance's
            await self.db.submit([meta.insert(), *drawn, *talking])
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
        return self.links(meta, base)

    @staticmethod
    def links(meta: StoredMatch, base: str) -> JSON:
        return {
            "id": meta.id,
            "seats": [
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
            except Stale:  # another server made the rematch first: that one it is
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
        """Whether the lobby still lists ``room``: going on and not abandoned, or finished
        less than ``lobby_keep`` seconds ago."""
        if room.meta.status == "over":
            return now - room.updated < self.config.lobby_keep
        return bool(room.connections) or now - room.active < self.config.abandoned_after

    def listing(self, page: int = 1) -> JSON:
        """One page of the lobby's list of matches (newest first): no tokens, nothing
        hidden; damaged and unserved matches say why."""
        now = time.time()
        rooms = [r for r in self.rooms.values() if self.listed(r, now)]
        rooms.sort(key=lambda r: -r.meta.created)
        pages = max(1, -(-len(rooms) // PAGE_SIZE))
        if not 1 <= page <= pages:
            raise UsageError(
                _(
                    "page {page} does not exist: the listing has pages 1-{pages}",
                    page=page,
                    pages=pages,
                )
            )
        shown = rooms[(page - 1) * PAGE_SIZE : page * PAGE_SIZE]
        return {
            "matches": [self._row(room) for room in shown],
            "page": page,
            "pages": pages,
            "per_page": PAGE_SIZE,
            "total": len(rooms),
            "unserved": [{"id": u.id, "reason": u.reason} for u in self.unserved],
        }

    @staticmethod
    def _row(room: Room) -> JSON:
        meta = room.meta
        online = room.online()
        return {
            "id": meta.id,
            "game": meta.game,
            "players": meta.players,
            "status": meta.status,
            "damaged": room.damage or None,
            "number": len(room.table.match.actions),
            "spectators": meta.spectators,
            "move_time": meta.move_time,
            "seats": [
                {
                    "seat": r.seat,
                    "kind": "computer" if r.ai else "person",
                    "level": r.ai,
                    "free": r.ai is None and r.seat not in meta.claimed,
                    "online": r.seat in online,
                }
                for r in meta.seats
            ],
        }

    def record(self, match_id: str, token: str | None) -> str:
        """The save file of a finished match, for a seat's token only."""
        from tabletop.web.room import seat_of

        room = self.rooms.get(match_id)
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
        return room.table.match.record(seats, meta.move_time)

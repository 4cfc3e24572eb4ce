"""The coach in the browser: a hint for the seat to act and the review of a finished match.

Routes (added to the app by :func:`coach_routes`):

- ``GET /api/matches/{id}/coach?token=``: ``{"hints": bool, "over": bool, "seat": N}``,
  what the page may offer this seat;
- ``GET /api/matches/{id}/hint?token=``: for the seat to act, when the match allows
  hints: ``{"text", "actions": [{"action", "chance", "exact", "value", "why"}]}``, judged
  from that seat's view only (:mod:`tabletop.coach`);
- ``GET /api/matches/{id}/review?token=&level=``: once the match is over, for a seat's
  token (as the record is): the review of ``tabletop review --json --as SEAT`` read as
  that seat: every action, judged (in a game with hidden cards only its own: another
  player's would rest on cards it never saw, so it is ``unseen``, as told then) plus
  ``positions``, the ``position`` message before each action as that seat saw it, and
  ``final``, the position after the last one;
- ``/match/{id}/review``: the review page (``static/review.html``, ``review.js``): an
  evaluation chart with axes and its data as a table, every action stepped through (the
  position after it, its verdict and why), and the mistakes as shortcuts.

A match allows hints as its creator chose (``"hints": true|false`` in the create
request); by default when a computer holds a seat (against the computer: on; between
people: off). The coach thinks in the computer players' worker processes
(:mod:`tabletop.web.thinking`), on the match replayed from its record there, never on the
event loop's interpreter; reviews are kept per match and level. Past :class:`CoachTime`'s
limits the answer is 429 with ``Retry-After``, and the address's next hints and reviews
before then are held, not answered (:mod:`tabletop.web.tarpit`).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Route

from tabletop.core.errors import TabletopError, UsageError, one_line
from tabletop.core.i18n.text import ENGLISH, Domain, message_of, translate
from tabletop.game import JSON
from tabletop.web import protocol, sealed

if TYPE_CHECKING:
    from tabletop.coach.review import Reviewed
    from tabletop.core.match import Match
    from tabletop.web.hub import Hub
    from tabletop.web.room import Room
    from tabletop.web.tarpit import Tarpit

STATIC = Path(__file__).parent / "static"

_ = Domain("tabletop")

# Every sentence a person reads, in one place (for the catalogues).
NO_MATCH = _("no such match")
NO_SEAT = _("the coach answers a seat's token only")
NO_HINTS = _("this match allows no hints (its creator chose so, or it is between people)")
NOT_YOUR_TURN = _("a hint is for the player to act, and it is not your turn")
SEALED = _(
    "the coach gives no hint while everyone chooses at once (a sealed step): choose on your own"
)
NOT_OVER = _("the review is given once the game is over")
BUSY = _(
    "the coach is busy for you: at most {at_once} hint or review at a time and {per_minute} "
    "a minute for one match and for one address; try again in a moment",
    at_once=1,
    per_minute=20,
)
AT_ONCE = 1  # hints and reviews thinking at once for one match, and for one address
PER_MINUTE = 20  # ... asked in a minute (a cached review is free)
BUSY_WAIT = 1.0  # seconds a refusal for one thinking already asks to wait (Retry-After)


def limited_path(path: str) -> bool:
    """Whether ``path`` is one :class:`CoachTime` limits (hint, review): the requests
    :mod:`tabletop.web.tarpit` holds from an address told to wait."""
    return path.startswith("/api/matches/") and path.endswith(("/hint", "/review"))


class CoachTime:
    """Per match and per client address: how many hints and reviews think at once and
    how many were asked in the last minute (issue 39: 40 hints in flight from one match
    slowed every computer on the server)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.busy: dict[str, int] = {}
        self.asked: dict[str, list[float]] = {}

    def take(self, keys: tuple[str, ...]) -> float:
        """A turn for all of ``keys`` (0.0), or the seconds until one may be asked."""
        now = self.clock()
        wait = 0.0
        for key in keys:
            recent = [t for t in self.asked.get(key, ()) if t > now - 60]
            if recent:
                self.asked[key] = recent
            else:
                self.asked.pop(key, None)
            if len(recent) >= PER_MINUTE:  # until enough of them are a minute old
                wait = max(wait, recent[len(recent) - PER_MINUTE] + 60 - now)
            if self.busy.get(key, 0) >= AT_ONCE:
                wait = max(wait, BUSY_WAIT)
        if wait:
            return wait
        for key in keys:
            self.busy[key] = self.busy.get(key, 0) + 1
            self.asked.setdefault(key, []).append(now)
        return 0.0

    def give(self, keys: tuple[str, ...]) -> None:
        for key in keys:
            self.busy[key] -= 1
            if not self.busy[key]:
                del self.busy[key]


def _lang(request: Request) -> str:
    """The request's language (:func:`tabletop.web.languages.chosen`); English for a bad ?lang."""
    from tabletop.web.languages import chosen

    try:
        return chosen(request)
    except UsageError:
        return ENGLISH


def _error(message: str, status: int = 403, lang: str = ENGLISH) -> JSONResponse:
    return JSONResponse({"error": one_line(translate(message, lang))}, status_code=status)


def _refused(exc: LookupError | PermissionError, request: Request) -> JSONResponse:
    """A request for no match (404) or without a seat's token (403), in its language."""
    status = 404 if isinstance(exc, LookupError) else 403
    return _error(exc.args[0] if exc.args else str(exc), status, _lang(request))


def _answer(data: Any, request: Request) -> JSONResponse:
    """``data`` with each message in it in the request's language."""
    from tabletop.web.languages import in_language

    return JSONResponse(in_language(data, _lang(request)))


def hints_allowed(room: Room) -> bool:
    """As the match's creator chose (``hints`` of the create request); by default on
    when a computer holds a seat, off between people."""
    if room.meta.hints is not None:
        return room.meta.hints
    return any(row.ai for row in room.meta.seats)


def hint(match: Match, state: Any) -> JSON:
    """The hint on ``state`` for the player to act (their view only): the game's own line
    of advice and the coach's judgement, as the terminal's ``hint`` gives it
    (:func:`tabletop.coach.choose.hint_for`)."""
    from tabletop.coach.choose import hint_for

    text, assessment = hint_for(match.game, state, match.players, match.options)
    return {
        "text": text,
        "actions": [
            {
                "action": j.text,
                "chance": round(j.chance, 3),
                "exact": j.exact,
                "value": j.value,
                "why": j.why,
            }
            for j in assessment.judgements
        ],
    }


def review(match: Match, level: str, reader: int | None) -> JSON:
    """``tabletop review --json --as reader`` of ``match`` at ``level``: every action as
    ``reader`` (a seat; None a spectator) may read it (judged, or ``unseen``: another
    player's in a game with hidden cards, or chance's), each with its position as
    ``reader`` saw it before the action, and ``final``: the last position as they saw it."""
    from tabletop.coach.choose import coach_for
    from tabletop.coach.review import review as review_match
    from tabletop.coach.review import summary

    game = match.game
    entries = review_match(match, coach_for(game, level), reader=reader)
    final = protocol.position_before(match, len(match.actions), reader)
    return {
        "game": game.info.id,
        "name": game.info.name,
        "players": match.players,
        "reader": reader,
        "actions": [
            {**e.json(), "why": e.why, "best_why": e.best_why, **words(e)} for e in entries
        ],
        "summary": summary(entries, match.players),
        "positions": [protocol.position_before(match, e.number - 1, reader) for e in entries],
        "final": {**final, "status": "over"},
    }


def words(entry: Reviewed) -> JSON:
    """An entry's actions in the reader's words (``said``, ``best_said``; messages,
    translated where sent) beside their notation (``action``, ``best``)."""
    best = (entry.best_said or entry.best) if entry.judged else None
    return {"said": entry.said or entry.action, "best_said": best}


def replayed(game_id: str, record: str) -> Match:
    """The match of a record's text, replayed (in a worker process)."""
    from tabletop.core.match import Match as Replayed
    from tabletop.core.records import Record
    from tabletop.core.registry import registry

    return Replayed.from_record(registry().get(game_id), Record.from_text(record))


def hint_job(game_id: str, record: str) -> JSON:
    """:func:`hint` on the last position of a record (a worker process's job)."""
    match = replayed(game_id, record)
    return hint(match, match.state)


def review_job(game_id: str, record: str, level: str, reader: int | None) -> JSON:
    """:func:`review` of a record (a worker process's job)."""
    return review(replayed(game_id, record), level, reader)


def coach_routes(hub: Hub, tarpit: Tarpit) -> list[Route]:
    """The coach's routes for the app serving ``hub``'s matches; an address refused by
    :class:`CoachTime` is told to ``tarpit`` (its next requests held until it may ask)."""
    from tabletop.web.room import seat_of

    reviews: dict[tuple[str, str, int], JSON] = {}  # per match, level and reader
    budget = CoachTime()

    def busy(request: Request, wait: float) -> Response:
        """The 429 for a client past :class:`CoachTime`, with ``Retry-After``; its address
        held until then (:mod:`tabletop.web.tarpit`)."""
        from tabletop.web.handlers import client_address

        refusal = _error(BUSY, 429, _lang(request))
        refusal.headers["retry-after"] = str(max(1, math.ceil(wait)))
        tarpit.refused(client_address(request), wait, bytes(refusal.body))
        return refusal

    async def limited(request: Request, room: Room, job: Any, *args: Any) -> Any:
        """``job(game, record, *args)`` in the coach's pool within :class:`CoachTime`; a
        refusal (:func:`busy`) when past it, before the record is even written out."""
        from tabletop.web.handlers import client_address

        keys = ("match:" + room.meta.id, "client:" + client_address(request))
        wait = budget.take(keys)
        if wait:
            return busy(request, wait)
        try:
            match = room.table.match
            return await hub.thinkers.coach(job, match.game.info.id, match.record().to_text(),
                                            *args)  # fmt: skip
        finally:
            budget.give(keys)

    async def seat(request: Request) -> tuple[Room, int]:
        room = await hub.find(request.path_params["id"])
        if room is None:
            raise LookupError(NO_MATCH)
        found = seat_of(room.meta, request.query_params.get("token"))
        if found is None:
            raise PermissionError(NO_SEAT)
        return room, int(found)

    async def status(request: Request) -> Response:
        try:
            room, number = await seat(request)
        except (LookupError, PermissionError) as exc:
            return _refused(exc, request)
        over = room.table.match.outcome() is not None
        return JSONResponse({"hints": hints_allowed(room), "over": over, "seat": number})

    async def api_hint(request: Request) -> Response:
        try:
            room, number = await seat(request)
        except (LookupError, PermissionError) as exc:
            return _refused(exc, request)
        if not hints_allowed(room):
            return _error(NO_HINTS, lang=_lang(request))
        match = room.table.match
        if sealed.step(room.table, number) is not None:  # the others' choices go nowhere
            return _error(SEALED, 409, _lang(request))
        if match.player() != number:
            return _error(NOT_YOUR_TURN, 409, _lang(request))
        answer = await limited(request, room, hint_job)
        return answer if isinstance(answer, Response) else _answer(answer, request)

    async def api_review(request: Request) -> Response:
        from tabletop.coach.choose import LEVELS, STRONGEST

        try:
            room, reader = await seat(request)
        except (LookupError, PermissionError) as exc:
            return _refused(exc, request)
        match = room.table.match
        if match.outcome() is None:
            return _error(NOT_OVER, 409, _lang(request))
        level = request.query_params.get("level") or STRONGEST
        if level not in LEVELS:
            return _error(
                _(
                    "unknown coach level {level}; levels are {levels}",
                    level=repr(level),
                    levels=", ".join(LEVELS),
                ),
                400,
                _lang(request),
            )
        key = (room.meta.id, level, reader)
        if key not in reviews:
            try:
                made = await limited(request, room, review_job, level, reader)
                if isinstance(made, Response):
                    return made  # refused: the coach is busy for this client
                reviews[key] = made
            except TabletopError as exc:
                return _error(message_of(exc), 400, _lang(request))
        return _answer(reviews[key], request)

    async def page(request: Request) -> Response:
        return FileResponse(STATIC / "review.html")

    return [
        Route("/api/matches/{id}/coach", status),
        Route("/api/matches/{id}/hint", api_hint),
        Route("/api/matches/{id}/review", api_review),
        Route("/match/{id}/review", page),
    ]

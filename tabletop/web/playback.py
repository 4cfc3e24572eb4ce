"""A match replayed move by move in the browser, each position as its viewer saw it.

- ``GET /api/matches/{id}/replay?token=&at=N&lang=``: stop ``N`` of the match (default the
  last): ``{"game", "name", "board", "seat", "status", "stops", "at", "number",
  "position", "played"}``. The stops are the positions between whole steps (a
  simultaneous step's choices are one step); ``number`` counts the actions before it;
  ``position`` is the ``position`` message of that moment as the viewer saw it (its
  view, never a card the viewer could not see then; no legal actions); ``played`` the
  actions that led to it, each ``{"player", "text"}`` as the viewer was told it then
  (a chance outcome has player -1). For a seat's token that seat's view; without one a
  spectator's, where the match admits spectators. A match in progress replays up to
  its current position (a sealed choice not yet applied is not there).
- ``/match/{id}/replay``: the page (``static/replay.html``): first / previous / next /
  last and the arrow, Home and End keys.

The views and texts are the core's (:func:`tabletop.core.table.shown_text` as of the
stop); this module only picks the stop and the viewer.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Route

from tabletop.core.errors import UsageError
from tabletop.core.i18n.text import Domain
from tabletop.core.numbers import parse_int
from tabletop.core.presentation import presentation_of
from tabletop.core.table import shown_text
from tabletop.game import JSON
from tabletop.web import languages, protocol
from tabletop.web.coach import NO_MATCH

if TYPE_CHECKING:
    from tabletop.core.match import Match
    from tabletop.web.hub import Hub

STATIC = Path(__file__).parent / "static"
_ = Domain("tabletop")

NO_SPECTATORS = _("this match admits no spectators: a seat's own link replays it")
BAD_STOP = _("at must be a whole number from 0 to {last} (the stops of this replay)")


def stops(match: Match) -> list[int]:
    """The numbers of actions after which a position stood between whole steps: 0, the
    start of each step (the choices of one simultaneous step are one), the last."""
    count, groups = len(match.actions), match.groups
    return [k for k in range(count + 1) if k == count or groups[k] == k]


def stop(match: Match, number: int, seat: int | None) -> JSON:
    """The position after ``number`` actions as ``seat`` (None: a spectator) saw it, and
    the step that led to it as they were told it then."""
    played: list[JSON] = []
    if number:
        first = match.groups[number - 1]
        for index in range(first, number):
            text = shown_text(match, index, seat, number)
            played.append({"player": match.actors[index], "text": text})  # CHANCE is -1
    return {"number": number, "position": protocol.position_at(match, number, seat),
            "played": played}  # fmt: skip


def replay_routes(hub: Hub) -> list[Route]:
    """The replay's routes for the app serving ``hub``'s matches."""
    from tabletop.web.room import seat_of

    async def api_replay(request: Request) -> Response:
        try:
            lang = languages.chosen(request)
        except UsageError as exc:  # an unknown ?lang: the languages' own refusal
            return languages.refusal(exc)
        room = await hub.find(request.path_params["id"])
        if room is None:
            return _error(NO_MATCH, lang, 404)
        token = request.query_params.get("token")
        seat = seat_of(room.meta, token) if token else None
        if token and seat is None:
            return _error(_("this link's token opens no seat of the match"), lang, 403)
        if seat is None and not room.meta.spectators:
            return _error(NO_SPECTATORS, lang, 403)
        match = room.table.match
        found = stops(match)
        asked = request.query_params.get("at")
        at = len(found) - 1 if asked is None else parse_int(asked, 0, len(found) - 1)
        if at is None:
            return _error(BAD_STOP.format(last=len(found) - 1), lang, 400)
        game = match.game
        board = presentation_of(game).web_board() is not None
        body = {
            "game": game.info.id,
            "name": game.info.name,
            "board": f"/games/{game.info.id}/board.js" if board else None,
            "seat": seat,
            "status": "ongoing" if match.outcome() is None else "over",
            "stops": len(found),
            "at": at,
            **stop(match, found[at], seat),
        }
        return JSONResponse(languages.in_language(body, lang), headers={"Vary": "Cookie"})

    async def page(request: Request) -> Response:
        return FileResponse(STATIC / "replay.html")

    return [
        Route("/api/matches/{id}/replay", api_replay),
        Route("/match/{id}/replay", page),
    ]


def _error(message: str, lang: str, status: int) -> Response:
    return JSONResponse({"error": languages.in_language(message, lang)}, status_code=status)

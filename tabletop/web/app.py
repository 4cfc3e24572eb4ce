"""The Starlette application: pages, the JSON API and the match websocket.

Routes: ``/`` (lobby), ``/match/{id}`` (match page), ``/match/{id}/host?key=`` (the
host's page of seat links), ``/static/...``, ``/games/{game}/board.js`` (a game's own
board), ``/games/{game}/rules`` (its rules as a page), ``GET /api/games``,
``GET /api/matches?page=N``, ``POST /api/matches`` (``Content-Type: application/json``),
``GET /api/matches/{id}/record?token=``, ``POST /api/matches/{id}/seats/{seat}/take``
(an open seat, :mod:`.open_seats`), ``/ws/{id}?token=&lang=``, and the languages'
``GET /api/i18n?lang=`` and ``GET /api/games/{game}/rules?lang=`` (:mod:`.languages`).

In front of them :class:`~tabletop.web.guard.HostGuard` refuses unknown hosts and other
sites' pages, and :class:`~tabletop.web.tarpit.Held` holds the hints and reviews of an
address told to wait; every error is one line of JSON (``{"error": ...}``), never a
traceback.
The websocket is served by :mod:`tabletop.web.handlers`, its messages built and parsed
in :mod:`tabletop.web.protocol`.
"""

from __future__ import annotations

import contextlib
import functools
import logging
from collections.abc import AsyncIterator
from pathlib import Path

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import HTTPConnection, Request
from starlette.responses import (
    FileResponse,
    HTMLResponse,
    JSONResponse,
    PlainTextResponse,
    Response,
)
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles

from tabletop.core.errors import TabletopError, UnknownGameError, UsageError, one_line
from tabletop.core.i18n.text import Domain, message_of, speaking
from tabletop.core.numbers import parse_int
from tabletop.core.presentation import presentation_of
from tabletop.core.reading import decode, parse_json
from tabletop.web import handlers, host, languages, open_seats, rules_page
from tabletop.web.bounded import Aborted, TooLarge, read_body
from tabletop.web.coach import coach_routes, limited_path
from tabletop.web.config import ServerConfig
from tabletop.web.guard import HostGuard
from tabletop.web.hub import Hub, Refused
from tabletop.web.playback import replay_routes
from tabletop.web.proxy import Proxied
from tabletop.web.tarpit import Held, Tarpit

log = logging.getLogger("tabletop.web")

STATIC = Path(__file__).parent / "static"
MAX_BODY = 65_536
_ = Domain("tabletop")


def error(message: str, status: int = 400) -> JSONResponse:
    return JSONResponse({"error": one_line(message)}, status_code=status)


def build_app(db_path: Path | str, config: ServerConfig | None = None) -> Starlette:
    """The application serving the matches stored in ``db_path`` (a SQLite file, or a
    ``postgresql://`` URL shared with other servers)."""
    config = config or ServerConfig()
    hub = Hub(db_path, config)
    # the coach's refusals: an address's next asks held till then (as many as its sockets)
    tarpit = Tarpit(limited_path, config.limits.sockets_per_client)

    def base_of(connection: HTTPConnection) -> str:
        return handlers.base_of(connection, config.public_url)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await hub.start()
        try:
            yield
        finally:
            await hub.stop()

    async def lobby(request: Request) -> Response:
        return FileResponse(STATIC / "lobby.html")

    async def match_page(request: Request) -> Response:
        return FileResponse(STATIC / "match.html")

    async def host_page(request: Request) -> Response:
        room = await hub.find(request.path_params["id"])
        if room is None or not host.is_host(room.meta, request.query_params.get("key")):
            return PlainTextResponse("no such match, or not its host's key", status_code=404)
        try:
            lang = languages.chosen(request)
        except UsageError as exc:
            return PlainTextResponse(str(exc), status_code=400)
        name = hub.registry.get(room.meta.game).info.name
        left = await open_seats.open_of(hub.store(), room.meta.id)
        return HTMLResponse(host.page(room.meta, name, base_of(request), left, lang),
                            headers={"cache-control": "no-store",
                                     "Vary": "Accept-Language, Cookie"})  # fmt: skip

    async def rules(request: Request) -> Response:
        try:
            lang = languages.chosen(request)
            game = hub.registry.get(request.path_params["game"])
        except UsageError as exc:
            return PlainTextResponse(str(exc), status_code=400)
        except UnknownGameError as exc:
            return PlainTextResponse(str(exc), status_code=404)
        text = speaking(lang, presentation_of(game).rules_text)
        return HTMLResponse(rules_page.page(game.info.id, game.info.name, text, lang),
                            headers={"Vary": "Accept-Language, Cookie"})  # fmt: skip

    async def board(request: Request) -> Response:
        try:
            game = hub.registry.get(request.path_params["game"])
        except UnknownGameError as exc:
            return PlainTextResponse(str(exc), status_code=404)
        path = presentation_of(game).web_board()
        if path is None:
            return PlainTextResponse(
                _("{game} has no board of its own", game=game.info.id), status_code=404
            )
        return FileResponse(path, media_type="text/javascript")

    async def icon(request: Request) -> Response:  # browsers ask for it: no 404 in the log
        return FileResponse(STATIC / "icon.svg", media_type="image/svg+xml")

    async def api_games(request: Request) -> Response:
        from tabletop.agents.catalogue import catalogue

        try:
            lang = languages.chosen(request)
        except UsageError as exc:
            return languages.refusal(exc)
        return JSONResponse(languages.in_language(catalogue(), lang),
                            headers={"Vary": "Accept-Language, Cookie"})  # fmt: skip

    async def api_matches(request: Request) -> Response:
        if request.method in ("GET", "HEAD"):
            page = parse_int(request.query_params.get("page", "1"), lo=1, hi=10**6)
            if page is None:
                return error(_("page must be a whole number from 1 (?page=N)"))
            try:
                left = await open_seats.still_open(hub.store())
                if hub.sharing is not None:  # the matches other servers made, too
                    await hub.sharing.discover()
            except Exception as exc:  # the store away: the listing of what is here
                log.error("the store could not be read for the lobby: %s", one_line(str(exc)))
                left = {}
            try:
                return JSONResponse(hub.listing(page, left))
            except TabletopError as exc:
                return error(str(exc), 404)
        kind = request.headers.get("content-type", "").partition(";")[0].strip().lower()
        if kind != "application/json":
            return error(_("send the match request as JSON (Content-Type: application/json)"), 415)
        try:  # never more than MAX_BODY bytes read (tabletop/web/bounded.py)
            body = await read_body(request, MAX_BODY)
        except TooLarge as exc:
            return error(languages.said(message_of(exc), request), 413)
        except Aborted:
            log.warning("a client went away in the middle of its request to %s", request.url.path)
            return error(_("the request's body was cut off"), 400)
        try:
            data = parse_json(decode(body, _("the body"), UsageError), _("the body"), UsageError)
            links = await hub.create(data, base_of(request), handlers.client_address(request))
        except Refused as exc:
            return error(languages.said(message_of(exc), request), exc.status)
        except TabletopError as exc:
            return error(languages.said(message_of(exc), request))
        return JSONResponse(links, status_code=201)

    async def api_take(request: Request) -> Response:
        seat = parse_int(request.path_params["seat"], lo=1, hi=10**6)
        if seat is None:
            return error(languages.said(_("a seat is a whole number from 1"), request), 404)
        room = await hub.find(request.path_params["id"])
        address = handlers.client_address(request)
        try:
            taken = await open_seats.take(room, hub.store(), hub.admission, seat,
                                          base_of(request), address)  # fmt: skip
        except Refused as exc:
            return error(languages.said(message_of(exc), request), exc.status)
        return JSONResponse(taken, headers={"cache-control": "no-store"})

    async def api_record(request: Request) -> Response:
        room = await hub.find(request.path_params["id"])
        try:
            text = hub.record(room, request.query_params.get("token"))
        except TabletopError as exc:
            return error(str(exc), 403)
        return Response(text, media_type="application/json")

    routes = [
        *coach_routes(hub, tarpit),  # the coach: hint, review (tabletop/web/coach.py)
        *replay_routes(hub),  # move by move, as each viewer saw it (tabletop/web/playback.py)
        Route("/", lobby),
        Route("/favicon.ico", icon),
        Route("/match/{id}", match_page),
        Route("/match/{id}/host", host_page),
        Route("/games/{game}/board.js", board),
        Route("/games/{game}/rules", rules),
        Route("/api/games", api_games),
        Route("/api/matches", api_matches, methods=["GET", "POST"]),
        Route("/api/matches/{id}/record", api_record),
        Route("/api/matches/{id}/seats/{seat}/take", api_take, methods=["POST"]),
        WebSocketRoute("/ws/{id}", functools.partial(handlers.match_socket, hub)),
        *languages.routes(hub.registry),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(
        routes=routes,
        lifespan=lifespan,
        middleware=[
            Middleware(Proxied, allow=config.forwarded_allow_ips),  # trusted proxies only
            Middleware(Held, tarpit=tarpit),  # told to wait: held (tabletop/web/tarpit.py)
            Middleware(HostGuard, allowed=config.allowed_hosts),
        ],
        exception_handlers={Exception: internal_error},
    )
    app.state.hub = hub
    return app


async def internal_error(request: Request, exc: Exception) -> Response:
    """A bug: logged with its traceback for the operator, one line for the client."""
    log.error("internal error on %s", request.url.path, exc_info=exc)
    return error(_("internal error: the server's log says more"), 500)

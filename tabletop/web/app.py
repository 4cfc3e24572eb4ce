"""The Starlette application: pages, the JSON API and the match websocket.

Routes: ``/`` (lobby), ``/match/{id}`` (match page), ``/match/{id}/host?key=`` (the
host's page of seat links), ``/static/...``, ``/games/{game}/board.js`` (a game's own
board), ``/games/{game}/rules`` (its rules as a page), ``GET /api/games``,
``GET /api/matches?page=N``, ``POST /api/matches`` (``Content-Type: application/json``),
``GET /api/matches/{id}/record?token=``, ``/ws/{id}?token=&lang=``, and the languages'
``GET /api/i18n?lang=`` and ``GET /api/games/{game}/rules?lang=`` (:mod:`.languages`).

In front of them :class:`~tabletop.web.guard.HostGuard` refuses unknown hosts and other
sites' pages; every error is one line of JSON (``{"error": ...}``), never a traceback.
"""

from __future__ import annotations

import contextlib
import json
import logging
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

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
from starlette.websockets import WebSocket, WebSocketDisconnect

from tabletop.core.errors import TabletopError, UnknownGameError, UsageError, one_line
from tabletop.core.i18n.text import Domain, message_of, speaking
from tabletop.core.numbers import parse_int
from tabletop.core.reading import decode, parse_json
from tabletop.web import host, languages, protocol, rules_page
from tabletop.web.coach import coach_routes
from tabletop.web.config import ServerConfig
from tabletop.web.guard import HostGuard
from tabletop.web.hub import Hub, Refused
from tabletop.web.origin import page_base
from tabletop.web.room import Connection, Room, seat_of

log = logging.getLogger("tabletop.web")
_ = Domain("tabletop")

STATIC = Path(__file__).parent / "static"
MAX_BODY = 65_536
RATE = 50.0  # messages a second a connection may send on average
BURST = 100.0  # ... and at once
CLOSE_AFTER = 100  # messages refused for flooding before the connection is closed


def error(message: str, status: int = 400) -> JSONResponse:
    return JSONResponse({"error": one_line(message)}, status_code=status)


class Bucket:
    """A token bucket: ``take()`` is False when the client sends too fast."""

    def __init__(self) -> None:
        self.tokens = BURST
        self.last = time.monotonic()
        self.refused = 0

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(BURST, self.tokens + (now - self.last) * RATE)
        self.last = now
        if self.tokens < 1:
            self.refused += 1
            return False
        self.tokens -= 1
        return True


def client_address(connection: Request | WebSocket) -> str:
    """The peer's address (what the admission limits count by)."""
    return connection.client.host if connection.client is not None else ""


def build_app(db_path: Path, config: ServerConfig | None = None) -> Starlette:
    """The application serving the matches stored in ``db_path``."""
    config = config or ServerConfig()
    hub = Hub(db_path, config)

    def base_of(connection: HTTPConnection) -> str:
        """The base of the links handed out (``tabletop.web.origin``): ``--public-url``,
        else the origin this connection's page came from."""
        url = connection.url
        return page_base(url.scheme, url.netloc, connection.scope.get("root_path", ""),
                         connection.headers, config.public_url)  # fmt: skip

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        hub.open()
        try:
            yield
        finally:
            hub.close()

    async def lobby(request: Request) -> Response:
        return FileResponse(STATIC / "lobby.html")

    async def match_page(request: Request) -> Response:
        return FileResponse(STATIC / "match.html")

    async def host_page(request: Request) -> Response:
        room = hub.rooms.get(request.path_params["id"])
        if room is None or not host.is_host(room.meta, request.query_params.get("key")):
            return PlainTextResponse("no such match, or not its host's key", status_code=404)
        name = hub.registry.get(room.meta.game).info.name
        return HTMLResponse(host.page(room.meta, name, base_of(request)),
                            headers={"cache-control": "no-store"})  # fmt: skip

    async def rules(request: Request) -> Response:
        try:
            lang = languages.chosen(request)
            game = hub.registry.get(request.path_params["game"])
        except UsageError as exc:
            return PlainTextResponse(str(exc), status_code=400)
        except UnknownGameError as exc:
            return PlainTextResponse(str(exc), status_code=404)
        text = speaking(lang, game.rules_text)
        return HTMLResponse(rules_page.page(game.info.id, game.info.name, text, lang),
                            headers={"Vary": "Accept-Language, Cookie"})  # fmt: skip

    async def board(request: Request) -> Response:
        try:
            game = hub.registry.get(request.path_params["game"])
        except UnknownGameError as exc:
            return PlainTextResponse(str(exc), status_code=404)
        path = game.web_board()
        if path is None:
            return PlainTextResponse(
                _("{game} has no board of its own", game=game.info.id), status_code=404
            )
        return FileResponse(path, media_type="text/javascript")

    async def api_games(request: Request) -> Response:
        from tabletop.agents.catalogue import catalogue

        try:
            lang = languages.chosen(request)
        except UsageError as exc:
            return languages.refusal(exc)
        return JSONResponse(languages.in_language(catalogue(), lang),
                            headers={"Vary": "Accept-Language, Cookie"})  # fmt: skip

    async def api_matches(request: Request) -> Response:
        if request.method == "GET":
            page = parse_int(request.query_params.get("page", "1"), lo=1, hi=10**6)
            if page is None:
                return error(_("page must be a whole number from 1 (?page=N)"))
            try:
                return JSONResponse(hub.listing(page))
            except TabletopError as exc:
                return error(str(exc), 404)
        kind = request.headers.get("content-type", "").partition(";")[0].strip().lower()
        if kind != "application/json":
            return error(_("send the match request as JSON (Content-Type: application/json)"), 415)
        body = await request.body()
        if len(body) > MAX_BODY:
            return error(_("request too large (at most {limit} bytes)", limit=MAX_BODY), 413)
        try:
            data = parse_json(decode(body, _("the body"), UsageError), _("the body"), UsageError)
            links = await hub.create(data, base_of(request), client_address(request))
        except Refused as exc:
            return error(languages.said(message_of(exc), request), exc.status)
        except TabletopError as exc:
            return error(languages.said(message_of(exc), request))
        return JSONResponse(links, status_code=201)

    async def api_record(request: Request) -> Response:
        try:
            text = hub.record(request.path_params["id"], request.query_params.get("token"))
        except TabletopError as exc:
            return error(str(exc), 403)
        return Response(text, media_type="application/json")

    async def ws(websocket: WebSocket) -> None:
        await websocket.accept()
        address = client_address(websocket)
        refusal = hub.admission.open_socket(address)
        if refusal:
            await websocket.send_text(json.dumps(protocol.error(refusal)))
            await websocket.close(code=1008, reason="too many connections")
            return
        try:
            await admitted(websocket)
        finally:
            hub.admission.close_socket(address)

    async def admitted(websocket: WebSocket) -> None:
        try:
            lang = languages.chosen(websocket)
        except UsageError as exc:
            await websocket.send_text(json.dumps(protocol.error(str(exc))))
            await websocket.close(code=1008)
            return
        room = hub.rooms.get(websocket.path_params["id"])
        token = websocket.query_params.get("token")
        refusal = ""
        seat = None
        if room is None:
            refusal = _("no such match")
        elif token:
            seat = seat_of(room.meta, token)
            if seat is None:
                refusal = _("this token is no seat of this match")
        elif not room.meta.spectators:
            refusal = _("this match allows no spectators")
        if room is None or refusal:
            said = protocol.localised(protocol.error(refusal), lang)
            await websocket.send_text(json.dumps(said, ensure_ascii=False))
            await websocket.close(code=1008)
            return
        connection = Connection(
            seat,
            websocket.send_text,
            lambda: websocket.close(1013, "not reading its messages"),
            lang=lang,
        )
        await room.join(connection, {**hello(room, seat), "lang": lang})
        if room.meta.rematch is not None:
            links = hub.links(hub.rooms[room.meta.rematch].meta, base_of(websocket))
            await connection.send(hub.rematch_message(links, seat, room.meta.players))
        try:
            await serve_connection(websocket, room, connection)
        except WebSocketDisconnect:
            pass
        finally:
            await room.leave(connection)

    async def serve_connection(websocket: WebSocket, room: Room, connection: Connection) -> None:
        bucket = Bucket()
        while True:
            frame = await websocket.receive()
            if frame["type"] == "websocket.disconnect":
                raise WebSocketDisconnect(frame.get("code", 1000))
            text = frame.get("text")
            if text is None:
                await connection.send(protocol.error(_("send text frames of JSON, not binary")))
                continue
            if not bucket.take():
                if bucket.refused >= CLOSE_AFTER:
                    await connection.flush()
                    await websocket.close(code=1008, reason="flooding")
                    return
                if bucket.refused == 1 or bucket.refused % 20 == 0:
                    await connection.send(
                        protocol.error(
                            _("too many messages: at most {rate} a second", rate=round(RATE))
                        )
                    )
                continue
            try:
                message = protocol.parse(text)
            except protocol.ProtocolError as exc:
                await connection.send(protocol.error(message_of(exc)))
                if len(text) > protocol.MAX_MESSAGE:
                    await connection.flush()
                    await websocket.close(code=1009, reason="message too big")
                    return
                continue
            await dispatch(room, connection, message, base_of(websocket))

    async def dispatch(
        room: Room, connection: Connection, message: protocol.ClientMessage, base: str
    ) -> None:
        if message.kind == "action":
            await room.act(connection, message.action, message.number)
        elif message.kind == "undo":
            await room.ask_undo(connection)
        elif message.kind == "undo-answer":
            await room.answer_undo(connection, message.agree)
        elif message.kind == "chat":
            await room.talk(connection, message.text)
        elif message.kind == "rematch":
            if room.table.match.outcome() is None:
                await connection.send(
                    protocol.error(_("a rematch is offered once the game is over"))
                )
                return
            if connection.seat is None:
                await connection.send(protocol.error(_("only the players can start a rematch")))
                return
            async with room.lock:  # two players asking at once make one rematch
                links = await hub.rematch(room, base)
            for other in list(room.connections):
                await other.send(hub.rematch_message(links, other.seat, room.meta.players))

    def hello(room: Room, seat: int | None) -> dict[str, Any]:
        meta = room.meta
        game = hub.registry.get(meta.game)
        has_board = game.web_board() is not None
        return {
            "type": "hello",
            "match": meta.id,
            "game": meta.game,
            "name": game.info.name,
            "players": meta.players,
            "seat": seat,
            "board": f"/games/{meta.game}/board.js" if has_board else None,
            "rules": f"/games/{meta.game}/rules",
            "chat": {"write": room.chat.may_write(seat)},
            "move_time": meta.move_time,
            "seats": [
                {"seat": r.seat, "kind": "computer" if r.ai else "person", "level": r.ai}
                for r in meta.seats
            ],
        }

    routes = [
        *coach_routes(hub),  # the coach: hint, review (tabletop/web/coach.py)
        Route("/", lobby),
        Route("/match/{id}", match_page),
        Route("/match/{id}/host", host_page),
        Route("/games/{game}/board.js", board),
        Route("/games/{game}/rules", rules),
        Route("/api/games", api_games),
        Route("/api/matches", api_matches, methods=["GET", "POST"]),
        Route("/api/matches/{id}/record", api_record),
        WebSocketRoute("/ws/{id}", ws),
        *languages.routes(hub.registry),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(
        routes=routes,
        lifespan=lifespan,
        middleware=[Middleware(HostGuard, allowed=config.allowed_hosts)],
        exception_handlers={Exception: internal_error},
    )
    app.state.hub = hub
    return app


async def internal_error(request: Request, exc: Exception) -> Response:
    """A bug: logged with its traceback for the operator, one line for the client."""
    log.error("internal error on %s", request.url.path, exc_info=exc)
    return error(_("internal error: the server's log says more"), 500)

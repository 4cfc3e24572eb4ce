"""The match websocket ``/ws/{id}?token=&lang=``: admission, the read loop, and one
handler per client message (``docs/web.md``, "The websocket").

:func:`match_socket` is the endpoint (``build_app`` binds it to its hub). A connection is
admitted (the per-address socket limit, its language, the match, its token), joins the
room, then every text frame is rate-limited (:class:`Bucket`), parsed by
:func:`tabletop.web.protocol.parse` and handed to the entry of its type in
:data:`HANDLERS`. Adding a client message: its parser in ``protocol.PARSERS`` and its
handler here; the messages the server sends are built in :mod:`tabletop.web.protocol`.
"""

from __future__ import annotations

import json
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from starlette.requests import HTTPConnection
from starlette.websockets import WebSocket, WebSocketDisconnect

from tabletop.core.errors import UsageError
from tabletop.core.i18n.text import Domain, message_of
from tabletop.web import languages, protocol
from tabletop.web.hub import Hub
from tabletop.web.origin import page_base
from tabletop.web.room import Connection, Room, seat_of

_ = Domain("tabletop")

RATE = 50.0  # messages a second a connection may send on average
BURST = 100.0  # ... and at once
CLOSE_AFTER = 100  # messages refused for flooding before the connection is closed


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


def client_address(connection: HTTPConnection) -> str:
    """The peer's address (what the admission limits count by)."""
    return connection.client.host if connection.client is not None else ""


def base_of(connection: HTTPConnection, public_url: str | None) -> str:
    """The base of the links handed out (``tabletop.web.origin``): ``--public-url``,
    else the origin this connection's page came from."""
    return page_base(connection.scope, public_url)


@dataclass(frozen=True)
class Peer:
    """One admitted websocket: the hub, the room it joined, its connection there, and the
    base of the links it is handed."""

    hub: Hub
    room: Room
    connection: Connection
    base: str


# -- the handlers: one per client message type (protocol.PARSERS) -----------------------


async def on_action(peer: Peer, message: protocol.ClientMessage) -> None:
    await peer.room.act(peer.connection, message.action, message.number)


async def on_undo(peer: Peer, message: protocol.ClientMessage) -> None:
    await peer.room.ask_undo(peer.connection)


async def on_undo_answer(peer: Peer, message: protocol.ClientMessage) -> None:
    await peer.room.answer_undo(peer.connection, message.agree)


async def on_rematch(peer: Peer, message: protocol.ClientMessage) -> None:
    await peer.hub.ask_rematch(peer.room, peer.connection, peer.base)


async def on_chat(peer: Peer, message: protocol.ClientMessage) -> None:
    await peer.room.talk(peer.connection, message.text)


async def on_name(peer: Peer, message: protocol.ClientMessage) -> None:
    await peer.room.rename(peer.connection, message.text)


async def on_resign(peer: Peer, message: protocol.ClientMessage) -> None:
    await peer.room.resign(peer.connection)


async def on_draw_offer(peer: Peer, message: protocol.ClientMessage) -> None:
    await peer.room.offer_draw(peer.connection)


async def on_draw_answer(peer: Peer, message: protocol.ClientMessage) -> None:
    await peer.room.answer_draw(peer.connection, message.agree)


Handler = Callable[[Peer, protocol.ClientMessage], Awaitable[None]]
HANDLERS: dict[str, Handler] = {
    "action": on_action,
    "undo": on_undo,
    "undo-answer": on_undo_answer,
    "rematch": on_rematch,
    "chat": on_chat,
    "name": on_name,
    "resign": on_resign,
    "draw-offer": on_draw_offer,
    "draw-answer": on_draw_answer,
}


# -- the connection's life ------------------------------------------------------------


async def match_socket(hub: Hub, websocket: WebSocket) -> None:
    """The endpoint: refused over the per-address socket limit (close 1008, the refusal in
    the handshake's language: a valid ``?lang``, the cookie, ``Accept-Language``), else
    served until it closes."""
    await websocket.accept()
    address = client_address(websocket)
    refusal = hub.admission.open_socket(address)
    if refusal:
        said = protocol.localised(protocol.error(refusal), languages.spoken(websocket))
        await websocket.send_text(json.dumps(said, ensure_ascii=False))
        await websocket.close(code=1008, reason="too many connections")
        return
    try:
        await admitted(hub, websocket)
    finally:
        hub.admission.close_socket(address)


def refusal_of(
    room: Room | None, websocket: WebSocket
) -> tuple[Room | None, int | None, str]:
    """The room (as :meth:`Hub.find` found it), the seat (None: a spectator) and why the
    connection may not join ('' when it may): no such match, a token of no seat, no
    spectators allowed."""
    token = websocket.query_params.get("token")
    if room is None:
        return None, None, _("no such match")
    if token:
        seat = seat_of(room.meta, token)
        if seat is None:
            return room, None, _("this token is no seat of this match")
        return room, seat, ""
    if not room.meta.spectators:
        return room, None, _("this match allows no spectators")
    return room, None, ""


async def admitted(hub: Hub, websocket: WebSocket) -> None:
    """A connection within the socket limit: refused (an error in its language, close
    1008), or joined to its room, served, and taken out of the room when it closes."""
    try:
        lang = languages.chosen(websocket)
    except UsageError as exc:
        await websocket.send_text(json.dumps(protocol.error(str(exc))))
        await websocket.close(code=1008)
        return
    found = await hub.find(websocket.path_params["id"])  # shared: maybe another server's
    room, seat, refusal = refusal_of(found, websocket)
    if room is None or refusal:
        said = protocol.localised(protocol.error(refusal), lang)
        await websocket.send_text(json.dumps(said, ensure_ascii=False))
        await websocket.close(code=1008)
        return
    if seat is None:
        await hub.admission.spectator_turn()  # a crowd joins at a pace; players never wait
    connection = Connection(
        seat,
        websocket.send_text,
        lambda: websocket.close(1013, "not reading its messages"),
        lang=lang,
    )
    connection.base = base_of(websocket, hub.config.public_url)
    game = hub.registry.get(room.meta.game)
    try:  # whatever happens from here, the connection leaves the room
        await room.join(
            connection, protocol.hello(room.meta, game, seat, room.chat.may_write(seat), lang)
        )
        peer = Peer(hub, room, connection, base_of(websocket, hub.config.public_url))
        await hub.tell_rematch(room, connection, peer.base)
        await read(peer, websocket)
    except WebSocketDisconnect:
        pass
    finally:
        await room.leave(connection)


async def read(peer: Peer, websocket: WebSocket) -> None:
    """Read the client's frames until it goes: each text frame within the rate parsed and
    handled; binary frames, floods and bad messages answered with an error (a flood past
    :data:`CLOSE_AFTER` refusals closes 1008, a message over the size closes 1009)."""
    connection = peer.connection
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
        await HANDLERS[message.kind](peer, message)

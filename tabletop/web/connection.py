"""One websocket's side of a room: its seat, its language and its outbox, and the
fan-out that queues one text for many connections without holding the event loop."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections import deque
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from tabletop.game import JSON
from tabletop.web import protocol

FAN_OUT_CHUNK = 25  # connections told of a change at once
FAN_OUT_PAUSE = 0.004  # seconds between two chunks: a person's action goes first
OUTBOX_MOST = 1000  # messages queued for one connection before it is dropped as not reading


class Connection:
    """One websocket: its seat (None: spectator), its language and its outbox.

    Every message's prose (``error``, ``reason``, ``prompt``) is translated into the
    connection's ``lang`` where it is sent: a Czech and a Polish friend in one match each
    read their own.

    Messages are queued (:meth:`post`) and a writer task of the connection's own sends
    them in order, so telling thousands of spectators never holds the room's lock; a
    connection whose outbox grows past :data:`OUTBOX_MOST` (it does not read) is dropped.
    """

    def __init__(
        self,
        seat: int | None,
        send: Callable[[str], Awaitable[None]],
        drop: Callable[[], Coroutine[Any, Any, None]] | None = None,
        lang: str = "en",
    ) -> None:
        self.seat = seat
        self.lang = lang
        self.base = ""  # the origin its page came from (the links it is sent start so)
        self.name = ""  # a spectator's display name ('' none; a seat's is the room's)
        self.named = float("-inf")  # monotonic time of its last name change
        self._send = send
        self._drop = drop
        self._outbox: deque[str] = deque()
        self._ready = asyncio.Event()
        self._writer: asyncio.Task[None] | None = None
        self.dropped = False

    async def send(self, message: JSON) -> None:
        self.post(json.dumps(protocol.localised(message, self.lang), ensure_ascii=False))

    def post(self, text: str) -> None:
        """Queue ``text`` for this connection."""
        if self.dropped:
            return
        if len(self._outbox) >= OUTBOX_MOST:
            self.dropped = True
            self._outbox.clear()
            if self._drop is not None:
                self._writer = asyncio.create_task(self._drop())
            return
        self._outbox.append(text)
        self._ready.set()
        if self._writer is None:
            self._writer = asyncio.create_task(self._write())

    async def _write(self) -> None:
        while True:
            while self._outbox:
                # a closed socket: its reader notices and leaves the room
                with contextlib.suppress(Exception):
                    await self._send(self._outbox.popleft())
            self._ready.clear()
            await self._ready.wait()

    async def flush(self) -> None:
        """Wait until every queued message was handed to the socket."""
        while self._outbox and not self.dropped:
            await asyncio.sleep(0.005)

    def close(self) -> None:
        if self._writer is not None:
            self._writer.cancel()


async def fan_out(connections: list[Connection], texts: tuple[str, ...]) -> None:
    """Queue ``texts`` for every connection, :data:`FAN_OUT_CHUNK` connections at a time
    with :data:`FAN_OUT_PAUSE` between: the crowd's sending is spread out (2,000
    spectators: about half a second), so the event loop is never busy with it for more
    than a chunk's writes and a person's action waits at most that long."""
    for start in range(0, len(connections), FAN_OUT_CHUNK):
        if start:
            await asyncio.sleep(FAN_OUT_PAUSE)
        for connection in connections[start : start + FAN_OUT_CHUNK]:
            for text in texts:
                connection.post(text)

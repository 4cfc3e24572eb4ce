"""A client that re-sends what it was just refused is held, not answered (issue 39).

A limit's refusal (the coach's 429, :mod:`tabletop.web.coach`) is answered at once, with
``Retry-After``, and told to :meth:`Tarpit.refused`. A request of the same kind from the
same address before that time is not answered at once: :class:`Held`, ASGI middleware in
front of everything else, holds it (an ``asyncio.sleep``, costing the server nothing)
until the time the address was told, at most :data:`MOST_HELD` seconds (a server
shutting down waits for held requests), then lets it through as if the client had
waited; it is answered then, or refused again if the limit still holds. A script re-sending at
once is so slowed to the limit's own pace, instead of costing the event loop a refusal
each time (40 hints in flight made 500 refusals a second and other people's computer
replies 6x slower). A person who clicks too soon just waits for the answer.

At most ``limit`` requests of one address are held at once (the server's
``--max-sockets-per-client``, its connections at once); past that a request is turned
away at the cheapest point: the last refusal's bytes as they were (no routing, lookup,
translation nor JSON) and the connection closed.
"""

from __future__ import annotations

import asyncio
import math
import time
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass
from typing import Any

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

MOST_HELD = 10.0  # seconds one request is held at most


@dataclass
class Pit:
    """One address's hold: until when, how many held now, its last refusal's body."""

    until: float
    body: bytes
    held: int = 0


class Tarpit:
    """Per client address, until when its requests of the kind ``covers`` (a path
    predicate) are held, at most ``limit`` of them at once (one event loop: no locks)."""

    def __init__(
        self,
        covers: Callable[[str], bool],
        limit: int,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.covers = covers
        self.limit = limit
        self.clock = clock
        self.pits: dict[str, Pit] = {}
        self._sweep_at = 64  # pits kept before those served out are forgotten

    def refused(self, address: str, seconds: float, body: bytes) -> None:
        """``address`` was refused (``body``) and told to wait ``seconds``."""
        now = self.clock()
        pit = self.pits.get(address)
        if pit is None:
            if len(self.pits) >= self._sweep_at:  # the addresses that never came back
                self.pits = {a: p for a, p in self.pits.items() if p.until > now or p.held}
                self._sweep_at = max(64, 2 * len(self.pits))
            self.pits[address] = Pit(now + seconds, body)
        else:
            pit.until, pit.body = now + seconds, body

    def left(self, address: str) -> float:
        """Seconds ``address`` still has to wait (0 when it need not)."""
        pit = self.pits.get(address)
        if pit is None:
            return 0.0
        left = pit.until - self.clock()
        if left <= 0 and not pit.held:
            del self.pits[address]  # served its time: forgotten
        return max(0.0, left)

    async def hold(self, address: str) -> bool:
        """Wait until ``address`` may ask again (at once if it may); False, without
        waiting, when :attr:`limit` of its requests are held already."""
        if not self.left(address):
            return True
        pit = self.pits[address]
        if pit.held >= self.limit:
            return False
        pit.held += 1
        most = self.clock() + MOST_HELD
        try:
            while (left := min(pit.until, most) - self.clock()) > 0:  # refused meanwhile:
                await asyncio.sleep(left)  # held on till the later time
        finally:
            pit.held -= 1
        return True

    async def turn_away(self, address: str, send: Send) -> None:
        """The last refusal again, straight on the ASGI channel, closing the connection."""
        pit = self.pits[address]
        wait = b"%d" % max(1, math.ceil(pit.until - self.clock()))
        headers = [
            (b"content-type", b"application/json"),
            (b"content-length", b"%d" % len(pit.body)),
            (b"retry-after", wait),
            (b"connection", b"close"),
        ]
        await send({"type": "http.response.start", "status": 429, "headers": headers})
        await send({"type": "http.response.body", "body": pit.body})


class Held:
    """ASGI middleware: a request :attr:`Tarpit.covers` from an address told to wait is
    held until then, or turned away past :attr:`Tarpit.limit` held at once."""

    def __init__(self, app: ASGIApp, tarpit: Tarpit) -> None:
        self.app = app
        self.tarpit = tarpit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and self.tarpit.covers(scope["path"]):
            client = scope.get("client")
            address = client[0] if client else ""
            if not await self.tarpit.hold(address):
                await self.tarpit.turn_away(address, send)
                return
        await self.app(scope, receive, send)

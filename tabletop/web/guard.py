"""What the server admits: the hosts it answers to, and how much one client may ask.

:class:`HostGuard` is ASGI middleware in front of every route. A request or websocket
handshake whose ``Host`` is not an allowed name is refused (HTTP 400, websocket close
1008), and so is a browser ``Origin`` naming another host: a DNS-rebinding page names its
own host in both, and its host is not on the list.

:class:`Admission` counts per client address: matches created in the last minute, ongoing
matches created, open websockets; the server's ongoing matches in all; and the pace at
which spectators are let in.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections import defaultdict, deque
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any
from urllib.parse import urlsplit

from starlette.requests import HTTPConnection

from tabletop.core.i18n.text import Domain
from tabletop.web.config import Limits
from tabletop.web.languages import said
from tabletop.web.proxy import FORWARDED_HOST, split_netloc

_ = Domain("tabletop")

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


def host_name(netloc: str) -> str:
    """The host of ``host[:port]`` or ``[v6]:port``, lower case ('' outside the strict
    grammar of :func:`tabletop.web.proxy.split_netloc`)."""
    found = split_netloc(netloc.strip())
    return found[0] if found is not None else ""


class HostGuard:
    """Refuse requests without exactly one ``Host`` in the strict grammar naming an
    allowed host (nor a trusted proxy's ``X-Forwarded-Host`` naming another), or whose
    browser ``Origin`` is another than the host it asks."""

    def __init__(self, app: ASGIApp, allowed: tuple[str, ...]) -> None:
        self.app = app
        self.allowed = frozenset(h.lower().strip("[]") for h in allowed)

    def refusal(self, scope: Scope) -> str:
        hosts = [v.decode("latin-1") for k, v in scope["headers"] if k.lower() == b"host"]
        if len(hosts) != 1:
            return _("send exactly one Host header (this request has {count})", count=len(hosts))
        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
        asked = scope.get(FORWARDED_HOST, hosts[0]).strip()  # a trusted proxy's, or Host
        allowed = ", ".join(sorted(self.allowed))
        for netloc in {hosts[0].strip(), asked}:
            host = host_name(netloc)
            if host not in self.allowed:
                return _(
                    "host {host} is not allowed (allowed: {allowed}); "
                    "start the server with --allowed-host NAME for each name it is reached at",
                    host=repr((host or netloc)[:60]),
                    allowed=allowed,
                )
        origin = headers.get("origin")
        if origin is None:
            return ""  # not a browser page (a program); seat tokens still guard the seats
        netloc = urlsplit(origin).netloc.lower()
        if netloc != asked.lower() or host_name(netloc) not in self.allowed:
            return _(
                "a page of another site ({origin}) may not use this server",
                origin=repr(origin[:60]),
            )
        return ""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        refusal = self.refusal(scope)
        if not refusal:
            await self.app(scope, receive, send)
            return
        refusal = said(refusal, HTTPConnection(scope))  # in the language the client asks
        if scope["type"] == "http":
            await reply(send, 400, {"error": refusal})
        else:  # closed before it is accepted: the handshake is refused (code 1008)
            await receive()  # the websocket.connect event
            await send({"type": "websocket.close", "code": 1008, "reason": close_reason(refusal)})


def close_reason(text: str) -> str:
    """``text`` cut to what a websocket close frame carries (123 bytes of UTF-8: a
    Cyrillic letter is two), never in the middle of a letter."""
    return text.encode()[:120].decode(errors="ignore")


async def reply(send: Send, status: int, body: dict[str, Any]) -> None:
    """A JSON response straight on the ASGI channel."""
    data = json.dumps(body).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", b"%d" % len(data)),
            ],
        }
    )
    await send({"type": "http.response.body", "body": data})


SPECTATOR_BURST = 20  # spectators let in at once before the pace applies


class Admission:
    """The per-address counters behind the admission limits (one event loop: no locks)."""

    def __init__(self, limits: Limits, clock: Callable[[], float] = time.monotonic) -> None:
        self.limits = limits
        self.clock = clock
        self._created: defaultdict[str, deque[float]] = defaultdict(deque)
        self._taken: defaultdict[str, deque[float]] = defaultdict(deque)
        self._sockets: defaultdict[str, int] = defaultdict(int)
        self._next_spectator = 0.0

    def create_refusal(
        self, address: str, open_by_address: int, open_total: int
    ) -> tuple[int, str]:
        """``(status, reason)`` refusing a new match from ``address``, or ``(0, "")``."""
        limits = self.limits
        recent = self._created[address]
        now = self.clock()
        while recent and recent[0] <= now - 60:
            recent.popleft()
        if len(recent) >= limits.creates_per_minute:
            return 429, _(
                "too many new matches: at most {limit} a minute from one "
                "address (--max-creates-per-minute); try again in a minute",
                limit=limits.creates_per_minute,
            )
        if open_by_address >= limits.open_matches_per_client:
            return 429, _(
                "too many ongoing matches: at most {limit} created by "
                "one address (--max-open-matches-per-client); finish one first",
                limit=limits.open_matches_per_client,
            )
        if open_total >= limits.open_matches:
            return 503, _(
                "the server is full: at most {limit} ongoing matches "
                "(--max-open-matches); try again later",
                limit=limits.open_matches,
            )
        return 0, ""

    def take_refusal(self, address: str) -> tuple[int, str]:
        """``(429, reason)`` refusing another open seat to ``address``, or ``(0, "")``:
        one address takes at most ``creates_per_minute`` seats a minute (a script does
        not empty the lobby)."""
        recent = self._taken[address]
        now = self.clock()
        while recent and recent[0] <= now - 60:
            recent.popleft()
        if len(recent) >= self.limits.creates_per_minute:
            return 429, _(
                "too many seats taken: at most {limit} a minute from one address "
                "(--max-creates-per-minute); try again in a minute",
                limit=self.limits.creates_per_minute,
            )
        return 0, ""

    def took(self, address: str) -> None:
        self._taken[address].append(self.clock())

    def created(self, address: str) -> None:
        self._created[address].append(self.clock())

    def forget(self, address: str) -> None:
        """A create counted by :meth:`created` that did not happen after all."""
        if self._created[address]:
            self._created[address].pop()

    def open_socket(self, address: str) -> str:
        """Count a new websocket of ``address``; the refusal if it is one too many."""
        if self._sockets[address] >= self.limits.sockets_per_client:
            return _(
                "too many connections: at most {limit} from one address (--max-sockets-per-client)",
                limit=self.limits.sockets_per_client,
            )
        self._sockets[address] += 1
        return ""

    def close_socket(self, address: str) -> None:
        self._sockets[address] -= 1
        if self._sockets[address] <= 0:
            del self._sockets[address]

    async def spectator_turn(self) -> None:
        """Wait for a spectator's turn to join: at most ``spectator_joins_per_second``
        are let in (after a burst of :data:`SPECTATOR_BURST`), so 2,000 arriving at once
        join over ten seconds instead of taking the event loop from the persons playing;
        players' own connections never wait here."""
        gap = 1.0 / self.limits.spectator_joins_per_second
        now = self.clock()
        slot = max(now - SPECTATOR_BURST * gap, self._next_spectator)
        self._next_spectator = slot + gap
        if slot > now:
            await asyncio.sleep(slot - now)

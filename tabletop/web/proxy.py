"""Which client headers the server believes: the strict ``Host`` grammar and the trusted
reverse proxies of ``serve --forwarded-allow-ips``.

A client's ``X-Forwarded-For``, ``-Proto`` and ``-Host`` are believed only from a peer
that is a configured proxy (an address or a network, ``*`` for any); from anyone else
they are ignored, so no client can point the links another person is handed at another
site, nor pass for another address in the per-address limits. From a trusted proxy:

- ``X-Forwarded-For``: the client is the rightmost address that is not itself a trusted
  proxy (what nginx's ``$proxy_add_x_forwarded_for`` appends cannot be forged by the
  client, whatever it sent before it);
- ``X-Forwarded-Proto``: ``http`` or ``https``, the scheme of the links;
- ``X-Forwarded-Host``: one header naming one host in the grammar below (the guard then
  checks it is an allowed name), the host of the links.

:class:`Proxied` is ASGI middleware that applies them to the connection's scope (uvicorn
is run with its own proxy handling off).
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterable
from typing import Any

from tabletop.core.errors import UsageError
from tabletop.core.i18n.text import Domain

_ = Domain("tabletop")

FORWARDED_HOST = "tabletop.forwarded_host"  # the scope key of a trusted X-Forwarded-Host
TRUSTED = "tabletop.proxied"  # the scope key set when the peer is a trusted proxy

_LABEL = r"[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?"
_NETLOC = re.compile(
    rf"(?P<name>{_LABEL}(?:\.{_LABEL})*\.?|\[(?P<v6>[0-9a-f:.]+)\])(?::(?P<port>[0-9]{{1,5}}))?",
    re.IGNORECASE,
)


def split_netloc(text: str) -> tuple[str, int | None] | None:
    """``(host, port)`` of a ``Host`` value in the strict grammar (a DNS name or IPv4
    address, or ``[IPv6]``, then ``:PORT`` 1-65535 if any), the host lower case without
    brackets; None for anything else (``127.0.0.1:80@evil.example``, a path, a space)."""
    if len(text) > 255:
        return None
    found = _NETLOC.fullmatch(text)
    if found is None:
        return None
    port = int(found["port"]) if found["port"] is not None else None
    if port is not None and not 1 <= port <= 65535:
        return None
    if found["v6"] is not None:
        try:
            ipaddress.IPv6Address(found["v6"])
        except ValueError:
            return None
        return found["v6"].lower(), port
    return found["name"].lower().rstrip("."), port


def networks(
    entries: Iterable[str],
) -> tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...] | None:
    """The trusted proxies of ``--forwarded-allow-ips`` (None: ``*``, any peer);
    UsageError naming a bad entry."""
    found: list[ipaddress.IPv4Network | ipaddress.IPv6Network] = []
    for entry in entries:
        for part in entry.split(","):
            part = part.strip()
            if not part:
                continue
            if part == "*":
                return None
            try:
                found.append(ipaddress.ip_network(part, strict=False))
            except ValueError:
                raise UsageError(
                    _(
                        "--forwarded-allow-ips takes addresses or networks of the proxies "
                        "in front (127.0.0.1, 10.0.0.0/8, or * for any), not {entry}",
                        entry=repr(part),
                    )
                ) from None
    return tuple(found)


class Trust:
    """Whether a peer address is a trusted proxy."""

    def __init__(self, entries: Iterable[str]) -> None:
        entries = tuple(entries)
        self.any = bool(entries) and networks(entries) is None
        self.nets = networks(entries) or ()

    def __bool__(self) -> bool:
        return self.any or bool(self.nets)

    def __call__(self, address: str) -> bool:
        if self.any:
            return True
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            return False
        return any(ip in net for net in self.nets)


def _values(headers: list[tuple[bytes, bytes]], name: bytes) -> list[str]:
    return [v.decode("latin-1") for k, v in headers if k.lower() == name]


class Proxied:
    """ASGI middleware: a trusted proxy's forwarded headers applied to the scope."""

    def __init__(self, app: Any, allow: Iterable[str]) -> None:
        self.app = app
        self.trust = Trust(allow)

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] in ("http", "websocket") and self.trust:
            client = scope.get("client")
            if client is not None and self.trust(client[0]):
                scope = self.forwarded(dict(scope))
        await self.app(scope, receive, send)

    def forwarded(self, scope: dict[str, Any]) -> dict[str, Any]:
        headers = scope["headers"]
        scope[TRUSTED] = True
        hops = [h.strip() for v in _values(headers, b"x-forwarded-for") for h in v.split(",")]
        for hop in reversed(hops):
            try:
                ipaddress.ip_address(hop)
            except ValueError:
                break  # garbage: nothing left of it can be believed
            scope["client"] = (hop, 0)
            if not self.trust(hop):
                break
        protos = _values(headers, b"x-forwarded-proto")
        if len(protos) == 1 and protos[0].strip().lower() in ("http", "https"):
            secure = protos[0].strip().lower() == "https"
            if scope["type"] == "websocket":
                scope["scheme"] = "wss" if secure else "ws"
            else:
                scope["scheme"] = "https" if secure else "http"
        hosts = _values(headers, b"x-forwarded-host")
        if hosts:
            scope[FORWARDED_HOST] = hosts[0].strip() if len(hosts) == 1 else ""
        return scope

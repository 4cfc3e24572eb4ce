"""Where the pages a connection sees were served from: the base of every link we hand out.

A link (a seat's, the spectator's, a rematch's, the host page's) must be a page URL that
the person's browser can open, on the origin their page came from: ``http(s)://HOST/``,
never the websocket's ``ws://``, and never on another site. In order: ``serve
--public-url`` when given; otherwise, from a trusted proxy (``--forwarded-allow-ips``,
:mod:`tabletop.web.proxy`), its ``X-Forwarded-Proto`` / ``X-Forwarded-Host`` (or the
``Host`` it passed on); otherwise the request's own scheme (``ws`` read as ``http``,
``wss`` as ``https``), the host name of its ``Host`` (which the guard checked is an
allowed name) and the port the server listens on.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tabletop.core.errors import UsageError
from tabletop.core.i18n.text import Domain
from tabletop.web.proxy import FORWARDED_HOST, TRUSTED, split_netloc

_ = Domain("tabletop")

PAGE_SCHEME = {"ws": "http", "wss": "https", "http": "http", "https": "https"}
DEFAULT_PORT = {"http": 80, "https": 443}


def public_base(url: str) -> str:
    """``--public-url`` checked and ended with one slash; UsageError names what is allowed."""
    text = url.strip()
    scheme, sep, rest = text.partition("://")
    if not sep or scheme.lower() not in ("http", "https") or not rest.strip("/"):
        raise UsageError(
            _(
                "--public-url must be an http:// or https:// address such as "
                "https://games.example.org/, not {url}",
                url=repr(url),
            )
        )
    return f"{scheme.lower()}://{rest.rstrip('/')}/"


def page_base(scope: Mapping[str, Any], public: str | None) -> str:
    """The base URL (ending in ``/``) of the pages for one request or handshake (its
    ASGI scope, after :class:`tabletop.web.proxy.Proxied` and the host guard)."""
    if public:
        return public
    scheme = PAGE_SCHEME.get(str(scope.get("scheme", "http")).lower(), "http")
    root = str(scope.get("root_path", "")).rstrip("/")
    hosts = [v.decode("latin-1") for k, v in scope.get("headers", ()) if k.lower() == b"host"]
    asked = str(scope.get(FORWARDED_HOST) or (hosts[0] if hosts else "")).strip()
    found = split_netloc(asked)
    name, port = found if found is not None else ("localhost", None)
    server = scope.get("server")
    if not scope.get(TRUSTED) and server is not None and server[1] is not None:
        port = int(server[1])  # a client's Host names the host, never another port
    shown = f"[{name}]" if ":" in name else name
    if port is not None and port != DEFAULT_PORT[scheme]:
        shown += f":{port}"
    return f"{scheme}://{shown}{root}/"

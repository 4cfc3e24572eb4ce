"""Where the pages a connection sees were served from: the base of every link we hand out.

A link (a seat's, the spectator's, a rematch's, the host page's) must be a page URL that
the person's browser can open, on the origin their page came from: ``http(s)://HOST/``,
never the websocket's ``ws://``. In order: ``serve --public-url`` when given; otherwise a
reverse proxy's ``X-Forwarded-Proto`` / ``X-Forwarded-Host``; otherwise the request's own
scheme (``ws`` read as ``http``, ``wss`` as ``https``) and ``Host``.
"""

from __future__ import annotations

from collections.abc import Mapping

from tabletop.core.errors import UsageError
from tabletop.core.i18n.text import Domain

_ = Domain("tabletop")

PAGE_SCHEME = {"ws": "http", "wss": "https", "http": "http", "https": "https"}


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


def page_base(
    scheme: str, host: str, root_path: str, headers: Mapping[str, str], public: str | None
) -> str:
    """The base URL (ending in ``/``) of the pages for one request or handshake."""
    if public:
        return public
    forwarded_proto = headers.get("x-forwarded-proto", "").split(",")[0].strip().lower()
    forwarded_host = headers.get("x-forwarded-host", "").split(",")[0].strip()
    page_scheme = PAGE_SCHEME.get(forwarded_proto) or PAGE_SCHEME.get(scheme.lower(), "http")
    netloc = forwarded_host or headers.get("host") or host
    return f"{page_scheme}://{netloc}{root_path.rstrip('/')}/"

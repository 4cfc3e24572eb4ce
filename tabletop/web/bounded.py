"""Bounded reads: nothing a client sends is held past its limit while it is being read.

- a request's head (request line and headers) past :data:`MAX_HEAD` bytes is answered
  431 and the connection closed as the bytes arrive (:mod:`.headlimit`: uvicorn's
  httptools protocol counting them; uvicorn's own has no such bound);
- a body past its limit is refused (413) by its ``Content-Length`` before a byte of it is
  read, or, sent without one (chunked), as soon as the limit is passed
  (:func:`read_body`); an aborted body is :class:`Aborted` (one log line);
- a websocket frame past ``serve.WS_MAX_SIZE`` is refused by its length, before its
  payload is read (uvicorn's websockets, ``ws_max_size``), closing 1009.
"""

from __future__ import annotations

import logging

from starlette.requests import ClientDisconnect, Request

from tabletop.core.errors import TabletopError
from tabletop.core.i18n.text import Domain

log = logging.getLogger("tabletop.web")
_ = Domain("tabletop")

MAX_HEAD = 65_536  # bytes of a request line and headers


class TooLarge(TabletopError):
    """A body past its limit (HTTP 413)."""


class Aborted(Exception):
    """The client went away in the middle of its body."""


def too_large(limit: int) -> TooLarge:
    return TooLarge(_("request too large (at most {limit} bytes)", limit=limit))


async def read_body(request: Request, limit: int) -> bytes:
    """The request's body, read only up to ``limit`` bytes: :class:`TooLarge` past it
    (its ``Content-Length`` alone refuses it unread), :class:`Aborted` if the client
    goes away meanwhile."""
    length = request.headers.get("content-length")
    if length is not None and (not length.strip().isdigit() or int(length) > limit):
        raise too_large(limit)
    chunks: list[bytes] = []
    size = 0
    try:
        async for chunk in request.stream():
            size += len(chunk)
            if size > limit:
                raise too_large(limit)
            chunks.append(chunk)
    except ClientDisconnect:
        raise Aborted() from None
    return b"".join(chunks)

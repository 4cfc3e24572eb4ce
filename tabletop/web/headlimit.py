"""uvicorn's httptools protocol refusing a request head past ``bounded.MAX_HEAD`` bytes
(431, the connection closed) as the bytes arrive: httptools itself keeps a header of
any length in memory (a 130 MB header line took the server from 52 to 293 MB). A
request answered before its body was read is closed, not drained to its end."""

from __future__ import annotations

import json
import logging
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from tabletop.core.i18n.text import Domain
from tabletop.web.bounded import MAX_HEAD

log = logging.getLogger("tabletop.web")
_ = Domain("tabletop")


class BoundedHttp(HttpToolsProtocol):
    """Counts the bytes of each request's head; past :data:`MAX_HEAD`, a 431."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.head_bytes = 0
        self.in_head = True

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self.head_bytes = 0
        self.in_head = True

    def on_headers_complete(self) -> None:
        self.in_head = False
        super().on_headers_complete()

    def on_response_complete(self) -> None:
        """A response sent before its request's body was read (refused: 413, 415...):
        close rather than read the rest of the body, however long, to throw it away."""
        cycle = getattr(self, "cycle", None)
        super().on_response_complete()
        if cycle is not None and cycle.more_body and not self.transport.is_closing():
            self.transport.close()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if not self.in_head or self.transport.is_closing():
            return
        self.head_bytes += len(data)
        if self.head_bytes > MAX_HEAD:
            self.refuse_head()

    def refuse_head(self) -> None:
        said = _("request headers too large (at most {limit} bytes)", limit=MAX_HEAD)
        body = json.dumps({"error": str(said)}).encode()
        log.warning("a request's headers passed %d bytes: refused (431)", MAX_HEAD)
        self.transport.write(
            b"HTTP/1.1 431 Request Header Fields Too Large\r\n"
            b"content-type: application/json\r\ncontent-length: %d\r\n"
            b"connection: close\r\n\r\n%s" % (len(body), body)
        )
        self.in_head = False
        self.transport.close()

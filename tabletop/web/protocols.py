"""The protocols uvicorn serves with: a request's head bounded as it arrives
(:mod:`.headlimit`) and websocket text frames checked for UTF-8 (:mod:`.wsclean`)."""

from __future__ import annotations

from typing import Any

from tabletop.web.bounded import MAX_HEAD


def uvicorn_settings() -> dict[str, Any]:
    """The uvicorn settings bounding the head (:mod:`.headlimit`, or h11's own limit) and
    checking text frames."""
    settings: dict[str, Any]
    try:
        from tabletop.web.headlimit import BoundedHttp

        settings = {"http": BoundedHttp}
    except ImportError:  # no httptools: uvicorn's h11 bounds the head itself
        settings = {"http": "h11", "h11_max_incomplete_event_size": MAX_HEAD}
    try:  # a text frame that is not UTF-8: one log line, no traceback
        from tabletop.web.wsclean import CleanWebSockets

        settings["ws"] = CleanWebSockets
    except ImportError:
        pass
    return settings

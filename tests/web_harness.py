"""A harness for the browser boards with no game server: a loopback HTTP server that serves
a tiny page and each game's ``web/board.js`` (at ``/games/{id}/board.js``, as the real
server does), real ``position`` messages built from a :class:`Match`, and Chromium.

The page exposes ``show(game, position, seat)`` (renders the board; every ``act(text)``
is appended to ``window.acted``) and ``window.acted``. Decoy buttons with the boards'
``data-*`` names sit before the board, as a match page's own controls might; clicking one
sets ``window.decoyClicked``.
"""

from __future__ import annotations

import importlib.resources
import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from tabletop.core.match import Match

PACKAGES = {
    "quarto": "tabletop_quarto",
    "quartino": "tabletop_quartino",
    "ctverak": "tabletop_ctverak",
}

PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><title>board harness</title>
<style>body { margin: 12px; background: #fbf8f2; }</style></head>
<body>
<div id="decoys" onclick="window.decoyClicked = true"
     style="position: fixed; bottom: 0; right: 0; font-size: 9px; opacity: 0.5">
  <button data-action="end">end</button><button data-action="meld">meld</button>
  <button data-action="quarto">quarto</button><span data-pile="stock"></span>
</div>
<div id="root"></div>
<script type="module">
window.acted = [];
const boards = {};
window.show = async (game, position, seat) => {
  if (!boards[game]) boards[game] = await import(`/games/${game}/board.js`);
  window.acted = [];
  boards[game].render(document.getElementById("root"), position,
                      (text) => window.acted.push(text), seat);
};
window.ready = true;
</script></body></html>
"""


STATIC = Path(__file__).resolve().parent.parent / "tabletop" / "web" / "static"
SHARED = ("i18n.js", "board-keys.js", "board-dom.js")  # what boards import from /static/


def board_source(game_id: str) -> bytes:
    """The bytes of a built-in game's board module, from its installed package."""
    path = importlib.resources.files(PACKAGES[game_id]).joinpath("web/board.js")
    return path.read_bytes()


class _Handler(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        parts = self.path.split("?")[0].strip("/").split("/")
        if parts == [""]:
            body, kind = PAGE.encode(), "text/html; charset=utf-8"
        elif len(parts) == 3 and parts[0] == "games" and parts[1] in PACKAGES:
            body, kind = board_source(parts[1]), "text/javascript"
        elif len(parts) == 2 and parts[0] == "static" and parts[1] in SHARED:
            # i18n.js: what a board translates with (English here); board-keys.js: its keys
            body, kind = (STATIC / parts[1]).read_bytes(), "text/javascript"
        else:
            self.send_error(404)
            return
        self.send_response(200)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:  # quiet
        pass


@contextmanager
def serve() -> Iterator[str]:
    """A harness server on a free loopback port; yields its base URL."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


def position(match: Match, seat: int | None) -> dict[str, Any]:
    """The websocket ``position`` message ``seat`` would receive (the contract's fields)."""
    game, state = match.game, match.state
    outcome = match.outcome()
    to_act = match.player()
    scores = game.scores(state)
    message = {
        "type": "position",
        "number": len(match.actions),
        "status": "ongoing" if outcome is None else "over",
        "to_act": to_act,
        "prompt": game.prompt(state) if outcome is None else "game over",
        "legal": match.listing_text() if seat is not None and seat == to_act else [],
        "view": game.view(state, seat),
        "scores": None if scores is None else {str(k): v for k, v in scores.items()},
        "winners": list(outcome.winners) if outcome else [],
        "reason": outcome.reason if outcome else "",
        "clock": None,
        "presence": {},
    }
    carried: dict[str, Any] = json.loads(json.dumps(message))  # as a websocket carries it
    return carried


def show(page: Any, game_id: str, message: dict[str, Any], seat: int | None) -> None:
    """Render ``message`` on the harness page."""
    page.evaluate("([g, p, s]) => window.show(g, p, s)", [game_id, message, seat])


def acted(page: Any) -> list[str]:
    """The texts the board passed to ``act`` since the last render."""
    result: list[str] = page.evaluate("window.acted")
    return result

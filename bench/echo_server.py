"""The bare stack for ``bench/bench_web.py``'s baseline: a minimal Starlette websocket
relay, run by uvicorn with ``tabletop serve``'s settings (``tabletop.web.serve``), that
speaks just enough of the match protocol for the same clients to drive it.

    python -m bench.echo_server --port P [--length 20] [--sizes last=80,log=90,position=400]

``POST /api/matches`` makes a match (two seats, tokens ``1`` and ``2``); ``/ws/{id}?token=``
sends the seat a ``position`` on connecting, and an ``action`` at the current number moves
the match on: every seat of it is sent the frames the real server sends after an action
(``last``, ``log``, ``position``), each padded to the size given (the real server's mean,
measured in the same run), the match over after ``--length`` actions. No rules, no
store, no views: what is left is what Starlette, uvicorn and the JSON of the frames cost.
"""

from __future__ import annotations

import argparse
import json
import secrets
from dataclasses import dataclass, field

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from tabletop.web.serve import WS_MAX_SIZE

FRAMES = ("last", "log", "position")  # what each seat is sent after an action


@dataclass
class RelayMatch:
    number: int = 0
    seats: dict[int, WebSocket] = field(default_factory=dict)


@dataclass
class Relay:
    """The matches and the shape of the frames (``sizes``: characters by type)."""

    length: int
    sizes: dict[str, int]
    matches: dict[str, RelayMatch] = field(default_factory=dict)

    def frame(self, kind: str, match: RelayMatch, seat: int) -> str:
        over = match.number >= self.length
        to_act = None if over else match.number % 2 + 1
        message = {
            "type": kind,
            "number": match.number,
            "status": "over" if over else "ongoing",
            "to_act": to_act,
            "legal": ["a1"] if seat == to_act else [],
            "pad": "",
        }
        short = self.sizes.get(kind, 0) - len(json.dumps(message))
        message["pad"] = "x" * max(0, short)
        return json.dumps(message)


def build(relay: Relay) -> Starlette:
    async def create(request: Request) -> Response:
        await request.body()
        match_id = secrets.token_urlsafe(8)
        relay.matches[match_id] = RelayMatch()
        seats = [{"seat": s, "token": str(s)} for s in (1, 2)]
        return JSONResponse({"id": match_id, "seats": seats}, status_code=201)

    async def socket(websocket: WebSocket) -> None:
        await websocket.accept()
        match = relay.matches.get(websocket.path_params["id"])
        seat = int(websocket.query_params.get("token") or 0)
        if match is None or seat not in (1, 2):
            await websocket.close(code=1008)
            return
        match.seats[seat] = websocket
        await websocket.send_text(relay.frame("position", match, seat))
        try:
            while True:
                message = json.loads(await websocket.receive_text())
                if message.get("type") != "action" or message.get("number") != match.number:
                    continue
                if match.number >= relay.length:
                    continue
                match.number += 1
                for other, ws in list(match.seats.items()):
                    for kind in FRAMES:
                        await ws.send_text(relay.frame(kind, match, other))
        except WebSocketDisconnect:
            pass
        finally:
            match.seats.pop(seat, None)
            if not match.seats:
                relay.matches.pop(websocket.path_params["id"], None)

    return Starlette(
        routes=[
            Route("/api/matches", create, methods=["POST"]),
            WebSocketRoute("/ws/{id}", socket),
        ]
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--length", type=int, default=20, help="actions a match lasts")
    parser.add_argument("--sizes", default="", help="characters by frame type: last=N,log=N,...")
    args = parser.parse_args()
    sizes = {k: int(v) for k, v in (p.split("=") for p in args.sizes.split(",") if p)}
    app = build(Relay(args.length, sizes))
    print(f"echo server on 127.0.0.1:{args.port}", flush=True)
    config = uvicorn.Config(  # as tabletop.web.serve.serve runs the real server
        app,
        host="127.0.0.1",
        port=args.port,
        log_level="warning",
        ws_max_size=WS_MAX_SIZE,
        ws_per_message_deflate=False,
    )
    uvicorn.Server(config).run()


if __name__ == "__main__":
    main()

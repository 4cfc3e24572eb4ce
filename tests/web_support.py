"""Shared pieces of the web tests: a live server (uvicorn in a thread, or `tabletop serve`
in its own process) on a free loopback port, and a websocket client that keeps every
message it received."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, cast

import uvicorn
from websockets.sync.client import ClientConnection, connect
from websockets.typing import Origin

from tabletop.web.app import build_app
from tabletop.web.config import LOOPBACK_HOSTS, ServerConfig
from tabletop.web.lifeline import child_dies_with_us

Message = dict[str, Any]
OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # loopback: no proxy


# Starlette's test client names its host "testserver"; one worker process is enough.
TEST_CONFIG = ServerConfig(allowed_hosts=("testserver", *LOOPBACK_HOSTS), ai_workers=1)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@contextmanager
def live_server(db: Path) -> Iterator[str]:
    """uvicorn serving ``db`` in a thread; yields the base URL (``http://127.0.0.1:P/``)."""
    port = free_port()
    app = build_app(db, TEST_CONFIG)
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        if not thread.is_alive():
            raise RuntimeError("the server did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}/"
    finally:
        server.should_exit = True
        thread.join(30)


def wait_listening(port: int, process: subprocess.Popen[str]) -> None:
    while True:
        if process.poll() is not None:
            raise RuntimeError(
                f"tabletop serve exited: {process.stderr.read() if process.stderr else ''}"
            )
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.05)


def serve_command(db: Path, port: int, *flags: str) -> list[str]:
    return [sys.executable, "-m", "tabletop", "serve", "--port", str(port), "--db", str(db), *flags]


def start_process(db: Path, port: int, *flags: str) -> subprocess.Popen[str]:
    """`tabletop serve` (with ``flags``) in its own process, listening once this returns."""
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    process = subprocess.Popen(
        serve_command(db, port, *flags),
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
        preexec_fn=child_dies_with_us,  # a killed test run or benchmark leaves no server
    )  # fmt: skip
    wait_listening(port, process)
    return process


def post(
    base: str, path: str, body: Any, headers: dict[str, str] | None = None
) -> tuple[int, Any]:
    """POST ``body`` as JSON (or as it is, if bytes); the status and the decoded answer."""
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    request = urllib.request.Request(
        base + path.lstrip("/"), data, {"content-type": "application/json", **(headers or {})}
    )
    try:
        with OPENER.open(request, timeout=30) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def get(base: str, path: str, headers: dict[str, str] | None = None) -> tuple[int, str]:
    request = urllib.request.Request(base + path.lstrip("/"), headers=headers or {})
    try:
        with OPENER.open(request, timeout=30) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()


class Client:
    """A websocket to a match that records every message (``messages``) it received."""

    def __init__(
        self,
        base: str,
        match_id: str,
        token: str | None = None,
        origin: str | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        url = base.replace("http://", "ws://") + f"ws/{match_id}"
        if token:
            url += f"?token={token}"
        self.ws: ClientConnection = connect(
            url, origin=cast(Origin | None, origin), max_size=2**24, proxy=None, legacy=True,
            additional_headers=headers,
        )  # fmt: skip
        self.messages: list[Message] = []
        self.position: Message = {}

    def receive(self, timeout: float = 60) -> Message:
        message: Message = json.loads(self.ws.recv(timeout))
        self.messages.append(message)
        if message["type"] == "position":
            self.position = message
        return message

    def until(self, done: Callable[[Message], bool], timeout: float = 60) -> Message:
        """Read until a message satisfies ``done``; returns it."""
        while True:
            message = self.receive(timeout)
            if done(message):
                return message

    def at(self, number: int) -> Message:
        """Read until the position numbered ``number`` (or a later one) arrived."""
        if self.position.get("number", -1) >= number:
            return self.position
        return self.until(lambda m: m["type"] == "position" and m["number"] >= number)

    def send(self, message: Message) -> None:
        self.ws.send(json.dumps(message))

    def act(self, text: str) -> None:
        self.send({"type": "action", "action": text, "number": self.position["number"]})

    def close(self) -> None:
        self.ws.close()


def first_move(mover: Client, *others: Client) -> None:
    """``mover`` plays its first legal action; every client is then at position 1."""
    mover.act(mover.position["legal"][0])
    for client in (mover, *others):
        client.at(1)

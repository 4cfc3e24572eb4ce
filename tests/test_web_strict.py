"""Clean logs and strict values (issue 39, item 7), against a real `tabletop serve`:

- one log line, never a traceback, for a text frame that is not UTF-8 (closed 1007), a
  request body cut off by its client, and a store that fails (SQLite locked by another
  process: the action refused, the match unchanged);
- the create request is typed as JSON is: ``true`` is no number (``players``,
  ``move_time``, a game's whole-number option), ``1`` no yes (``spectators``, a game's
  yes/no option); each a one-line 400 naming the field;
- every route answers its methods: ``HEAD`` as ``GET`` without the body (``HEAD
  /api/matches`` answered 415), other methods 405.
"""

from __future__ import annotations

import socket
import sqlite3
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed

from tests.web_support import OPENER, Client, free_port, get, post, start_process


class Served:
    def __init__(self, db: Path) -> None:
        self.db = db
        self.port = free_port()
        self.process = start_process(db, self.port)
        self.base = f"http://127.0.0.1:{self.port}/"

    def log(self) -> str:
        """Everything the server wrote to its log (it is stopped first)."""
        self.process.kill()
        self.process.wait(30)
        assert self.process.stderr is not None
        return self.process.stderr.read()


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    server = Served(tmp_path / "m.sqlite3")
    try:
        yield server
    finally:
        if server.process.poll() is None:
            server.process.kill()
            server.process.wait(30)


def create(base: str, **body: Any) -> tuple[int, Any]:
    return post(base, "api/matches", {"game": "quarto", "players": 2, **body})


def test_one_line_for_a_bad_frame_an_aborted_body_and_a_failed_store(served: Served) -> None:
    status, links = create(served.base)
    assert status == 201, links
    tokens = [s["token"] for s in links["seats"]]
    bad = Client(served.base, links["id"], tokens[1])
    bad.at(0)
    bad.ws.socket.sendall(bytes([0x81, 0x82]) + b"\0\0\0\0" + b"\xff\xfe")  # not UTF-8
    with pytest.raises(ConnectionClosed):
        while True:  # until the server closes it
            bad.ws.recv(30)
    assert bad.ws.protocol.close_code == 1007
    with socket.create_connection(("127.0.0.1", served.port)) as sock:  # a body cut off
        sock.sendall(
            b"POST /api/matches HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json"
            b"\r\nContent-Length: 1000\r\n\r\n{\"game\""
        )
        time.sleep(0.5)  # the server is reading the body when the client goes
    player = Client(served.base, links["id"], tokens[0])
    player.at(0)
    locker = sqlite3.connect(served.db, timeout=30)
    locker.execute("BEGIN EXCLUSIVE")  # another process holds the database
    try:
        player.act("give LSRF")
        error = player.until(lambda m: m["type"] == "error", timeout=120)
    finally:
        locker.rollback()
        locker.close()
    assert error.get("error") or error.get("reason"), error
    player.act("give LSRF")  # the match is as it was: the same action at the same number
    assert player.at(1)["number"] == 1
    player.close()
    log = served.log()
    assert "Traceback" not in log, log
    lines = log.strip().splitlines()
    assert sum("not UTF-8" in line for line in lines) == 1, log
    assert sum("went away in the middle" in line for line in lines) == 1, log
    assert sum("could not be stored: database is locked" in line for line in lines) == 1, log


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"players": True}, "players"),
        ({"move_time": True}, "move_time"),
        ({"spectators": 1}, "spectators"),
        ({"hints": "yes"}, "hints"),
        ({"seats": [{"seat": True, "ai": "1"}]}, "seat"),
        ({"options": {"squares": 1}}, "squares"),
    ],
)
def test_values_are_typed_as_json_is(served: Served, body: dict[str, Any], field: str) -> None:
    status, answer = create(served.base, **body)
    assert status == 400, answer
    assert field in answer["error"] and "\n" not in answer["error"], answer
    assert ": not a" in answer["error"], answer  # its type named, not read as another


def test_a_whole_number_option_refuses_true(served: Served) -> None:
    from tabletop.core.registry import registry

    status, answer = post(served.base, "api/matches", {"game": "connect4",
                                                       "options": {"rows": True}})  # fmt: skip
    if "connect4" not in registry().ids():
        pytest.skip("the connect4 example is not installed")
    assert status == 400 and "rows" in answer["error"], answer
    assert "not a whole number" in answer["error"], answer  # not read as 1 (then too few)
    assert create(served.base, options={"squares": True})[0] == 201  # right types pass


def method(base: str, path: str, verb: str) -> tuple[int, bytes]:
    request = urllib.request.Request(base + path.lstrip("/"), method=verb)
    try:
        with OPENER.open(request, timeout=30) as answer:
            return answer.status, answer.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read()


def test_every_route_answers_its_methods(served: Served) -> None:
    status, links = create(served.base)
    assert status == 201
    mid, token = links["id"], links["seats"][0]["token"]
    paths = [
        "/", f"/match/{mid}", links["host_url"].split(str(served.port), 1)[1],
        "/games/quarto/board.js", "/games/quarto/rules", "/api/games", "/api/matches",
        f"/api/matches/{mid}/record?token={token}", "/api/i18n?lang=cs",
        "/api/games/quarto/rules?lang=cs", f"/api/matches/{mid}/coach?token={token}",
        f"/api/matches/{mid}/hint?token={token}", f"/api/matches/{mid}/review?token={token}",
        f"/match/{mid}/review", "/static/style.css",
    ]  # fmt: skip
    for path in paths:
        got, _ = get(served.base, path)
        head, body = method(served.base, path, "HEAD")
        assert head == got and body == b"", (path, got, head)
        for verb in ("PUT", "DELETE", "PATCH"):
            assert method(served.base, path, verb)[0] == 405, (path, verb)

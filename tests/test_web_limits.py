"""What one visitor cannot do to a real `tabletop serve` process (issue 22): other hosts
and other sites' pages, form posts, too many matches or sockets, hostile JSON, matches of
computers only; and what a broken or failing database does (one line, nothing lost)."""

from __future__ import annotations

import http.client
import json
import os
import shutil
import sqlite3
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web_support import (
    Client,
    free_port,
    get,
    post,
    serve_command,
    start_process,
)

QUARTO = {"game": "quarto", "players": 2, "options": {}}


@pytest.fixture()
def server(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[str]:
    """A served process, with the flags a test names by ``@pytest.mark.parametrize`` or
    none; yields its base URL."""
    flags: tuple[str, ...] = getattr(request, "param", ())
    port = free_port()
    process = start_process(tmp_path / "m.sqlite3", port, *flags)
    try:
        yield f"http://127.0.0.1:{port}/"
    finally:
        process.terminate()
        process.wait(30)


def raw(
    base: str, method: str, path: str, headers: dict[str, str], body: bytes = b""
) -> tuple[int, str]:
    """One request with exactly these headers (Host included)."""
    host, port = base.removeprefix("http://").strip("/").split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=30)
    try:
        connection.request(method, path, body=body or None, headers=headers)
        answer = connection.getresponse()
        return answer.status, answer.read().decode()
    finally:
        connection.close()


def one_line_error(text: str) -> str:
    data = json.loads(text)
    assert set(data) == {"error"} and "\n" not in data["error"] and "Traceback" not in text
    message: str = data["error"]
    return message


# -- hosts and other sites -----------------------------------------------------------------
def test_an_unknown_host_is_refused_on_http_and_websocket(server: str) -> None:
    port = server.rsplit(":", 1)[1].strip("/")
    status, text = raw(server, "GET", "/", {"Host": f"rebind.example:{port}"})
    assert status == 400 and "host 'rebind.example' is not allowed" in one_line_error(text)
    assert raw(server, "GET", "/", {"Host": f"localhost:{port}"})[0] == 200
    made = post(server, "/api/matches", QUARTO)[1]
    upgrade = {
        "Host": f"rebind.example:{port}", "Origin": f"http://rebind.example:{port}",
        "Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Version": "13",
        "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
    }  # fmt: skip
    status, _ = raw(server, "GET", f"/ws/{made['id']}", upgrade)
    assert status == 403  # the handshake is refused: never upgraded


@pytest.mark.parametrize("server", [("--allowed-host", "games.example")], indirect=True)
def test_allowed_hosts_are_the_ones_named(server: str) -> None:
    port = server.rsplit(":", 1)[1].strip("/")
    assert raw(server, "GET", "/", {"Host": f"games.example:{port}"})[0] == 200
    assert raw(server, "GET", "/", {"Host": f"127.0.0.1:{port}"})[0] == 400


def test_another_sites_page_can_neither_post_nor_connect(server: str) -> None:
    status, answer = post(server, "/api/matches", QUARTO, {"origin": "http://evil.example"})
    assert status == 400 and "another site" in answer["error"]
    made = post(server, "/api/matches", QUARTO)[1]
    with pytest.raises(Exception, match="403"):
        Client(server, made["id"], made["seats"][0]["token"], origin="http://evil.example")


@pytest.mark.parametrize(
    "kind", ["application/x-www-form-urlencoded", "text/plain", "multipart/form-data; b=x", ""]
)
def test_a_create_request_must_be_json(server: str, kind: str) -> None:
    """A plain cross-site form post needs no CORS preflight; JSON does."""
    port = server.rsplit(":", 1)[1].strip("/")
    headers = (
        {"Host": f"127.0.0.1:{port}", "Content-Type": kind}
        if kind
        else {"Host": f"127.0.0.1:{port}"}
    )
    status, text = raw(server, "POST", "/api/matches", headers, json.dumps(QUARTO).encode())
    assert status == 415 and "Content-Type: application/json" in one_line_error(text)


# -- admission limits ---------------------------------------------------------------------
@pytest.mark.parametrize("server", [("--max-creates-per-minute", "3")], indirect=True)
def test_matches_created_a_minute_by_one_address_are_limited(server: str) -> None:
    assert [post(server, "/api/matches", QUARTO)[0] for _ in range(3)] == [201] * 3
    status, answer = post(server, "/api/matches", QUARTO)
    assert status == 429 and "at most 3 a minute" in answer["error"]
    assert "--max-creates-per-minute" in answer["error"]


@pytest.mark.parametrize(
    "server", [("--max-open-matches-per-client", "2", "--max-open-matches", "3")], indirect=True
)
def test_ongoing_matches_per_address_and_in_all_are_limited(server: str) -> None:
    assert [post(server, "/api/matches", QUARTO)[0] for _ in range(2)] == [201] * 2
    status, answer = post(server, "/api/matches", QUARTO)
    assert status == 429 and "at most 2 created by one address" in answer["error"]


@pytest.mark.parametrize("server", [("--max-open-matches", "1")], indirect=True)
def test_the_server_is_full_at_its_total(server: str) -> None:
    assert post(server, "/api/matches", QUARTO)[0] == 201
    status, answer = post(server, "/api/matches", QUARTO)
    assert status == 503 and "at most 1 ongoing matches" in answer["error"]


@pytest.mark.parametrize("server", [("--max-sockets-per-client", "2")], indirect=True)
def test_websockets_per_address_are_limited(server: str) -> None:
    made = post(server, "/api/matches", QUARTO)[1]
    first, second = Client(server, made["id"]), Client(server, made["id"])
    third = Client(server, made["id"])
    refusal = third.receive()
    assert refusal["type"] == "error" and "at most 2 from one address" in refusal["error"]
    first.close()
    time.sleep(0.3)
    fourth = Client(server, made["id"])
    assert fourth.until(lambda m: m["type"] == "position")["number"] == 0
    for client in (second, third, fourth):
        client.close()


def test_a_match_of_computers_only_needs_the_servers_consent(server: str) -> None:
    body = {**QUARTO, "seats": [{"seat": 1, "ai": "1"}, {"seat": 2, "ai": "1"}]}
    status, answer = post(server, "/api/matches", body)
    assert status == 403 and "--allow-computer-matches" in answer["error"]


# -- hostile JSON -------------------------------------------------------------------------
def test_json_nested_too_deep_is_a_400_and_a_usable_connection(server: str) -> None:
    deep = ("[" * 1000 + "]" * 1000).encode()
    status, answer = post(server, "/api/matches", deep)
    assert status == 400 and "nested deeper than 64 levels" in answer["error"]
    status, answer = post(server, "/api/matches", {"game": {"a": [1]}, "players": "two"})
    assert status == 400 and answer["error"].startswith("bad match request")
    made = post(server, "/api/matches", QUARTO)[1]
    player = Client(server, made["id"], made["seats"][0]["token"])
    player.at(0)
    player.ws.send("[" * 1000 + "]" * 1000)
    error = player.until(lambda m: m["type"] == "error")
    assert "nested deeper than 64 levels" in error["error"]
    player.send({"type": "action", "action": {"x": [[[]]]}, "number": "0"})
    assert "needs 'action'" in player.until(lambda m: m["type"] == "error")["error"]
    player.act("give DTRH")  # the connection still serves
    assert player.at(1)["number"] == 1
    player.close()
    assert get(server, "/api/matches?page=x")[0] == 400
    assert get(server, "/api/matches?page=2")[0] == 404


# -- the database at start ----------------------------------------------------------------
def start_fails(db: Path, *flags: str) -> str:
    """Start `tabletop serve` on ``db``; it must exit 1 with one line on stderr."""
    done = subprocess.run(
        serve_command(db, free_port(), *flags), capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 1, (done.returncode, done.stderr)
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in done.stderr, done.stderr
    return lines[0]


def test_a_database_that_cannot_be_used_ends_the_start_with_one_line(tmp_path: Path) -> None:
    assert "is a folder" in start_fails(tmp_path)
    corrupt = tmp_path / "corrupt.sqlite3"
    corrupt.write_bytes(b"this is no database, " * 400)
    assert "file is not a database" in start_fails(corrupt)
    newer = tmp_path / "newer.sqlite3"
    sqlite3.connect(newer).execute("PRAGMA user_version=99").connection.close()
    assert "newer tabletop" in start_fails(newer)


@pytest.mark.skipif(os.geteuid() != 0 or shutil.which("setpriv") is None, reason="needs root")
def test_a_folder_the_server_cannot_write_ends_the_start_with_one_line(tmp_path: Path) -> None:
    """Root writes anywhere, so the server runs as nobody here, on a folder it cannot write."""
    folder = tmp_path / "locked"
    folder.mkdir()
    os.chmod(tmp_path, 0o755)
    command = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
    done = subprocess.run(
        [*command, *serve_command(folder / "m.sqlite3", free_port())],
        capture_output=True, text=True, timeout=60, env={**os.environ, "HOME": str(tmp_path)},
    )  # fmt: skip
    assert done.returncode == 1 and len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert "cannot use the database" in done.stderr


# -- stored matches that no longer replay -------------------------------------------------
def play_and_stop(db: Path, moves: list[str]) -> dict[str, Any]:
    port = free_port()
    process = start_process(db, port)
    base = f"http://127.0.0.1:{port}/"
    made: dict[str, Any] = post(base, "/api/matches", QUARTO)[1]
    players = [Client(base, made["id"], s["token"]) for s in made["seats"]]
    for client in players:
        client.at(0)
    for number, text in enumerate(moves):
        mover = players[0] if number % 4 in (0, 3) else players[1]
        mover.at(number)
        mover.act(text)
        mover.at(number + 1)
    for client in players:
        client.close()
    process.terminate()
    process.wait(30)
    return made


def test_a_bad_row_or_a_broken_action_damages_only_its_match(tmp_path: Path) -> None:
    db = tmp_path / "m.sqlite3"
    broken = play_and_stop(db, ["give DTRH", "place a1", "give LTRH", "place b2"])
    sound = play_and_stop(db, ["give DTRH"])
    unreadable = play_and_stop(db, [])
    with sqlite3.connect(db) as edit:
        edit.execute(
            "UPDATE actions SET text='place a1' WHERE match=? AND number=4", (broken["id"],)
        )
        edit.execute("UPDATE matches SET options='{not json' WHERE id=?", (unreadable["id"],))
    port = free_port()
    process = start_process(db, port)
    base = f"http://127.0.0.1:{port}/"
    try:
        listing = json.loads(get(base, "/api/matches")[1])
        rows = {row["id"]: row for row in listing["matches"]}
        assert rows[sound["id"]]["damaged"] is None and rows[sound["id"]]["number"] == 1
        damage = rows[broken["id"]]["damaged"]
        assert rows[broken["id"]]["number"] == 3 and "action 4" in damage
        assert [u["id"] for u in listing["unserved"]] == [unreadable["id"]]
        assert "cannot be read" in listing["unserved"][0]["reason"]
        player = Client(base, broken["id"], broken["seats"][1]["token"])
        assert player.at(3)["number"] == 3
        assert "damaged" in player.until(lambda m: m["type"] == "error")["error"]
        player.act("place c3")
        assert "shown up to action 3" in player.until(lambda m: m["type"] == "error")["error"]
        player.close()
    finally:
        process.terminate()
        process.wait(30)


# -- a failing store ----------------------------------------------------------------------
def test_a_failed_write_is_refused_visibly_and_the_computer_retries(tmp_path: Path) -> None:
    """Another process holds the database's write lock: a new match and the person's
    action are refused with a visible error and told to nobody; the computer's reply
    (level 5 thinks for a second or two, time to take the lock) waits and is made once the
    lock is gone, without a restart."""
    db = tmp_path / "m.sqlite3"
    port = free_port()
    process = start_process(db, port)
    base = f"http://127.0.0.1:{port}/"
    lock = sqlite3.connect(db, isolation_level=None)
    try:
        made = post(base, "/api/matches", {**QUARTO, "seats": [{"seat": 2, "ai": "5"}]})[1]
        player = Client(base, made["id"], made["seats"][0]["token"])
        player.at(0)
        lock.execute("BEGIN EXCLUSIVE")
        status, answer = post(base, "/api/matches", QUARTO)
        assert status == 503 and "nothing was created" in answer["error"]
        player.act("give DTRH")
        error = player.until(lambda m: m["type"] == "error", timeout=30)
        assert "could not store" in error["error"] and player.position["number"] == 0
        lock.execute("COMMIT")
        player.act("give DTRH")
        player.at(1)
        lock.execute("BEGIN EXCLUSIVE")  # the computer's reply cannot be stored now
        error = player.until(lambda m: m["type"] == "error", timeout=30)
        assert "tries again" in error["error"] and player.position["number"] == 1
        lock.execute("COMMIT")
        assert player.at(3)["to_act"] == 1  # the computer placed and gave once stored
        listing = json.loads(get(base, "/api/matches")[1])
        assert [m["number"] for m in listing["matches"]] == [3]
        player.close()
    finally:
        lock.close()
        process.terminate()
        process.wait(30)

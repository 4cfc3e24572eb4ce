"""What issue 23 added to `tabletop serve`'s protocol, through Starlette's test client:
links on the page's own origin (a reverse proxy's headers, ``--public-url``), the host page,
the game log (whole, then entry by entry, as each connection may see it), table talk
(stored, limited, spectators read-only unless allowed), one undo request at a time and
only your own action, and the rules page rendered without a plugin's raw HTML."""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from tabletop.web.app import build_app
from tabletop.web.origin import public_base
from tabletop.web.rules_page import render_markdown
from tests.test_web_server import create, play, until
from tests.web_support import TEST_CONFIG

Json = dict[str, Any]


def log_at(ws: Any, number: int) -> Json:
    """The next ``log`` message sent after the match reached ``number`` actions."""
    while True:
        message = until(ws, "log")
        if message["number"] == number:
            return message


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(build_app(tmp_path / "m.sqlite3", TEST_CONFIG)) as c:
        yield c


def test_links_are_pages_on_the_origin_the_page_came_from(tmp_path: Path) -> None:
    with TestClient(build_app(tmp_path / "m.sqlite3", TEST_CONFIG)) as client:
        made = create(client)
        assert made["seats"][0]["url"].startswith("http://testserver/match/")
        forwarded = {"x-forwarded-proto": "https", "x-forwarded-host": "games.example.org"}
        ignored = client.post("/api/matches", json={"game": "quarto"}, headers=forwarded)
        assert ignored.json()["seats"][0]["url"].startswith("http://testserver/match/")
    behind = replace(TEST_CONFIG, forwarded_allow_ips=("*",),
                     allowed_hosts=(*TEST_CONFIG.allowed_hosts, "games.example.org"))  # fmt: skip
    with TestClient(build_app(tmp_path / "m.sqlite3", behind)) as client:
        proxied = client.post("/api/matches", json={"game": "quarto"}, headers=forwarded).json()
        assert proxied["seats"][0]["url"].startswith("https://games.example.org/match/")
        assert proxied["host_url"].startswith("https://games.example.org/match/")
    proxied_config = replace(TEST_CONFIG, public_url=public_base("https://play.example.net/t"))
    with TestClient(build_app(tmp_path / "m.sqlite3", proxied_config)) as client:
        made = create(client)
        assert made["spectator_url"] == f"https://play.example.net/t/match/{made['id']}"


def test_a_rematch_link_is_a_page_url_not_the_websocket_s(client: TestClient) -> None:
    from tests.test_web_server import finish_quarto

    made = create(client)
    one, two = (s["token"] for s in made["seats"])
    with (
        client.websocket_connect(f"/ws/{made['id']}?token={one}") as ws1,
        client.websocket_connect(f"/ws/{made['id']}?token={two}") as ws2,
    ):
        finish_quarto(ws1, ws2)
        ws1.send_json({"type": "rematch"})
        offer = until(ws1, "rematch")
        assert offer["url"].startswith("http://testserver/match/") and "token=" in offer["url"]


def test_the_host_page_lists_every_seat_link_for_its_key_only(client: TestClient) -> None:
    made = create(client, seats=[{"seat": 2, "ai": "1"}])
    page = client.get(made["host_url"].replace("http://testserver", ""))
    assert page.status_code == 200 and made["seats"][0]["url"] in page.text
    assert "computer (1)" in page.text
    wrong = client.get(f"/match/{made['id']}/host?key=" + "x" * 32)
    assert wrong.status_code == 404 and made["seats"][0]["token"] not in wrong.text
    listing = client.get("/api/matches").text
    assert "host" not in listing and made["seats"][0]["token"] not in listing


GIVEN = "give the piece dark, tall, round, hollow"  # give DTRH, as people read it


def test_the_log_is_sent_whole_then_entry_by_entry_and_cut_by_an_undo(client: TestClient) -> None:
    made = create(client)
    one, two = (s["token"] for s in made["seats"])
    with (
        client.websocket_connect(f"/ws/{made['id']}?token={one}") as ws1,
        client.websocket_connect(f"/ws/{made['id']}?token={two}") as ws2,
    ):
        assert until(ws1, "log") == {"type": "log", "number": 0, "from": 0, "entries": []}
        play(ws1, "give DTRH", 0)
        entry = log_at(ws2, 1)
        assert entry["from"] == 0 and entry["entries"] == [
            {
                "number": 1,
                "player": 1,
                "text": "give DTRH",
                "said": "give the piece dark, tall, round, hollow",
            }
        ]
        play(ws2, "place b2", 1)
        assert log_at(ws1, 2)["entries"] == [
            {"number": 2, "player": 2, "text": "place b2", "said": "place it on b2"}
        ]
        ws2.send_json({"type": "undo"})
        until(ws1, "undo-request")
        ws1.send_json({"type": "undo-answer", "agree": True})
        cut = log_at(ws1, 1)
        assert cut["from"] == 1 and cut["entries"] == []
    with client.websocket_connect(f"/ws/{made['id']}") as watcher:
        whole = until(watcher, "log")
        assert whole["entries"] == [
            {
                "number": 1,
                "player": 1,
                "text": "give DTRH",
                "said": "give the piece dark, tall, round, hollow",
            }
        ]


def test_spectators_of_a_hidden_game_read_the_placements_not_the_hidden(
    client: TestClient,
) -> None:
    made = create(client, game="quartino", seats=[{"seat": 2, "ai": "basic"}])
    with client.websocket_connect(f"/ws/{made['id']}?token={made['seats'][0]['token']}") as ws:
        position = until(ws, "position")
        for _ in range(3):
            text = next(t for t in position["legal"] if t.startswith(("place", "end")))
            position = play(ws, text, position["number"])
            while position["to_act"] != 1:
                position = until(ws, "position")
    with client.websocket_connect(f"/ws/{made['id']}") as watcher:
        entries = until(watcher, "log")["entries"]
    assert entries and all(e["text"] != "played" for e in entries if e["player"] == 1)
    assert any(e["text"].startswith("place") for e in entries)


def test_table_talk_is_stored_limited_and_read_only_for_spectators(tmp_path: Path) -> None:
    db = tmp_path / "m.sqlite3"
    with TestClient(build_app(db, TEST_CONFIG)) as client:
        made = create(client)
        mid, one = made["id"], made["seats"][0]["token"]
        with (
            client.websocket_connect(f"/ws/{mid}?token={one}") as ws,
            client.websocket_connect(f"/ws/{mid}") as watcher,
        ):
            assert until(watcher, "hello")["chat"] == {"write": False}
            ws.send_json({"type": "chat", "text": "  <b>hi</b>  "})
            said = until(watcher, "chat")
            # no name chosen: "" (the page calls the sender by its seat, in its language)
            assert (said["seat"], said["name"], said["text"]) == (1, "", "<b>hi</b>")
            assert abs(said["at"] - time.time()) < 60
            ws.send_json({"type": "chat", "text": "again"})
            assert "one chat message a second" in until(ws, "error")["error"]
            ws.send_json({"type": "chat", "text": "x" * 501})
            assert until(ws, "error")["error"] == "a chat message is at most 500 characters"
            watcher.send_json({"type": "chat", "text": "hello"})
            assert "read the chat but do not write" in until(watcher, "error")["error"]
            ws.send_json({"type": "chat", "text": {"html": 1}})
            assert "'text'" in until(ws, "error")["error"]
        allowed = create(client, spectator_chat=True)
        with client.websocket_connect(f"/ws/{allowed['id']}") as watcher:
            assert until(watcher, "hello")["chat"] == {"write": True}
            watcher.send_json({"type": "chat", "text": "hello"})
            assert until(watcher, "chat")["name"] == ""
    with (
        TestClient(build_app(db, TEST_CONFIG)) as client,
        client.websocket_connect(f"/ws/{mid}") as again,
    ):
        assert until(again, "chat")["text"] == "<b>hi</b>"  # stored with the match


def test_one_undo_request_at_a_time_and_only_for_your_own_action(client: TestClient) -> None:
    made = create(client)
    one, two = (s["token"] for s in made["seats"])
    with (
        client.websocket_connect(f"/ws/{made['id']}?token={one}") as ws1,
        client.websocket_connect(f"/ws/{made['id']}?token={two}") as ws2,
    ):
        play(ws1, "give DTRH", 0)
        ws2.send_json({"type": "undo"})  # the last action was player 1's
        assert until(ws2, "error")["error"] == (
            "cannot undo: the last action was player 1's; you can only take back your own"
        )
        ws1.send_json({"type": "undo"})
        until(ws2, "undo-request")
        ws1.send_json({"type": "undo"})
        assert "already waiting (asked by you)" in until(ws1, "error")["error"]
    with client.websocket_connect(f"/ws/{made['id']}?token={two}&lang=cs") as czech:
        czech.send_json({"type": "undo"})  # said in the connection's language (issue 37)
        assert until(czech, "error")["error"] == (
            "žádost o vrácení tahu už čeká (požádal hráč 1); nejprve na ni musí přijít odpověď"
        )


def test_the_rules_page_shows_no_raw_html_of_a_plugin(client: TestClient) -> None:
    page = client.get("/games/quarto/rules")
    assert page.status_code == 200 and "<h1>Quarto</h1>" in page.text and "Q4.2" in page.text
    assert client.get("/games/chess/rules").status_code == 404
    html = render_markdown("# T\n\n<script>alert(1)</script>\n\n[x](javascript:alert(1)) <b>b</b>")
    assert "<script>" not in html and "<b>" not in html and "href" not in html
    assert "&lt;script&gt;" in html

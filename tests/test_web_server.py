"""`tabletop serve`'s API and websocket protocol through Starlette's test client: the
create request checked like the CLI, positions per seat, stale numbers, tokens, origins,
malformed and flooding messages, undo by agreement, rematch, the record, the clock and a
restart on the same database."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from tabletop.agents.catalogue import catalogue
from tabletop.core.match import Match
from tabletop.core.presentation import presentation_of
from tabletop.core.records import Record
from tabletop.core.registry import registry
from tabletop.web.app import build_app
from tabletop.web.protocol import MAX_MESSAGE, POSITION_KEYS
from tests.web_support import TEST_CONFIG

Json = dict[str, Any]


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(build_app(tmp_path / "m.sqlite3", TEST_CONFIG)) as c:
        yield c


def create(client: TestClient, **body: Any) -> Json:
    body = {"game": "quarto", "players": 2, "options": {}, "spectators": True,
            "move_time": None, **body}  # fmt: skip
    answer = client.post("/api/matches", json=body)
    assert answer.status_code == 201, answer.text
    data: Json = answer.json()
    return data


def until(ws: Any, kind: str) -> Json:
    while True:
        message: Json = ws.receive_json()
        if message["type"] == kind:
            return message


def test_games_are_the_json_of_tabletop_games(client: TestClient) -> None:
    assert client.get("/api/games").json() == json.loads(json.dumps(catalogue()))
    assert {g["id"] for g in client.get("/api/games").json()} >= {"quarto", "connect4"}


@pytest.mark.parametrize(
    ("body", "error"),
    [
        ({"game": "chess"}, "unknown game 'chess'; installed games:"),
        ({"game": "quarto", "players": 3}, "Quarto is for 2 players, not 3"),
        ({"game": "quarto", "options": {"squares": "x"}}, "bad value 'x' for option 'squares'"),
        ({"game": "quarto", "options": {"colour": 1}}, "unknown option 'colour' for quarto"),
        ({"game": "quarto", "seats": [{"seat": 3}]}, "seats are the player numbers 1-2"),
        ({"game": "quarto", "seats": [{"seat": 1, "ai": "9"}]}, "unknown AI level '9'"),
        ({"game": "quarto", "move_time": -1}, "move_time must be a number of seconds"),
        ({"game": "quarto", "tokens": 1}, "bad match request: tokens: not a known key"),
        ([1, 2], "bad match request: body:"),
    ],
)
def test_a_bad_create_request_gets_a_one_line_error(
    client: TestClient, body: Any, error: str
) -> None:
    answer = client.post("/api/matches", json=body)
    assert answer.status_code == 400
    assert error in answer.json()["error"] and "\n" not in answer.json()["error"]
    assert client.get("/api/matches").json()["matches"] == []


def test_links_are_given_for_people_only_and_the_lobby_lists_no_token(client: TestClient) -> None:
    made = create(client, seats=[{"seat": 2, "ai": "1"}], spectators=False)
    assert [s["seat"] for s in made["seats"]] == [1] and made["spectator_url"] is None
    token = made["seats"][0]["token"]
    assert len(token) >= 32 and made["seats"][0]["url"].endswith(
        f"/match/{made['id']}?token={token}"
    )
    listing = client.get("/api/matches").text
    assert token not in listing
    [row] = json.loads(listing)["matches"]
    assert row["seats"][0]["free"] and row["seats"][1]["kind"] == "computer"
    with client.websocket_connect(f"/ws/{made['id']}?token={token}") as ws:
        until(ws, "position")
        assert not client.get("/api/matches").json()["matches"][0]["seats"][0]["free"]


def test_each_seat_gets_its_view_and_only_the_seat_to_act_its_legal_actions(
    client: TestClient,
) -> None:
    made = create(client)
    one, two = (s["token"] for s in made["seats"])
    with (
        client.websocket_connect(f"/ws/{made['id']}?token={one}") as ws1,
        client.websocket_connect(f"/ws/{made['id']}?token={two}") as ws2,
        client.websocket_connect(f"/ws/{made['id']}") as spectator,
    ):
        hello = until(ws1, "hello")
        assert hello["seat"] == 1 and hello["game"] == "quarto"
        first = until(ws1, "position")
        assert tuple(first) == POSITION_KEYS
        assert first["number"] == 0 and first["to_act"] == 1 and len(first["legal"]) == 16
        assert until(ws2, "position")["legal"] == []
        assert until(spectator, "hello")["seat"] is None
        assert until(spectator, "position")["legal"] == []
        ws1.send_json({"type": "action", "action": "give dtrh", "number": 0})
        after = until(ws2, "position")
        assert after["number"] == 1 and after["to_act"] == 2 and "place a1" in after["legal"]
        game = registry().get("quarto")
        match = Match(game, 2, game.info.options(), 0)
        match.play("give DTRH")
        assert after["view"] == game.view(match.state, 2)
        # a stale number and a spectator's action are refused; nothing changes
        ws2.send_json({"type": "action", "action": "place a1", "number": 0})
        assert "position 0 is stale" in until(ws2, "error")["error"]
        spectator.send_json({"type": "action", "action": "place a1", "number": 1})
        assert until(spectator, "error")["error"] == "spectators cannot act"
        ws1.send_json({"type": "action", "action": "place a1", "number": 1})
        assert until(ws1, "error")["error"] == "it is player 2's turn, not yours"
        ws2.send_json({"type": "action", "action": "place e9", "number": 1})
        refusal = until(ws2, "error")["error"]
        assert "allowed: place a1" in refusal  # the CLI's reason
        ws2.send_json({"type": "action", "action": "place a1", "number": 1})
        assert until(ws1, "last")["actions"] == {"1": "give DTRH", "2": "place a1"}
        assert until(ws1, "position")["number"] == 2


def test_a_wrong_token_and_a_refused_spectator_cannot_connect(client: TestClient) -> None:
    made = create(client, spectators=False)
    for path, error in (
        (f"/ws/{made['id']}?token=nope", "this token is no seat of this match"),
        (f"/ws/{made['id']}", "this match allows no spectators"),
        ("/ws/unknown", "no such match"),
    ):
        with client.websocket_connect(path) as ws:
            assert ws.receive_json() == {"type": "error", "error": error}
            with pytest.raises(WebSocketDisconnect):
                ws.receive_json()


def test_a_page_of_another_origin_is_refused(client: TestClient) -> None:
    made = create(client)
    url = f"/ws/{made['id']}?token={made['seats'][0]['token']}"
    evil = {"origin": "http://evil.example"}
    with pytest.raises(WebSocketDisconnect) as refused, client.websocket_connect(url, headers=evil):
        pass
    assert refused.value.code == 1008
    with client.websocket_connect(url, headers={"origin": "http://testserver"}) as ws:
        assert until(ws, "position")["number"] == 0


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("not json", "not JSON"),
        ("[1]", "send a JSON object with a type"),
        ('{"type": "fly"}', "unknown message type 'fly'"),
        ('{"type": "action", "action": "give DTRH"}', "needs 'number'"),
        ('{"type": "action", "action": "give DTRH", "number": true}', "needs 'number'"),
        ('{"type": "action", "action": 5, "number": 0}', "needs 'action'"),
        ('{"type": "undo-answer"}', "needs 'agree'"),
    ],
)
def test_malformed_messages_get_an_error_and_change_nothing(
    client: TestClient, text: str, error: str
) -> None:
    made = create(client)
    with client.websocket_connect(f"/ws/{made['id']}?token={made['seats'][0]['token']}") as ws:
        until(ws, "position")
        ws.send_text(text)
        assert error in until(ws, "error")["error"]
        ws.send_json({"type": "action", "action": "give DTRH", "number": 0})
        assert until(ws, "position")["number"] == 1


def test_a_binary_frame_gets_an_error(client: TestClient) -> None:
    made = create(client)
    with client.websocket_connect(f"/ws/{made['id']}?token={made['seats'][0]['token']}") as ws:
        until(ws, "position")
        ws.send_bytes(b"\x00\xff")
        assert until(ws, "error")["error"] == "send text frames of JSON, not binary"
        ws.send_json({"type": "action", "action": "give DTRH", "number": 0})
        assert until(ws, "position")["number"] == 1


def test_an_oversized_message_closes_the_connection(client: TestClient) -> None:
    made = create(client)
    with client.websocket_connect(f"/ws/{made['id']}?token={made['seats'][0]['token']}") as ws:
        until(ws, "position")
        ws.send_text(json.dumps({"type": "action", "action": "x" * MAX_MESSAGE, "number": 0}))
        assert "message too long" in until(ws, "error")["error"]
        with pytest.raises(WebSocketDisconnect):
            ws.receive_json()
    assert client.get("/api/matches").json()["matches"][0]["number"] == 0


def test_flooding_is_refused_then_closed_and_changes_nothing(client: TestClient) -> None:
    made = create(client)
    with client.websocket_connect(f"/ws/{made['id']}?token={made['seats'][0]['token']}") as ws:
        until(ws, "position")
        for _ in range(400):
            ws.send_json({"type": "action", "action": "place a1", "number": 0})
        errors = []
        with pytest.raises(WebSocketDisconnect):
            while True:
                errors.append(until(ws, "error")["error"])
    assert any(e.startswith("too many messages") for e in errors)
    assert client.get("/api/matches").json()["matches"][0]["number"] == 0


def play(ws: Any, text: str, number: int) -> Json:
    """Send action ``text`` on position ``number``; the position after it."""
    ws.send_json({"type": "action", "action": text, "number": number})
    while True:
        position = until(ws, "position")
        if position["number"] > number:
            return position


def test_undo_needs_the_other_persons_agreement(client: TestClient) -> None:
    made = create(client)
    one, two = (s["token"] for s in made["seats"])
    with (
        client.websocket_connect(f"/ws/{made['id']}?token={one}") as ws1,
        client.websocket_connect(f"/ws/{made['id']}?token={two}") as ws2,
    ):
        until(ws2, "position")
        ws1.send_json({"type": "undo"})
        assert until(ws1, "error")["error"] == "cannot undo: nothing to undo"
        assert play(ws1, "give DTRH", 0)["number"] == 1
        ws1.send_json({"type": "undo"})
        request = until(ws2, "undo-request")
        assert request["by"] == 1 and request["count"] == 1 and request["waiting"] == [2]
        ws2.send_json({"type": "undo-answer", "agree": False})
        assert until(ws1, "undo-result") == {
            "type": "undo-result", "by": 1, "done": False, "reason": "player 2 declined"
        }  # fmt: skip
        ws1.send_json({"type": "undo"})
        until(ws2, "undo-request")
        ws1.send_json({"type": "undo-answer", "agree": True})
        assert "no undo request is waiting for you" in until(ws1, "error")["error"]
        ws2.send_json({"type": "undo-answer", "agree": True})
        assert until(ws1, "undo-result")["done"] is True
        assert until(ws1, "position")["number"] == 0
    assert client.get("/api/matches").json()["matches"][0]["number"] == 0


def finish_quarto(ws1: Any, ws2: Any) -> Json:
    """Player 1 wins a line on row 1 (Q: four pieces sharing a trait)."""
    moves = [
        (ws1, "give LSRF"), (ws2, "place a1"), (ws2, "give LSRH"), (ws1, "place b1"),
        (ws1, "give LSQF"), (ws2, "place a2"), (ws2, "give LSQH"), (ws1, "place c1"),
        (ws1, "give DTRF"), (ws2, "place a3"), (ws2, "give LTRF"), (ws1, "place d1"),
    ]  # fmt: skip
    position: Json = {}
    for number, (ws, text) in enumerate(moves):
        position = play(ws, text, number)
    return position


def test_the_record_only_after_the_end_only_to_a_seat_and_a_rematch_rotates_seats(
    client: TestClient,
) -> None:
    made = create(client)
    mid = made["id"]
    one, two = (s["token"] for s in made["seats"])
    assert client.get(f"/api/matches/{mid}/record?token={one}").status_code == 403
    with (
        client.websocket_connect(f"/ws/{mid}?token={one}") as ws1,
        client.websocket_connect(f"/ws/{mid}?token={two}") as ws2,
    ):
        end = finish_quarto(ws1, ws2)
        assert end["status"] == "over" and end["winners"] == [1] and end["reason"]
        answer = client.get(f"/api/matches/{mid}/record?token={two}")
        assert answer.status_code == 200
        record = Record.from_text(answer.text)
        assert Match.from_record(registry().get("quarto"), record).outcome() is not None
        assert client.get(f"/api/matches/{mid}/record").status_code == 403
        assert client.get(f"/api/matches/{mid}/record?token=x").status_code == 403
        ws2.send_json({"type": "rematch"})
        offer1, offer2 = until(ws1, "rematch"), until(ws2, "rematch")
        assert offer1["id"] == offer2["id"] != mid and offer1["url"] != offer2["url"]
        new = offer1["url"].split("token=")[1]
    with client.websocket_connect(f"/ws/{offer1['id']}?token={new}") as ws:
        assert until(ws, "hello")["seat"] == 2  # player 1 now sits at seat 2


def test_an_undo_is_refused_over_a_draw_from_the_stock(client: TestClient) -> None:
    made = create(client, game="ctverak", options={"deck": "half"},
                  seats=[{"seat": 2, "ai": "basic"}])  # fmt: skip
    with client.websocket_connect(f"/ws/{made['id']}?token={made['seats'][0]['token']}") as ws:
        position = until(ws, "position")
        draws: list[str] = []
        while position["status"] == "ongoing" and not draws:
            draws = [t for t in position["legal"] if t == "draw stock"]
            text = draws[0] if draws else position["legal"][-1]
            ws.send_json({"type": "action", "action": text, "number": position["number"]})
            position = until(ws, "position")
            while position["to_act"] != 1 and position["status"] == "ongoing":
                position = until(ws, "position")
        ws.send_json({"type": "undo"})
        said = until(ws, "error")["error"]  # the card chance drew for this seat, told to it
        # the card as the asker was told it, in words (K4.1, K8)
        said_card = r"the stock gave ((10|[A2-9JQK])[♠♥♦♣]|joker)"  # a joker comes by seed
        assert re.fullmatch(rf"cannot undo: chance acted after it \({said_card}\); it stands", said)


def test_the_clock_waits_until_every_person_opened_their_seat_then_ends_on_time(
    client: TestClient,
) -> None:
    made = create(client, move_time=1)
    one, two = (s["token"] for s in made["seats"])
    with client.websocket_connect(f"/ws/{made['id']}?token={one}") as ws1:
        first = until(ws1, "position")
        assert first["clock"] == {"player": 1, "left": 1.0, "move_time": 1.0, "waiting": [2]}
        time.sleep(1.5)  # longer than the move clock: nobody loses before sitting down
        assert client.get("/api/matches").json()["matches"][0]["status"] == "ongoing"
        with client.websocket_connect(f"/ws/{made['id']}?token={two}") as ws2:
            running = until(ws1, "position")  # told when the last person sat down
            assert running["clock"]["waiting"] == [] and 0 < running["clock"]["left"] <= 1
            end = until(ws1, "position")
            assert end["status"] == "over" and end["winners"] == [2]
            assert end["reason"] == "player 1 ran out of time on the move clock"
            assert until(ws2, "position")["number"] == 0


def test_a_restart_on_the_same_database_resumes_every_match(tmp_path: Path) -> None:
    db = tmp_path / "m.sqlite3"
    with TestClient(build_app(db, TEST_CONFIG)) as client:
        made = create(client, seats=[{"seat": 2, "ai": "2"}])
        with client.websocket_connect(f"/ws/{made['id']}?token={made['seats'][0]['token']}") as ws:
            position = play(ws, "give DTRH", 0)
            while position["to_act"] != 1:
                position = until(ws, "position")
            before = position
    url = f"/ws/{made['id']}?token={made['seats'][0]['token']}"
    with TestClient(build_app(db, TEST_CONFIG)) as client, client.websocket_connect(url) as ws:
        after = until(ws, "position")
    assert after == before and after["number"] == 3


def test_a_game_made_by_tabletop_new_plays_in_the_browser_with_no_web_code(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import importlib
    import sys

    from tabletop.cli.scaffold import new_command
    from tabletop.core.registry import Registry

    made = new_command("web_nim", tmp_path / "dist")
    sys.path.insert(0, str(made))
    try:
        games = Registry(extra=[importlib.import_module("tabletop_web_nim.plugin")])
        monkeypatch.setattr("tabletop.web.hub.registry", lambda: games)
        assert presentation_of(games.get("web_nim")).web_board() is None
        with TestClient(build_app(tmp_path / "m.sqlite3", TEST_CONFIG)) as client:
            assert client.get("/games/web_nim/board.js").status_code == 404
            assert "export function render" in client.get("/static/generic.js").text
            made_match = create(client, game="web_nim")
            one, two = (s["token"] for s in made_match["seats"])
            with (
                client.websocket_connect(f"/ws/{made_match['id']}?token={one}") as ws1,
                client.websocket_connect(f"/ws/{made_match['id']}?token={two}") as ws2,
            ):
                assert until(ws1, "hello")["board"] is None  # the page uses the generic board
                position = until(ws1, "position")
                sockets = {1: ws1, 2: ws2}
                while position["status"] == "ongoing":
                    actor = sockets[position["to_act"]]
                    mine = position if actor is ws1 else until(ws2, "position")
                    while mine["number"] != position["number"]:
                        mine = until(ws2, "position")
                    position = play(actor, mine["legal"][0], position["number"])
                    if actor is ws2:
                        position = until(ws1, "position")
                assert position["winners"] and position["reason"]
    finally:
        sys.path.remove(str(made))
        for name in [n for n in sys.modules if n.startswith("tabletop_web_nim")]:
            del sys.modules[name]


def test_an_action_the_database_refuses_is_taken_back_and_told_to_nobody(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    import sqlite3

    from tabletop.web.store import Store

    made = create(client)
    one, two = (s["token"] for s in made["seats"])
    with (
        client.websocket_connect(f"/ws/{made['id']}?token={one}") as ws1,
        client.websocket_connect(f"/ws/{made['id']}?token={two}") as ws2,
    ):
        until(ws1, "position")
        until(ws2, "position")
        submit = Store.submit

        def broken(self: Store, statements: Any) -> Any:
            future = submit(self, [("INSERT INTO nowhere VALUES (1)", ())])
            return future

        monkeypatch.setattr(Store, "submit", broken)
        ws1.send_json({"type": "action", "action": "give DTRH", "number": 0})
        assert until(ws1, "error")["error"] == (
            "the server could not store the action; nothing changed"
        )
        listed = client.get("/api/matches").json()["matches"]
        assert listed[0]["number"] == 0  # taken back in memory
        monkeypatch.setattr(Store, "submit", submit)
        ws1.send_json({"type": "action", "action": "give DTRH", "number": 0})  # not stale
        assert until(ws2, "position")["number"] == 1
    with sqlite3.connect(tmp_db(client)) as db:
        assert db.execute("SELECT number, text FROM actions").fetchall() == [(1, "give DTRH")]


def tmp_db(client: TestClient) -> str:
    path: str = str(client.app.state.hub.db_path)  # type: ignore[attr-defined]
    return path


def test_the_icon_browsers_ask_for_is_served(client: TestClient) -> None:
    """``/favicon.ico``: the site's icon (it was a 404 in the log on every first visit)."""
    answer = client.get("/favicon.ico")
    assert answer.status_code == 200 and answer.headers["content-type"].startswith("image/svg")
    assert answer.text.startswith("<svg")

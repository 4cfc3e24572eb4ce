"""Resigning and draws through the websocket protocol and the store: who may, what each
connection is told, what a restart shows, and that an older database still loads."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

from tabletop.web import store
from tabletop.web.app import build_app
from tabletop.web.store import MatchStore
from tests.test_web_server import client, create, until
from tests.test_web_store import Body, new_match, run, stale
from tests.web_support import TEST_CONFIG, Client

__all__ = ["client", "run"]  # the fixtures: a server; a store of each database


def test_resign_by_a_player_not_to_act_ends_it_and_a_restart_shows_the_same(
    tmp_path: Path,
) -> None:
    db = tmp_path / "m.sqlite3"
    with TestClient(build_app(db, TEST_CONFIG)) as client:
        made = create(client, move_time=600)
        one, two = (s["token"] for s in made["seats"])
        with (
            client.websocket_connect(f"/ws/{made['id']}?token={one}") as ws1,
            client.websocket_connect(f"/ws/{made['id']}?token={two}") as ws2,
            client.websocket_connect(f"/ws/{made['id']}") as spectator,
        ):
            assert until(ws1, "hello")["draws"] is True
            until(ws2, "position")
            spectator.send_json({"type": "resign"})
            assert until(spectator, "error")["error"] == "spectators cannot resign"
            ws2.send_json({"type": "resign"})  # player 1 is to act; player 2 resigns
            over = until(ws1, "position")
            while over["status"] != "over":
                over = until(ws1, "position")
            assert (over["winners"], over["end"]) == ([1], "resigned")
            assert over["reason"] == "player 2 resigned" and over["clock"] is None
            ws1.send_json({"type": "undo"})
            assert "the game is over" in until(ws1, "error")["error"]
            ws1.send_json({"type": "draw-offer"})
            assert until(ws1, "error")["error"] == "cannot offer a draw: the game is over"
    with (
        TestClient(build_app(db, TEST_CONFIG)) as restarted,
        restarted.websocket_connect(f"/ws/{made['id']}?token={one}") as ws1,
    ):
        again = until(ws1, "position")
        assert (again["status"], again["end"], again["winners"]) == ("over", "resigned", [1])


def test_a_draw_offer_is_in_every_position_until_answered(client: TestClient) -> None:
    made = create(client, move_time=600)
    one, two = (s["token"] for s in made["seats"])
    with (
        client.websocket_connect(f"/ws/{made['id']}?token={one}") as ws1,
        client.websocket_connect(f"/ws/{made['id']}?token={two}") as ws2,
    ):
        until(ws1, "position")
        until(ws2, "position")
        ws2.send_json({"type": "draw-answer"})
        assert until(ws2, "error")["error"] == "a draw-answer needs 'accept': true or false"
        ws1.send_json({"type": "draw-offer"})
        offered = until(ws2, "position")
        assert offered["draw"] == {"by": 1, "waiting": [2]} and offered["number"] == 0
        assert offered["clock"]["player"] == 1  # the clock runs on while the offer waits
        ws2.send_json({"type": "draw-answer", "accept": False})
        declined = until(ws1, "draw-declined")
        assert declined == {"type": "draw-declined", "by": 1, "declined_by": 2,
                            "reason": "player 2 declines the draw; play on"}  # fmt: skip
        assert until(ws1, "position")["draw"] is None
        ws1.send_json({"type": "draw-offer"})
        assert "your offer was declined" in until(ws1, "error")["error"]
        ws2.send_json({"type": "draw-offer"})
        until(ws1, "position")
        ws1.send_json({"type": "draw-answer", "accept": True})
        end = until(ws2, "position")
        while end["status"] != "over":
            end = until(ws2, "position")
        assert (end["winners"], end["end"]) == ([], "agreed-draw")


def test_a_computer_seat_declines_at_once(client: TestClient) -> None:
    made = create(client, seats=[{"seat": 2, "ai": "1"}])
    token = made["seats"][0]["token"]
    with client.websocket_connect(f"/ws/{made['id']}?token={token}") as ws:
        until(ws, "position")
        ws.send_json({"type": "draw-offer"})
        said = until(ws, "draw-declined")
        assert said["declined_by"] == 2 and "(computer) declines the draw" in said["reason"]
        assert until(ws, "position")["status"] == "ongoing"


def test_the_store_keeps_how_a_match_ended(run: Callable[[Body], None]) -> None:
    async def body(db: MatchStore) -> None:
        await db.submit([new_match().insert()])
        await db.submit(store.append("m1", 1, "a", "ongoing", time.time()))
        assert await stale(db, store.forfeit("m1", 2, time.time(), 0, "resigned"))  # moved on
        await db.submit(store.forfeit("m1", 2, time.time(), 1, "resigned"))
        assert await stale(db, store.forfeit("m1", 1, time.time(), 1, "agreed-draw"))  # ended
        assert await stale(db, store.append("m1", 2, "late", "ongoing", time.time()))
        loaded = await db.load("m1")
        assert loaded is not None and (loaded.forfeit, loaded.ending) == (2, "resigned")
        assert store.ended(loaded) is not None and store.ended(loaded).reason == "resigned"  # type: ignore[union-attr]
        await db.submit(store.truncate("m1", 1))  # an undo (of a loss on time) clears it
        loaded = await db.load("m1")
        assert loaded is not None and (loaded.forfeit, loaded.ending) == (None, None)

    run(body)


def test_a_version_5_file_gains_the_ending_and_its_loss_on_time_stays_one(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    db = sqlite3.connect(path)
    db.executescript(store.SCHEMA.replace(", ending TEXT", "") + "PRAGMA user_version=5;")
    db.execute(*new_match().insert())
    db.execute("UPDATE matches SET forfeit=1, status='over' WHERE id='m1'")
    db.commit()
    db.close()
    [match], _ = store.load_all(path)
    assert (match.forfeit, match.ending) == (1, None)
    assert store.ended(match) is not None and store.ended(match).reason == "time"  # type: ignore[union-attr]
    assert sqlite3.connect(path).execute("PRAGMA user_version").fetchone()[0] == store.VERSION


def test_a_resignation_on_one_server_ends_the_match_on_the_other(
    pg_url: str, redis_server: Any
) -> None:
    from tests.test_web_shared import cluster, record
    from tests.test_web_shared import create as create_on

    with cluster(pg_url, redis_server, 2) as servers:
        links = create_on(servers.base(0), {"game": "quarto", "players": 2})
        seats = {s["seat"]: s["token"] for s in links["seats"]}
        one = Client(servers.base(0), links["id"], seats[1])
        two = Client(servers.base(1), links["id"], seats[2])
        one.at(0)
        two.at(0)
        one.send({"type": "resign"})
        end = two.until(lambda m: m["type"] == "position" and m["status"] == "over", timeout=30)
        assert (end["end"], end["winners"], end["reason"]) == ("resigned", [2], "player 1 resigned")
        stored = record(servers.base(1), links["id"], seats[2])
        assert stored.forfeit is not None and stored.forfeit.reason == "resigned"
        one.close()
        two.close()

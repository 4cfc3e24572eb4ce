"""The replay of a match (issue 37, item 3): ``GET /api/matches/{id}/replay`` steps through
every position as the viewer saw it then, through Starlette's test client and real
websockets of the app."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from tabletop.core.registry import registry
from tabletop.web.app import build_app
from tests.test_ctverak_cli import named as ctverak_cards  # codes and faces (7H, 7♥)
from tests.test_web_server import create, play, until
from tests.web_support import TEST_CONFIG

Json = dict[str, Any]
CARD = re.compile(r"\b[YBGP]\|[YBGP]{3}\b")  # a Quartino card (N1.1)
COLOUR = "(yellow|blue|green|pink)"
CARD_WORDS = re.compile(rf"\b{COLOUR} \| {COLOUR} {COLOUR} {COLOUR}\b")  # as the log says it


def quartino_cards(text: str) -> set[str]:
    """The Quartino cards ``text`` names, in notation or in (English) words."""
    worded = {"".join(w[0].upper() for w in m[:1]) + "|" + "".join(w[0].upper() for w in m[1:])
              for m in CARD_WORDS.findall(text)}  # fmt: skip
    return set(CARD.findall(text)) | worded


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(build_app(tmp_path / "m.sqlite3", TEST_CONFIG)) as c:
        yield c


def replay(client: TestClient, mid: str, at: int | None = None, **query: str) -> Any:
    params = {**query, **({} if at is None else {"at": str(at)})}
    return client.get(f"/api/matches/{mid}/replay", params=params)


def test_a_quarto_match_steps_from_the_start_to_the_last_position(client: TestClient) -> None:
    made = create(client)
    one, two = (s["token"] for s in made["seats"])
    with (
        client.websocket_connect(f"/ws/{made['id']}?token={one}") as ws1,
        client.websocket_connect(f"/ws/{made['id']}?token={two}") as ws2,
    ):
        until(ws2, "position")
        play(ws1, "give DTRH", 0)
        play(ws2, "place a1", 1)
    last = replay(client, made["id"], token=one).json()  # default: the last position
    assert (last["at"], last["stops"], last["number"], last["seat"]) == (2, 3, 2, 1)
    assert last["played"] == [{"player": 2, "text": "place it on a1"}]
    start = replay(client, made["id"], 0, token=one).json()
    assert start["played"] == [] and start["position"]["legal"] == []
    assert start["position"]["to_act"] == 1 and start["status"] == "ongoing"
    given = replay(client, made["id"], 1).json()  # a spectator's (no token)
    words = "give the piece dark, tall, round, hollow"  # what people read of give DTRH
    assert given["seat"] is None and given["played"] == [{"player": 1, "text": words}]
    assert given["position"]["view"]["in_hand"] == "DTRH"


def test_a_replay_refuses_what_it_cannot_show(client: TestClient) -> None:
    made = create(client, spectators=False)
    one = made["seats"][0]["token"]
    refused = replay(client, made["id"])
    assert refused.status_code == 403 and "spectators" in refused.json()["error"]
    assert replay(client, made["id"], token="nope").status_code == 403
    far = replay(client, made["id"], 5, token=one)
    assert far.status_code == 400 and far.json()["error"].startswith("at must be")
    assert replay(client, "nosuch").status_code == 404
    czech = replay(client, made["id"], lang="cs")
    assert czech.status_code == 403 and "spectators" not in czech.json()["error"]


def test_quartino_replay_shows_each_seat_only_what_it_saw_then(client: TestClient) -> None:
    """Every stop of a three-player Quartino match, for each seat and a spectator: the
    cards named anywhere in the answer are cards the viewer has seen by then; another
    seat's dealt card is the game's sentence, in the viewer's language."""
    game = registry().get("quartino")
    made = create(client, game="quartino", players=3)
    mid = made["id"]
    tokens = [s["token"] for s in made["seats"]]
    with client.websocket_connect(f"/ws/{mid}?token={tokens[0]}") as ws:
        position = until(ws, "position")
        for _ in range(3):  # player 1's turn: a placement or two, then end
            if position["to_act"] != 1:
                break
            action = (
                next(a for a in position["legal"] if a.startswith("place"))
                if any(a.startswith("place") for a in position["legal"])
                else "end"
            )
            position = play(ws, action, position["number"])
    stops = replay(client, mid, token=tokens[0]).json()["stops"]
    assert stops > 3 * 4  # the deal is there, a card a stop
    for seat, token in [(1, tokens[0]), (2, tokens[1]), (None, None)]:
        seen: set[str] = set()
        query = {"token": token} if token else {}
        for at in range(stops):
            answer = replay(client, mid, at, **query).json()
            seen |= set(CARD.findall(json.dumps(answer["position"]["view"])))
            named = quartino_cards(json.dumps(answer, ensure_ascii=False))
            assert named <= seen, (seat, at, named - seen)
    deal = [replay(client, mid, at, token=tokens[0], lang="cs").json()["played"][0]
            for at in range(1, 13)]  # fmt: skip
    assert {d["player"] for d in deal} == {-1}  # chance dealt them
    own = [d["text"] for d in deal if " | " in d["text"]]  # a card in Czech words
    others = [d["text"] for d in deal if " | " not in d["text"]]
    assert own and all(t.startswith("hráč 1 dostal kartu ") for t in own), deal
    assert "hráč 2 dostal kartu" in others and "hráč 3 dostal kartu" in others, deal
    assert game.info.id == "quartino"


def test_the_match_page_links_to_the_replay(client: TestClient) -> None:
    page = client.get("/match/x")
    assert 'id="replay-link"' in page.text and "/static/replay-link.js" in page.text
    replay_page = client.get("/match/x/replay")
    assert replay_page.status_code == 200 and "/static/replay.js" in replay_page.text




def test_ctverak_replay_names_no_card_the_viewer_had_not_seen(client: TestClient) -> None:
    """A two-player Čtverák match with a few turns played by both seats (hands, the stock
    and the bases hidden): at every stop, for each seat and a spectator, every card named
    anywhere in the answer is one the viewer's views had shown by then."""
    made = create(client, game="ctverak", players=2)
    mid, tokens = made["id"], [s["token"] for s in made["seats"]]
    with (
        client.websocket_connect(f"/ws/{mid}?token={tokens[0]}") as ws1,
        client.websocket_connect(f"/ws/{mid}?token={tokens[1]}") as ws2,
    ):
        sockets = {1: ws1, 2: ws2}
        last = {seat: until(ws, "position") for seat, ws in sockets.items()}

        def at(seat: int, number: int) -> Json:
            while last[seat]["number"] != number:
                last[seat] = until(sockets[seat], "position")
            return last[seat]

        number = last[1]["number"]
        for _ in range(8):  # each seat's first listed draw or discard, turn by turn
            seat = at(1, number)["to_act"]
            legal = [a for a in at(seat, number)["legal"] if a.startswith(("draw", "discard"))]
            last[seat] = play(sockets[seat], legal[0], number)
            number = last[seat]["number"]
    stops = replay(client, mid, token=tokens[0]).json()["stops"]
    for token in [tokens[0], tokens[1], None]:
        seen: set[str] = set()
        query = {"token": token} if token else {}
        for stop in range(stops):
            answer = replay(client, mid, stop, **query).json()
            seen |= ctverak_cards(json.dumps(answer["position"]["view"]))
            named = ctverak_cards(json.dumps(answer, ensure_ascii=False))
            assert named <= seen, (token, stop, named - seen)

"""No websocket message carries another player's sealed choice before its round is whole
(issue 35, item 2; N7).

Whole Goofspiel matches are played over real websockets against a live server (uvicorn on
a loopback port): the people's seats by scripted clients that bid in a random order, now
and then bid again after choosing (refused), bid a card they do not hold (refused), or take
their bid back and bid another; a computer seat of the server bids too, and a spectator
watches. Every message each connection received while a round's bids were sealed (its
position number is the round's) is then searched: no ``bid N`` may appear in it but in the
seat's own listed actions, its own sealed choice, its own refusals' lists of what it may
bid, and the game log's (and ``last``'s) entries of rounds already revealed, each checked
against the finished match's record.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from tabletop.core.match import Match
from tabletop.core.records import Record
from tabletop.core.registry import registry
from tests.web_support import Client, Message, get, live_server, post

BID = re.compile(r"bid \d+")


def create(base: str, players: int, computers: dict[int, str], cards: int) -> Message:
    seats = [{"seat": s, "ai": computers.get(s)} for s in range(1, players + 1)]
    status, links = post(base, "api/matches", {
        "game": "goofspiel", "players": players, "options": {"num_cards": cards},
        "seats": seats, "spectators": True, "move_time": None,
    })  # fmt: skip
    assert status == 201, links
    return dict(links)


def answered(client: Client, number: int, bid: str | None = None) -> Message:
    """Read until the answer to ``bid`` sent at position ``number``: an error, or the
    position showing it sealed (``mine``), or a later one (the round applied). Without
    ``bid``: the next error or position."""

    def answer(m: Message) -> bool:
        if m["type"] == "error" or bid is None:
            return m["type"] in ("error", "position")
        sealed = m.get("sealed") or {}
        return m["type"] == "position" and (m["number"] > number or sealed.get("mine") == bid)

    return client.until(answer)


def play(
    base: str, players: int, computers: dict[int, str], seed: int
) -> tuple[dict[int | None, Client], str, str, dict[int, dict[int, set[str]]]]:
    """The whole match; returns the clients, the match id, seat 1's token and every bid
    each seat entered at each round (by round position number), taken back ones too."""
    links = create(base, players, computers, 5)
    clients: dict[int | None, Client] = {
        s["seat"]: Client(base, links["id"], s["token"]) for s in links["seats"]
    }
    clients[None] = Client(base, links["id"])
    people = sorted(s for s in clients if s is not None)
    rng = random.Random(seed)
    entered: dict[int, dict[int, set[str]]] = {}
    for client in clients.values():
        client.at(0)
    while True:
        # the seats agree on the position and on who is still to choose (the computer
        # seat bids as soon as the round begins)
        while True:
            tops = {clients[s].position["number"] for s in people}
            if len(tops) == 1:
                position = clients[people[0]].position
                sealed = position["sealed"]
                if position["status"] == "over" or set(sealed["waiting"]) <= set(people):
                    break
            behind = [s for s in people if clients[s].position["number"] < max(tops)]
            for seat in behind or people:  # all level: the computer's bid is coming
                clients[seat].receive()
        if position["status"] == "over":
            break
        number = position["number"]
        order = [s for s in sealed["waiting"]]
        rng.shuffle(order)
        for index, seat in enumerate(order):
            client = clients[seat]
            legal = list(client.position["legal"])
            assert legal and all(BID.fullmatch(t) for t in legal), legal
            bid = rng.choice(legal)
            entered.setdefault(number, {}).setdefault(seat, set()).add(bid)
            client.act(bid)
            last = index == len(order) - 1
            answer = answered(client, number, bid)
            assert answer["type"] == "position", answer
            if last:
                break
            assert answer["sealed"]["mine"] == bid  # its own choice is shown to it
            if rng.random() < 0.4:  # bid again: refused, the first stands
                client.act(rng.choice(legal))
                assert "chosen already" in answered(client, number)["error"]
            if rng.random() < 0.4:  # take it back and bid another
                client.send({"type": "undo"})
                result = client.until(lambda m: m["type"] == "undo-result")
                assert result["done"] and result.get("sealed"), result
                again = client.until(lambda m: m["type"] == "position")
                assert again["sealed"]["mine"] is None and seat in again["sealed"]["waiting"]
                bid = rng.choice(legal)
                entered[number][seat].add(bid)
                client.act(bid)
                assert answered(client, number, bid)["sealed"]["mine"] == bid
    clients[None].at(position["number"])
    token = next(s["token"] for s in links["seats"] if s["seat"] in people)
    return clients, links["id"], token, entered


def stripped(message: Message, seat: int | None, record: Match, own_legal: list[str]) -> str:
    """``message`` as JSON without what ``seat`` may read there of bids: its own listed
    actions and sealed choice, its refusals' list of its own choices, and the log's and
    ``last``'s entries, each checked to be a revealed action as the record has it."""
    body = dict(message)
    number = message.get("number", 0)
    if body["type"] == "position":
        assert body["legal"] == body["legal_said"] == [] or seat is not None
        body["legal"] = body["legal_said"] = []  # the same listed actions, in words
        sealed = body.get("sealed")
        if sealed is not None:
            if seat is None:
                assert sealed["mine"] is None
            body["sealed"] = {**sealed, "mine": None}
    if body["type"] == "log":
        for entry in body["entries"]:
            index = entry["number"] - 1
            assert index < number and entry["text"] == record.texts[index], entry
            assert entry["said"] == record.texts[index], entry  # Goofspiel: words = notation
        body["entries"] = []
    if body["type"] == "last":
        for player, text in body["actions"].items():
            done = [i for i in range(number) if record.actors[i] == int(player)]
            assert text == (record.texts[done[-1]] if done else None), (player, text)
        body["actions"] = {}
    if body["type"] == "error":
        mine = ", ".join(own_legal)
        body["error"] = body["error"].replace(f"allowed: {mine}", "allowed: (own)")
    return json.dumps(body, ensure_ascii=False)


def sweep(
    clients: dict[int | None, Client], text: str, entered: dict[int, dict[int, set[str]]]
) -> int:
    """Every message received while a round was sealed, searched for any bid; returns how
    many messages were searched."""
    match = Match.from_record(registry().get("goofspiel"), Record.from_text(text))
    assert match.outcome() is not None
    searched = 0
    for seat, client in clients.items():
        number, legal = 0, []
        shown_own = 0
        for message in client.messages:
            number = message.get("number", number)
            if message["type"] == "position":
                legal = message["legal"]
            if number not in entered:
                continue  # not a sealed round's position (the end, or before any)
            body = stripped(message, seat, match, legal)
            assert BID.findall(body) == [], (seat, message)
            sealed = message.get("sealed") if message["type"] == "position" else None
            mine = (sealed or {}).get("mine")
            if mine is not None:
                assert mine in entered[number][seat]  # type: ignore[index]
                shown_own += 1
            searched += 1
        if seat is not None:
            assert shown_own > 0  # the search can fail: its own sealed bid is in its messages
    return searched


CASES = [(2, {}, 1), (3, {2: "greedy"}, 2), (4, {1: "random", 4: "2"}, 3)]


@pytest.mark.parametrize(("players", "computers", "seed"), CASES)
def test_no_message_carries_a_sealed_bid_of_another(
    tmp_path: Path, players: int, computers: dict[int, str], seed: int
) -> None:
    with live_server(tmp_path / "m.sqlite3") as base:
        clients, match_id, token, entered = play(base, players, computers, seed)
        status, text = get(base, f"api/matches/{match_id}/record?token={token}")
        assert status == 200, text
        for client in clients.values():
            client.close()
    assert len(entered) >= 4  # a sealed round a card (the last card: played for you)
    assert sweep(clients, text, entered) > 5 * players

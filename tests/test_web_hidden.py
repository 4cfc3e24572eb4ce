"""No websocket message carries what its receiver may not see (N7, K8).

Whole Quartino and Čtverák matches are played over real websockets against a live
server (uvicorn on a loopback port): people's seats by scripted clients (mostly the
games' basic agents on their own view, sometimes any listed action, false claims
included), one seat by the server's computer, and a spectator watching. Afterwards the
record (given once the game is over) replays the true states, and every message each
connection received is searched for every card that connection could not see at that
point: the others' stands or hands, the stock, the bases, the cards out of play.
"""

from __future__ import annotations

import json
import random
import time
from pathlib import Path
from typing import Any

import pytest

from tabletop.agents.base import Turn
from tabletop.agents.facet import players_of
from tabletop.core.match import Match
from tabletop.core.records import Record
from tabletop.core.registry import registry
from tabletop.game import CHANCE, Game
from tests import test_ctverak_cli as ctv
from tests import test_quartino_cli as qtn
from tests.web_support import Client, Message, get, live_server, post


def hidden_cards(game_id: str, state: Any, seat: int | None) -> set[str]:
    if game_id == "quartino":
        return qtn.hidden_from(state, seat)
    return ctv.secret(state, seat)  # type: ignore[arg-type]


def named_cards(game_id: str, text: str, hidden: set[str]) -> set[str]:
    if game_id == "quartino":
        return qtn.leaked(text, hidden)
    return ctv.named(text) & hidden


def choose(
    game: Game[Any, Any],
    position: Message,
    seat: int,
    players: int,
    options: Any,
    rng: random.Random,
    refused: set[str],
    wild: float = 0.2,
) -> str:
    """A listed action: the basic agent's on this seat's own view, or (with probability
    ``wild``) any listed one, false claims and refusable offers included."""
    listed: list[str] = [t for t in position["legal"] if t not in refused]
    if rng.random() < wild:
        return rng.choice(listed)
    view = position["view"]
    sample = game.sample(view, seat, players, options, rng)
    legal = set(game.legal(sample))
    actions = [a for a in (game.parse(sample, t) for t in listed) if a in legal]
    if not actions:
        return rng.choice(listed)
    agent = players_of(game).agents()["basic"]()
    action = agent.act(Turn(game, seat, players, options, view, actions, rng))
    return game.format(sample, action)


def settle(clients: list[Client], computers: set[int]) -> Message:
    """Read until every client has the same latest position and a person is to act there
    (or the game is over); returns that position."""
    while True:
        top = max(c.position.get("number", -1) for c in clients)
        lagging = [c for c in clients if c.position.get("number", -1) != top]
        for client in lagging:
            client.at(top)
        if lagging:
            continue
        position = clients[0].position
        if position["status"] == "over" or position["to_act"] not in computers:
            return position
        for client in clients:
            client.at(top + 1)


def play_match(
    base: str | list[str],
    game_id: str,
    players: int,
    options: dict[str, Any],
    computers: dict[int, str],
    seed: int,
) -> tuple[dict[int | None, Client], str, str]:
    """The whole match, each person seat and a spectator a client of its own; given
    several servers' ``base`` URLs, the clients are spread over them (the spectator on
    the last one) and the match is created on the first."""
    bases = [base] if isinstance(base, str) else base
    seats = [{"seat": s, "ai": computers.get(s)} for s in range(1, players + 1)]
    status, links = post(bases[0], "api/matches", {
        "game": game_id, "players": players, "options": options, "seats": seats,
        "spectators": True, "move_time": None,
    })  # fmt: skip
    assert status == 201, links
    clients: dict[int | None, Client] = {
        s["seat"]: Client(bases[i % len(bases)], links["id"], s["token"])
        for i, s in enumerate(links["seats"])
    }
    clients[None] = Client(bases[-1], links["id"])
    game = registry().get(game_id)
    model = game.info.options(**options)
    rng = random.Random(seed)
    everyone = list(clients.values())
    for client in everyone:
        client.at(0)
    # the seats keep step; the spectator (told at most once a second) must reach the end
    seated = [c for s, c in clients.items() if s is not None]
    while True:
        position = settle(seated, set(computers))
        if position["status"] == "over":
            break
        seat = position["to_act"]
        actor = clients[seat]
        refused: set[str] = set()
        while True:
            text = choose(game, actor.position, seat, players, model, rng, refused)
            number = actor.position["number"]
            actor.act(text)
            answer = actor.until(
                lambda m: m["type"] == "error" or (m["type"] == "position" and m["number"] > number)  # noqa: B023
            )
            if answer["type"] == "position":
                break
            if answer["error"].startswith("too many messages"):
                time.sleep(1)  # the server's flood limit: slow down, send it again
                continue
            refused.add(text)  # a listed offer the rules refuse (it reveals nothing)
    clients[None].at(position["number"])
    return clients, links["id"], links["seats"][0]["token"]


CASES = [
    ("quartino", 2, {}, {}, 1),
    ("quartino", 3, {}, {3: "basic"}, 2),
    ("ctverak", 2, {"deck": "half"}, {}, 3),
    ("ctverak", 3, {"deck": "half"}, {2: "basic"}, 4),
]


@pytest.mark.parametrize(("game_id", "players", "options", "computers", "seed"), CASES)
def test_every_message_shows_each_connection_only_what_it_may_see(
    tmp_path: Path,
    game_id: str,
    players: int,
    options: dict[str, Any],
    computers: dict[int, str],
    seed: int,
) -> None:
    with live_server(tmp_path / "m.sqlite3") as base:
        clients, match_id, token = play_match(base, game_id, players, options, computers, seed)
        status, text = get(base, f"api/matches/{match_id}/record?token={token}")
        assert status == 200, text
        for client in clients.values():
            client.close()
    sweep(game_id, clients, text)


def sweep(game_id: str, clients: dict[int | None, Client], text: str) -> None:
    """Every message of every client searched for every card its receiver could not see
    then (``text``: the finished match's record)."""
    game = registry().get(game_id)
    match = Match.from_record(game, Record.from_text(text))
    final = len(match.actions)
    assert match.outcome() is not None and final > 10
    # the first position anyone sees: after the deal's chance steps (issue 35)
    start = next(i for i, actor in enumerate([*match.actors, 0]) if actor != CHANCE)
    everything = (
        hidden_cards(game_id, match.states[start], None)
        | hidden_cards(game_id, match.states[start], 1)
        | hidden_cards(game_id, match.states[start], 2)
    )
    checked = 0
    for seat, client in clients.items():
        # what this seat has seen so far: a card it once saw (its own discard, since drawn
        # by another) it may be reminded of; a card it never saw it may never be shown
        seen = [everything - hidden_cards(game_id, match.states[start], seat)] * (start + 1)
        for state in match.states[start + 1 :]:
            seen.append(seen[-1] | (everything - hidden_cards(game_id, state, seat)))
        number = 0
        for message in client.messages:
            number = message.get("number", number)
            if number >= final:
                continue  # the game is over: everything may be shown
            body = json.dumps(message, ensure_ascii=False)
            never_seen = hidden_cards(game_id, match.states[number], seat) - seen[number]
            assert named_cards(game_id, body, never_seen) == set(), (seat, message)
            checked += 1
    assert checked > 3 * final  # every connection saw the whole game
    # the checks can fail: a seat's own position names its own cards
    own = [m for m in clients[1].messages if m["type"] == "position" and m["number"] == start]
    theirs = hidden_cards(game_id, match.states[start], 2)
    assert (
        named_cards(
            game_id,
            json.dumps(own, ensure_ascii=False),
            theirs | hidden_cards(game_id, match.states[start], None),
        )
        != set()
    )

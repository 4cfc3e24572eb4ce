"""Display names at the table (issue 37, item 1): normalised and bounded, never a seat's
label in any language nor another seat's name; a seat's name stored (it survives a
SIGKILL), sent to everyone in the players list, beside the seat in the chat, in the
record; a spectator's with its connection; a refusal changes nothing."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed

from tabletop.core.records import Record
from tabletop.web import names, store
from tests.migrations import postgres_migrated, sqlite_migrated, without_table
from tests.test_web_process import kill
from tests.web_support import Client, Message, free_port, get, post, start_process

LIMIT = "a name is 1 to 24 characters"


# -- the rules of a name ------------------------------------------------------------------


def test_a_name_is_normalised_nfc_without_control_or_direction_characters() -> None:
    assert names.normalise("  Ali\u200bce \t\n Smith ") == "Alice Smith"
    assert names.normalise("A\u202eecila\u202c") == "Aecila"  # a right-to-left override
    assert names.normalise("Zdene\u030ck") == "Zdeněk"  # composed (NFC)
    assert names.normalise("a\u2028b\u2029c\x00d\x1b") == "abcd"  # separators, controls
    assert names.refusal(names.normalise("Bob")) == ""


@pytest.mark.parametrize("name", ["", "   ", "\u202e\u200b", "x" * 25, "y" * 10_000])
def test_a_name_out_of_bounds_is_refused_saying_what_is_allowed(name: str) -> None:
    said = names.refusal(names.normalise(name))
    assert said.startswith(LIMIT), said


@pytest.mark.parametrize(
    "name",
    ["player 2", "Player 2", "PLAYER2", "player-2", "Ｐｌａｙｅｒ２", "Hráč 1", "Hráč 3",
     "gracz 4", "Играч 2", "игрок 2", "Spectator", "divák", "Widz", "зритель", "you", "Vy"],
)  # fmt: skip
def test_no_name_is_a_seat_label_or_spectator_of_any_language(name: str) -> None:
    assert names.refusal(names.normalise(name)) == names.RESERVED


def test_a_name_another_seat_has_is_refused_whatever_its_case_or_spaces() -> None:
    assert names.refusal("ALICE", ["alice"]) == names.TAKEN
    assert names.refusal("A l-i c e", ["Alice"]) == names.TAKEN
    assert names.refusal("!!", []) == names.NO_LETTER
    assert names.refusal("Alice2", ["Alice"]) == ""


def test_a_record_keeps_the_names_and_one_without_keeps_its_checksum() -> None:
    plain = Record(game="quarto", game_version="1", players=2, options={}, seed=1)
    assert "names" not in plain.to_text()
    named = plain.model_copy(update={"names": {"1": "Alice"}})
    again = Record.from_text(named.to_text())
    assert again.names == {"1": "Alice"} and again.checksum() == named.checksum()
    assert plain.checksum() == Record.from_text(plain.to_text()).checksum()


def test_a_version_6_database_gains_the_names_table(tmp_path: Path) -> None:
    assert sqlite_migrated(tmp_path / "old.sqlite3", "names", 6) == (store.VERSION, (0,))


def test_a_version_3_postgres_database_gains_the_names_table(pg_url: str) -> None:
    from tabletop.web import postgres

    before = without_table(postgres.SCHEMA, "names")
    assert postgres_migrated(pg_url, before, 3, "names") == ((postgres.VERSION,), (0,))


def until_type(client: Client, kind: str) -> Message:
    return client.until(lambda m: m["type"] in (kind, "error"))


def players(client: Client) -> dict[str, str]:
    """The names of the next players list (a ``presence`` message) ``client`` is sent."""
    message = client.until(lambda m: m["type"] == "presence")
    return dict(message["presence"]["names"])


def name(client: Client, text: str) -> Message:
    client.send({"type": "name", "name": text})
    return client.until(lambda m: m["type"] == "name" or m.get("about") == "name")


def create_match(base: str) -> Any:
    asked = {"game": "quarto", "players": 2, "spectators": True, "spectator_chat": True}
    status, links = post(base, "/api/matches", asked)
    assert status == 201, links
    return links


def test_names_reach_everyone_refusals_change_nothing_and_survive_a_sigkill(
    tmp_path: Path,
) -> None:
    db, port = tmp_path / "m.sqlite3", free_port()
    process = start_process(db, port)
    base = f"http://127.0.0.1:{port}/"
    try:
        links = create_match(base)
        mid, tokens = links["id"], {s["seat"]: s["token"] for s in links["seats"]}
        alice, bob = Client(base, mid, tokens[1]), Client(base, mid, tokens[2])
        carol = Client(base, mid)
        for client in (alice, bob, carol):
            client.at(0)
        assert name(alice, "  Alice\u202e ") == {"type": "name", "seat": 1, "name": "Alice"}
        for client in (alice, bob, carol):
            assert players(client) == {"1": "Alice"}
        # refused, each with its one line, and nothing changed
        for text, said in [("player 2", "that is how the page calls a seat"),
                           ("ALICE", "another seat of this match already has that name"),
                           ("<img src=x onerror=alert(1)>", LIMIT), ("\u202e", LIMIT),
                           ("Hráč 1", "that is how the page calls a seat")]:  # fmt: skip
            answer = name(bob, text)
            assert answer["type"] == "error" and answer["error"].startswith(said), answer
        answer = name(carol, "alice")  # a spectator cannot pass for a seat either
        assert answer["type"] == "error" and "already has that name" in answer["error"]
        bob.send({"type": "name", "name": 7})
        assert "needs 'name'" in bob.until(lambda m: m["type"] == "error")["error"]
        # a hostile name short enough is kept as text: the page puts it in as text
        hostile = "<img src=x onerror=1>"
        assert name(bob, hostile)["name"] == hostile
        assert players(alice) == {"1": "Alice", "2": hostile}
        assert name(carol, "Carol")["seat"] is None  # a spectator's: with its connection
        # the chat says who, beside the seat; the sender's own copy is marked
        carol.send({"type": "chat", "text": "hi from the seats"})
        mine = carol.until(lambda m: m["type"] == "chat")
        theirs = alice.until(lambda m: m["type"] == "chat")
        assert (mine["name"], mine["seat"], mine.get("mine")) == ("Carol", None, True)
        assert (theirs["name"], theirs["seat"], "mine" in theirs) == ("Carol", None, False)
        alice.send({"type": "chat", "text": "hello"})
        heard = bob.until(lambda m: m["type"] == "chat" and m["seat"] == 1)
        assert heard["name"] == "Alice" and "mine" not in heard
        # a 10 kB name is refused outright (the message is too big), nothing changed
        alice.send({"type": "name", "name": "z" * 10_000})
        with pytest.raises(ConnectionClosed):
            alice.until(lambda m: False, timeout=30)
        for client in (alice, bob, carol):
            client.close()
        kill(process)
        process = start_process(db, port)
        again = Client(base, mid, tokens[2])
        position = again.at(0)
        assert position["presence"]["names"] == {"1": "Alice", "2": hostile}
        chat = [m for m in again.messages if m["type"] == "chat"]
        assert [(m["seat"], m["name"]) for m in chat] == [(None, "Carol"), (1, "Alice")]
        assert name(again, "Bob")["name"] == "Bob"  # a seat renames itself
        assert players(again) == {"1": "Alice", "2": "Bob"}
        again.close()
        # the record (once over) carries the names
        play_out(base, mid, tokens)
        status, text = get(base, f"/api/matches/{mid}/record?token={tokens[1]}")
        assert status == 200, text
        assert json.loads(text)["names"] == {"1": "Alice", "2": "Bob"}
        assert Record.from_text(text).names == {"1": "Alice", "2": "Bob"}
    finally:
        kill(process)


def play_out(base: str, mid: str, tokens: dict[int, str]) -> None:
    """Seat 1 resigns: the game is over."""
    client = Client(base, mid, tokens[1])
    client.at(0)
    client.send({"type": "resign"})
    client.until(lambda m: m["type"] == "position" and m["status"] == "over")
    client.close()


def test_a_seat_s_name_reaches_the_other_server_and_one_name_holds_one_seat(
    pg_url: str, redis_server: Any
) -> None:
    from tests.test_web_shared import cluster
    from tests.test_web_shared import create as create_on

    with cluster(pg_url, redis_server, 2) as servers:
        links = create_on(servers.base(0), {"game": "quarto", "players": 2})
        mid, tokens = links["id"], {s["seat"]: s["token"] for s in links["seats"]}
        alice = Client(servers.base(0), mid, tokens[1])
        bob = Client(servers.base(1), mid, tokens[2])
        for client in (alice, bob):
            client.at(0)
        assert name(alice, "Alice")["name"] == "Alice"
        bob.until(lambda m: m["type"] == "presence" and m["presence"]["names"] == {"1": "Alice"})
        answer = name(bob, "alice")  # through the other server: still refused
        assert answer["type"] == "error" and "already has that name" in answer["error"]
        assert name(bob, "Bob")["name"] == "Bob"
        alice.until(lambda m: m["type"] == "presence" and m["presence"]["names"].get("2") == "Bob")
        for client in (alice, bob):
            client.close()
        late = Client(servers.base(1), mid)  # a spectator of the other server, later
        assert late.at(0)["presence"]["names"] == {"1": "Alice", "2": "Bob"}
        late.close()

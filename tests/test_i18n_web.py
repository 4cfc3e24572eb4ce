"""`tabletop serve` speaks each connection's language: ``Accept-Language``, ``?lang=``
and the switcher's cookie choose it; every prose field a connection receives (prompt,
reason, error) is in its language, machine words (notation, keys) never change; the page
scripts get the catalogues as JSON and the rules in any language."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from tabletop.web.app import build_app
from tests.web_support import TEST_CONFIG

Json = dict[str, Any]


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(build_app(tmp_path / "m.sqlite3", TEST_CONFIG)) as c:
        yield c


def until(ws: Any, kind: str) -> Json:
    while True:
        message: Json = ws.receive_json()
        if message["type"] == kind:
            return message


def quartino(client: TestClient) -> Json:
    body = {"game": "quartino", "players": 2, "options": {}, "spectators": True, "move_time": None}
    answer = client.post("/api/matches", json=body)
    assert answer.status_code == 201, answer.text
    made: Json = answer.json()
    return made


def test_a_czech_and_a_polish_friend_each_read_their_own(client: TestClient) -> None:
    made = quartino(client)
    one, two = (s["token"] for s in made["seats"])
    mid = made["id"]
    with (
        client.websocket_connect(
            f"/ws/{mid}?token={one}", headers={"Accept-Language": "cs-CZ,cs;q=0.9"}
        ) as czech,
        client.websocket_connect(f"/ws/{mid}?token={two}&lang=pl") as polish,
        client.websocket_connect(f"/ws/{mid}", headers={"Cookie": "tabletop_lang=bg"}) as bulgarian,
        client.websocket_connect(f"/ws/{mid}") as english,
    ):
        assert until(czech, "hello")["lang"] == "cs" and until(polish, "hello")["lang"] == "pl"
        assert until(bulgarian, "hello")["lang"] == "bg" and until(english, "hello")["lang"] == "en"
        first = {name: until(ws, "position") for name, ws in
                 (("cs", czech), ("pl", polish), ("bg", bulgarian), ("en", english))}  # fmt: skip
        assert first["cs"]["prompt"] == "položte figurku (zbývá 1 z 1)"
        assert first["pl"]["prompt"] == "połóż pionek (zostało 1 z 1)"
        assert first["bg"]["prompt"] == "поставете пионка (остават 1 от 1)"
        assert first["en"]["prompt"] == "place a pawn (1 of 1 owed)"
        assert first["bg"]["view"] == first["en"]["view"]  # the same spectator's view
        assert first["cs"]["legal"][:2] == ["place Y c", "place Y r0"]  # notation stays
        start = first["cs"]["number"]  # after the deal (chance steps)
        czech.send_json({"type": "action", "action": "end", "number": start})
        refused = until(czech, "error")["error"]
        assert refused.startswith(
            "před koncem tahu ještě dlužíte 1 figurku (N4.5, N4.2); povoleno: place Y c"
        )
        polish.send_json({"type": "action", "action": "place Y c", "number": start})
        assert until(polish, "error")["error"] == "teraz ruch: gracz 1, nie twój"
        english.send_json({"type": "action", "action": "end", "number": start})
        assert until(english, "error")["error"] == "spectators cannot act"
        bulgarian.send_json({"type": "action", "action": "end", "number": start})
        assert until(bulgarian, "error")["error"] == "зрителите не могат да играят"
        czech.send_json({"type": "action", "action": "place Y c", "number": start})
        assert until(czech, "position")["number"] == start + 1
        assert until(polish, "last")["actions"]["1"] == "place Y c"  # notation: neutral
        after = until(polish, "position")
        assert after["number"] == start + 1 and after["prompt"] in (
            "ogłoś kartę albo zakończ kolejkę",
            "połóż pionek (zostało 1 z 1)",
        )


def test_an_unknown_lang_is_refused_with_the_languages(client: TestClient) -> None:
    answer = client.get("/api/i18n?lang=de")
    assert answer.status_code == 400
    assert answer.json()["error"].startswith(
        "unknown language 'de' for ?lang; languages: en (English)"
    )
    made = quartino(client)
    with client.websocket_connect(f"/ws/{made['id']}?lang=xx") as ws:
        assert "unknown language 'xx'" in ws.receive_json()["error"]


def test_the_catalogues_are_served_as_json_for_the_page_scripts(client: TestClient) -> None:
    chosen = client.get("/api/i18n", headers={"Accept-Language": "de, ru;q=0.8, pl;q=0.5"}).json()
    assert chosen["lang"] == "ru" and chosen["languages"]["cs"] == "čeština"
    quartino = chosen["catalogues"]["tabletop_quartino"]
    assert quartino["plural"].startswith("n % 10 == 1 && n % 100 != 11 ? 0")
    assert quartino["messages"]["{n} card"] == ["{n} карта", "{n} карты", "{n} карт"]
    assert chosen["catalogues"]["tabletop"]["messages"]["player {n}"] == "игрок {n}"
    assert set(chosen["catalogues"]) >= {
        "tabletop",
        "tabletop.web",
        "tabletop_quarto",
        "tabletop_ctverak",
    }
    english = client.get("/api/i18n").json()
    assert english["lang"] == "en" and english["catalogues"]["tabletop"]["messages"] == {}
    client.cookies.set("tabletop_lang", "pl")  # the header's switcher remembers it
    assert client.get("/api/i18n").json()["lang"] == "pl"
    assert client.get("/api/i18n?lang=bg").json()["lang"] == "bg"  # ?lang= wins


def test_the_rules_in_each_language(client: TestClient) -> None:
    czech = client.get("/api/games/ctverak/rules?lang=cs").json()
    assert czech["lang"] == "cs" and czech["markdown"].startswith("# Čtverák\n\nKaretní hra")
    english = client.get("/api/games/ctverak/rules").json()
    assert english["lang"] == "en" and "Karetní" not in english["markdown"]
    assert client.get("/api/games/nope/rules").status_code == 404


def test_the_rules_page_speaks_the_connection_language(client: TestClient) -> None:
    """GET /games/{game}/rules: ?lang=, the switcher's cookie, Accept-Language, English."""
    asked = client.get("/games/ctverak/rules?lang=cs")
    assert asked.status_code == 200 and '<html lang="cs">' in asked.text
    assert "Karetní hra" in asked.text and "Pravidla hry Čtverák" in asked.text
    assert "Zpět do předsálí" in asked.text and "/static/i18n.js" in asked.text
    russian = client.get("/games/quarto/rules", headers={"Accept-Language": "ru-RU,ru;q=0.9"})
    assert '<html lang="ru">' in russian.text and "Правила игры Quarto" in russian.text
    client.cookies.set("tabletop_lang", "pl")
    polish = client.get("/games/quartino/rules", headers={"Accept-Language": "ru"})
    assert '<html lang="pl">' in polish.text and "Zasady gry Quartino" in polish.text
    client.cookies.clear()
    english = client.get("/games/ctverak/rules")
    assert '<html lang="en">' in english.text and "Karetní hra" not in english.text
    wrong = client.get("/games/ctverak/rules?lang=xx")
    assert wrong.status_code == 400 and "cs" in wrong.text and "ru" in wrong.text


def test_the_games_listing_speaks_the_connection_language(client: TestClient) -> None:
    """GET /api/games: each game's summary and option help in the language; keys as they are."""
    english = {g["id"]: g for g in client.get("/api/games").json()}
    czech = {g["id"]: g for g in client.get("/api/games?lang=cs").json()}
    assert czech["quarto"]["summary"] != english["quarto"]["summary"]
    assert "hrací kámen" in czech["quarto"]["summary"]
    assert [o["name"] for o in czech["quarto"]["options"]] == [
        o["name"] for o in english["quarto"]["options"]
    ]
    assert czech["quarto"]["options"][0]["help"] != english["quarto"]["options"][0]["help"]
    assert client.get("/api/games?lang=xx").status_code == 400


def test_the_pages_carry_their_words_and_the_switcher_script(client: TestClient) -> None:
    lobby = client.get("/").text
    assert '<h2 id="games-title" data-i18n>Games</h2>' in lobby and "/static/i18n.js" in lobby
    script = client.get("/static/i18n.js")
    assert script.status_code == 200 and "tabletop_lang" in script.text
    pages = client.get("/api/i18n?lang=cs").json()["catalogues"]["tabletop.web"]["messages"]
    assert pages["Games"] == "Hry" and pages["Language"] == "Jazyk"


def test_too_many_connections_is_refused_in_the_handshakes_language(tmp_path: Path) -> None:
    from dataclasses import replace

    from tabletop.web.config import Limits

    config = replace(TEST_CONFIG, limits=Limits(sockets_per_client=1))
    with TestClient(build_app(tmp_path / "m.sqlite3", config)) as c:
        made = quartino(c)
        url = f"/ws/{made['id']}"
        with c.websocket_connect(url) as first:
            until(first, "hello")
            for lang, header, word in (
                ("cs", "cs-CZ,cs;q=0.9", "příliš mnoho"),
                ("ru", "ru", "слишком много"),
            ):
                with c.websocket_connect(url, headers={"Accept-Language": header}) as extra:
                    error = extra.receive_json()["error"]
                    assert word in error.lower() and "(--max-sockets-per-client)" in error, lang
            with c.websocket_connect(url) as extra:
                assert extra.receive_json()["error"].startswith("too many connections: at most 1")


def test_the_log_says_a_card_dealt_to_another_as_the_game_says_it(client: TestClient) -> None:
    """Issue 35: Quartino's deal is chance steps; each seat's log names its own cards and
    says each card dealt to another in its own language (the game's unseen_text)."""
    made = quartino(client)
    one = made["seats"][0]["token"]
    with (
        client.websocket_connect(f"/ws/{made['id']}?token={one}&lang=cs") as czech,
        client.websocket_connect(f"/ws/{made['id']}?lang=ru") as russian,
    ):
        mine, theirs = until(czech, "log")["entries"], until(russian, "log")["entries"]
    assert len(mine) == len(theirs) == 8 and all(e["player"] == -1 for e in mine)
    own = [e for e in mine if e["text"] != "played"]
    assert len(own) == 4 and all(e["text"].startswith("deal ") for e in own)  # player 1's
    hidden = [e for e in mine if e["text"] == "played"]
    assert [e["said"] for e in hidden] == ["hráč 2 dostal kartu"] * 4
    assert all(e["text"] == "played" and "deal" not in json.dumps(e) for e in theirs)
    assert {e["said"] for e in theirs} == {"игрок 1 получил карту", "игрок 2 получил карту"}

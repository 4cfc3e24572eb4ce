"""The one-line errors of `tabletop serve` in the reader's language: its flags and its
database (``TABLETOP_LANG``, then the locale), and the host guard's refusals in the
language the client asks (``Accept-Language``), websocket close reasons kept within the
frame's 123 bytes."""

from __future__ import annotations

import asyncio
import json
from collections.abc import MutableMapping
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from tabletop.cli.app import app
from tabletop.web.guard import HostGuard, close_reason


def serve_error(args: list[str], lang: str) -> str:
    result = CliRunner().invoke(app, ["serve", *args], env={"TABLETOP_LANG": lang})
    assert result.exit_code != 0 and "Traceback" not in result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    return lines[0]


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        ("en", "tabletop: --port must be 1-65535, not 70000"),
        ("cs", "tabletop: --port musí být 1–65535, ne 70000"),
        ("pl", "tabletop: --port musi być z zakresu 1–65535, a nie 70000"),
        ("bg", "tabletop: --port трябва да е 1–65535, а не 70000"),
        ("ru", "tabletop: --port должен быть от 1 до 65535, а не 70000"),
    ],
)
def test_serve_flag_errors_speak_tabletop_lang(lang: str, expected: str) -> None:
    assert serve_error(["--port", "70000"], lang) == expected


def test_serve_database_and_bus_errors_are_translated(tmp_path: Path) -> None:
    folder = f"--db {tmp_path} je složka; uveďte soubor databáze v ní"
    assert serve_error(["--db", str(tmp_path)], "cs") == f"tabletop: {folder}"
    assert serve_error(["--workers", "99"], "pl") == (
        "tabletop: --workers musi być liczbą całkowitą 1..64, a nie 99"
    )
    assert serve_error(["--bus", "redis://h:1/0"], "ru").startswith(
        "tabletop: для --bus нужен --db postgresql://"
    )
    broken = tmp_path / "broken.sqlite3"
    broken.write_bytes(b"not a database at all" * 100)
    line = serve_error(["--db", str(broken)], "bg")
    assert line.startswith(f"tabletop: базата данни {broken} не може да се използва: ")


async def refused(headers: dict[str, str], kind: str = "http") -> list[dict[str, Any]]:
    sent: list[dict[str, Any]] = []

    async def inner(scope: Any, receive: Any, send: Any) -> None:
        raise AssertionError("a refused request reached the app")

    async def receive() -> dict[str, Any]:
        return {"type": "websocket.connect"}

    async def send(message: MutableMapping[str, Any]) -> None:
        sent.append(dict(message))

    scope = {
        "type": kind, "path": "/", "query_string": b"",
        "headers": [(k.lower().encode(), v.encode()) for k, v in headers.items()],
    }  # fmt: skip
    await HostGuard(inner, ("localhost",))(scope, receive, send)
    return sent


def test_the_host_guard_refuses_in_the_clients_language() -> None:
    asyncio.run(host_guard_refusals())


async def host_guard_refusals() -> None:
    sent = await refused({"Host": "rebind.example", "Accept-Language": "cs-CZ,cs;q=0.9"})
    error = json.loads(sent[1]["body"])["error"]
    assert error.startswith("hostitel 'rebind.example' není povolen (povoleni: localhost)")
    other = {"Host": "localhost", "Origin": "http://evil.example", "Accept-Language": "pl"}
    error = json.loads((await refused(other))[1]["body"])["error"]
    assert error == "strona innej witryny ('http://evil.example') nie może korzystać z tego serwera"
    english = await refused({"Host": "rebind.example"})
    assert json.loads(english[1]["body"])["error"].startswith("host 'rebind.example' is not")
    russian = await refused({"Host": "rebind.example", "Accept-Language": "ru"}, "websocket")
    reason = russian[0]["reason"]
    assert russian[0]["code"] == 1008 and reason.startswith("хост 'rebind.example' не разрешён")
    assert len(reason.encode()) <= 123


def test_a_close_reason_is_cut_between_letters() -> None:
    assert close_reason("я" * 100) == "я" * 60
    assert close_reason("ok") == "ok"


def command_error(args: list[str], env: dict[str, str]) -> str:
    result = CliRunner().invoke(app, args, env=env, prog_name="tabletop")
    assert result.exit_code != 0 and "Traceback" not in result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    return lines[0]


def test_new_solve_and_seat_errors_speak_the_readers_language(tmp_path: Path) -> None:
    czech = {"TABLETOP_LANG": "cs"}
    assert command_error(["new", "9x"], czech).startswith(
        "tabletop: chybné id hry '9x': použijte malá písmena"
    )
    taken = tmp_path / "taken"
    taken.mkdir()
    assert command_error(["new", "nim", "--dir", str(taken)], {"LANG": "ru_RU.UTF-8"}) == (
        f"tabletop: {taken} уже существует; укажите новую папку через --dir"
    )
    assert command_error(["solve", "connect4"], {"TABLETOP_LANG": "pl"}) == (
        "tabletop: Connect Four nie ma dokładnego solwera"
    )
    assert command_error(["play", "quarto", "--lang", "bg", "--ai", "7"], {}) == (
        "tabletop: --ai '7': мястото трябва да е номер на играч 1-2 или 'lot'"
    )


def test_a_plugin_error_is_translated_where_it_is_shown() -> None:
    from tabletop.core.errors import TabletopError
    from tabletop.core.i18n.text import message_of, translate
    from tabletop.core.plugins import plugin_manager

    class Bogus:
        from tabletop.hookspecs import hookimpl

        @hookimpl
        def tabletop_no_such_hook(self) -> None:
            """A hook no spec names: the plugin is invalid."""

    with pytest.raises(TabletopError) as caught:
        plugin_manager([Bogus()])
    assert translate(message_of(caught.value), "cs").startswith("chyba pluginu: ")
    assert str(caught.value).startswith("plugin error: ")


@pytest.mark.parametrize(
    ("args", "env", "expected"),
    [
        (["play", "quarto", "--lang", "cs", "--lan"], {},
         "tabletop: Neznámý přepínač: --lan (možné přepínače: --ai, --lang, --load) "
         "(viz 'tabletop play --help')"),
        (["play"], {"TABLETOP_LANG": "ru"},
         "tabletop: Не указан аргумент 'game'. (см. 'tabletop play --help')"),
        (["play", "quarto", "--seed", "x", "--lang=pl"], {},
         "tabletop: Nieprawidłowa wartość dla '--seed': dozwolona jest liczba całkowita "
         "0..9223372036854775807, a nie 'x' (zobacz 'tabletop play --help')"),
        (["play", "quarto", "--move-time", "abc"], {"LANG": "bg_BG.UTF-8"},
         "tabletop: Невалидна стойност за '--move-time': разрешени са секунди 1..86400 "
         "(обикновено десетично число), а не 'abc' (вижте 'tabletop play --help')"),
        (["play", "quarto", "--bogus"], {},
         "tabletop: No such option: --bogus (see 'tabletop play --help')"),
    ],
)  # fmt: skip
def test_click_usage_errors_speak_the_lang_flag_or_the_environment(
    args: list[str], env: dict[str, str], expected: str
) -> None:
    result = CliRunner().invoke(app, args, env=env, prog_name="tabletop")
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [expected]


def test_flag_errors_of_check_test_and_serve_and_run_stays_english() -> None:
    assert command_error(["check", "quarto", "--games", "0"], {"TABLETOP_LANG": "cs"}) == (
        "tabletop: Neplatná hodnota pro '--games': je povoleno celé číslo 1..1000000, ne '0' "
        "(viz 'tabletop check --help')"
    )
    assert command_error(["test", "--seconds", "3"], {"LANG": "pl_PL.UTF-8"}) == (
        "tabletop: --module, --max-mutants, --seconds i --json idą razem z --mutate"
    )
    assert command_error(["serve", "--public-url", "ftp://x"], {"TABLETOP_LANG": "ru"}) == (
        "tabletop: --public-url должен быть адресом http:// или https://, например "
        "https://games.example.org/, а не 'ftp://x'"
    )
    scripted = command_error(["run", "quarto", "--ai", "9"], {"TABLETOP_LANG": "cs"})
    assert scripted.startswith("tabletop: No such option: --ai")
    assert command_error(["run", "quarto", "--lang", "cs", "--ai", "9"], {}).startswith(
        "tabletop: Neznámý přepínač: --ai"
    )


def test_a_missing_scenario_file_is_said_in_the_environments_language(tmp_path: Path) -> None:
    missing = tmp_path / "none.yaml"
    assert command_error(["test", str(missing)], {"TABLETOP_LANG": "bg"}) == (
        f"tabletop: няма такъв файл или папка със сценарии: {missing}"
    )

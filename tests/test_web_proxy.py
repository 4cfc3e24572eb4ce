"""Links only to this site (issue 39, item 1), against a real `tabletop serve` process:

- a client's ``X-Forwarded-Host``/``-Proto`` are ignored unless the peer is a trusted
  proxy (``--forwarded-allow-ips``): the links it is handed (seat, host page) and the
  rematch link every other player is sent are on the server's own address;
- exactly one ``Host`` header in the strict grammar: ``127.0.0.1:PORT@evil.example``,
  two ``Host`` headers, none, a path in it are refused (400), and a ``Host`` naming
  another port of an allowed name does not move the links off the listening port;
- from a trusted proxy the forwarded host (an allowed name only) and scheme make the
  links, and ``X-Forwarded-For`` names the client for the per-address limits, the
  rightmost address that is not a proxy (so a client cannot forge it).
"""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tabletop.web.proxy import split_netloc
from tests.web_support import Client, free_port, post, start_process

EVIL = {"x-forwarded-host": "evil.example", "x-forwarded-proto": "https"}


def raw(port: int, request: bytes, source: str = "127.0.0.1") -> tuple[int, Any]:
    """Send ``request`` as it is; the status and the decoded JSON body (or the text)."""
    with socket.create_connection(("127.0.0.1", port), timeout=30,
                                  source_address=(source, 0)) as sock:  # fmt: skip
        sock.sendall(request)
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1])
    try:
        return status, json.loads(body)
    except ValueError:
        return status, body.decode(errors="replace")


def create_raw(port: int, host_lines: list[str], extra: str = "", source: str = "127.0.0.1"
               ) -> tuple[int, Any]:  # fmt: skip
    body = json.dumps({"game": "quarto", "players": 2}).encode()
    head = "".join(f"Host: {h}\r\n" for h in host_lines)
    request = (
        f"POST /api/matches HTTP/1.1\r\n{head}{extra}Content-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n"
    ).encode() + body
    return raw(port, request, source)


@pytest.fixture
def plain(tmp_path: Path) -> Iterator[int]:
    """`tabletop serve` with no trusted proxy; yields its port."""
    port = free_port()
    process = start_process(tmp_path / "m.sqlite3", port)
    try:
        yield port
    finally:
        process.kill()
        process.wait(30)


def urls(links: dict[str, Any]) -> list[str]:
    found = [s["url"] for s in links["seats"]] + [links["host_url"]]
    return found + ([links["spectator_url"]] if links.get("spectator_url") else [])


def test_the_strict_host_grammar() -> None:
    assert split_netloc("127.0.0.1:8000") == ("127.0.0.1", 8000)
    assert split_netloc("Games.Example.org") == ("games.example.org", None)
    assert split_netloc("[::1]:80") == ("::1", 80)
    for bad in ("127.0.0.1:8000@evil.example", "evil.example/x", "a b", "[::1", "::1",
                "host:0", "host:99999", "", "h_st", "[zz::1]", "x:1:2"):  # fmt: skip
        assert split_netloc(bad) is None, bad


def test_a_client_s_forwarded_headers_never_make_the_links(plain: int) -> None:
    base = f"http://127.0.0.1:{plain}/"
    status, links = post(base, "api/matches", {"game": "quarto", "players": 2}, EVIL)
    assert status == 201, links
    assert all(u.startswith(base) for u in urls(links)), links
    # an allowed name with another port: the links stay on the port the server listens on
    status, links = create_raw(plain, ["localhost:1"])
    assert status == 201, links
    assert all(u.startswith(f"http://localhost:{plain}/") for u in urls(links)), links


@pytest.mark.parametrize(
    "hosts",
    [
        ["127.0.0.1:{port}@evil.example"],
        ["127.0.0.1:{port}", "evil.example"],
        ["127.0.0.1:{port}", "127.0.0.1:{port}"],
        [],
        ["127.0.0.1:{port}/x"],
        ["evil.example"],
    ],
)
def test_one_host_header_in_the_strict_grammar(plain: int, hosts: list[str]) -> None:
    status, answer = create_raw(plain, [h.format(port=plain) for h in hosts])
    assert status == 400, answer
    assert "evil.example/match" not in json.dumps(answer)
    assert set(answer) == {"error"} and "\n" not in answer["error"], answer


def test_a_rematch_link_sent_to_a_victim_is_on_this_site(plain: int) -> None:
    """The asker's forwarded headers are ignored; each player is sent links built from
    their own connection (issue 39: the victim was sent http://evil.example/...)."""
    base = f"http://127.0.0.1:{plain}/"
    status, links = post(base, "api/matches", {"game": "quarto", "players": 2})
    assert status == 201, links
    one, two = (s["token"] for s in links["seats"])
    attacker = Client(base, links["id"], one, headers=EVIL)
    victim = Client(base, links["id"], two)
    moves = [
        (attacker, "give LSRF"), (victim, "place a1"), (victim, "give LSRH"),
        (attacker, "place b1"), (attacker, "give LSQF"), (victim, "place a2"),
        (victim, "give LSQH"), (attacker, "place c1"), (attacker, "give DTRF"),
        (victim, "place a3"), (victim, "give LTRF"), (attacker, "place d1"),
    ]  # fmt: skip
    for number, (who, text) in enumerate(moves):
        who.at(number)
        who.act(text)
    for client in (attacker, victim):
        client.at(len(moves))
    attacker.send({"type": "rematch"})
    told = victim.until(lambda m: m["type"] == "rematch")
    mine = attacker.until(lambda m: m["type"] == "rematch")
    assert told["url"].startswith(base) and "token=" in told["url"], told
    assert mine["url"].startswith(base), mine
    attacker.close()
    victim.close()


def test_a_trusted_proxy_s_headers_make_the_links_and_name_the_client(tmp_path: Path) -> None:
    port = free_port()
    process = start_process(
        tmp_path / "m.sqlite3", port, "--forwarded-allow-ips", "127.0.0.1",
        "--allowed-host", "games.example.org", "--allowed-host", "127.0.0.1",
        "--max-creates-per-minute", "1",
    )  # fmt: skip
    try:
        proxied = "X-Forwarded-Host: games.example.org\r\nX-Forwarded-Proto: https\r\n"
        status, links = create_raw(port, ["127.0.0.1"], proxied + "X-Forwarded-For: 10.0.0.1\r\n")
        assert status == 201, links
        assert all(u.startswith("https://games.example.org/") for u in urls(links)), links
        # the forwarded host must be an allowed name
        status, answer = create_raw(port, ["127.0.0.1"], "X-Forwarded-Host: evil.example\r\n")
        assert status == 400 and "evil.example" in answer["error"], answer
        # 10.0.0.1 made its one match a minute; 10.0.0.2 is another person
        again = "X-Forwarded-For: 10.0.0.1\r\n"
        assert create_raw(port, ["127.0.0.1"], again)[0] == 429
        assert create_raw(port, ["127.0.0.1"], "X-Forwarded-For: 10.0.0.2\r\n")[0] == 201
        # a client forging the header in front of the proxy's own entry gains nothing
        forged = "X-Forwarded-For: 10.0.0.99, 10.0.0.2\r\n"
        assert create_raw(port, ["127.0.0.1"], forged)[0] == 429
        # a peer that is no trusted proxy is itself the client, whatever it forwards
        status, links = create_raw(port, ["127.0.0.1"], proxied + again, source="127.0.0.2")
        assert status == 201, links
        assert all(u.startswith(f"http://127.0.0.1:{port}/") for u in urls(links)), links
    finally:
        process.kill()
        process.wait(30)

"""Fair computer time (issue 39, item 2), against a real `tabletop serve`:

- the creation limit holds under concurrent requests (60 at once made 28 and 50 matches
  against a limit of 20): 30 at once against a limit of 5 make exactly 5;
- hints and reviews have per-match and per-address limits: many hints asked at once
  get one answer at a time and a clear refusal (429) in the asker's language;
- the coach thinks in a pool of its own below the computers' priority: after a hint the
  server's worker processes include the coach's, at a lower CPU priority (higher nice)
  than the computer players';
- a flood from one address is held, not answered (tabletop/web/tarpit.py): past its
  limit the first refusal comes at once with ``Retry-After``; the next requests are held
  (another address is answered meanwhile), as many as its sockets allowed, and the ones
  past those are turned away at once with the same refusal.

How much this keeps a person's level-1 reply under an attack is measured, not tested
(timing): ``python -m bench.bench_abuse hints`` and ``level5``.
"""

from __future__ import annotations

import json
import select
import socket
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.test_web_orphans import descendants
from tests.web_support import free_port, get, post, start_process

SOCKETS = 4  # --max-sockets-per-client: also the requests of one address held at once
FLOOD = "127.0.0.2"  # another address on the loopback


@pytest.fixture
def base(tmp_path: Path) -> Iterator[str]:
    port = free_port()
    process = start_process(
        tmp_path / "m.sqlite3", port, "--max-creates-per-minute", "5",
        "--max-open-matches-per-client", "100", "--ai-workers", "2",
        "--max-sockets-per-client", str(SOCKETS),
    )  # fmt: skip
    try:
        yield f"http://127.0.0.1:{port}/"
    finally:
        process.kill()
        process.wait(30)


def at_once(count: int, call: Any) -> list[Any]:
    """``call()`` from ``count`` threads released together; their results."""
    gate = threading.Barrier(count)
    results: list[Any] = [None] * count

    def one(i: int) -> None:
        gate.wait()
        results[i] = call()

    threads = [threading.Thread(target=one, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    return results


def test_the_creation_limit_holds_under_concurrent_requests(base: str) -> None:
    made = at_once(30, lambda: post(base, "api/matches", {"game": "quarto"})[0])
    assert sorted(made).count(201) == 5 and made.count(429) == 25, made


def test_hints_at_once_get_one_answer_at_a_time_and_a_translated_refusal(base: str) -> None:
    status, links = post(base, "api/matches",
                         {"game": "quarto", "seats": [{"seat": 2, "ai": "1"}]})  # fmt: skip
    assert status == 201, links
    path = f"api/matches/{links['id']}/hint?token={links['seats'][0]['token']}&lang=cs"
    answers = at_once(8, lambda: get(base, path))
    statuses = [status for status, _ in answers]
    assert 200 in statuses and 429 in statuses, statuses
    refusal = json.loads(next(text for status, text in answers if status == 429))["error"]
    assert "trenér" in refusal or "nápověd" in refusal, refusal  # said in Czech
    assert "\n" not in refusal
    assert get(base, path)[0] == 200  # the earlier ones done: the next is answered


def nice_of(pid: int) -> int:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[16])


def test_the_coach_thinks_below_the_computers(base: str, tmp_path: Path) -> None:
    status, links = post(base, "api/matches",
                         {"game": "quarto", "seats": [{"seat": 2, "ai": "1"}]})  # fmt: skip
    assert status == 201, links
    path = f"api/matches/{links['id']}/hint?token={links['seats'][0]['token']}"
    assert get(base, path)[0] == 200
    port = int(base.rsplit(":", 1)[1].strip("/"))
    server = next(p for p in descendants(1) if _listens(p, port))
    nices = sorted(nice_of(p) for p in descendants(server))
    assert 5 in nices and 17 in nices, nices  # computers at 5, the coach at 17


def _listens(pid: int, port: int) -> bool:
    try:
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    except OSError:
        return False
    return b"serve" in cmdline and str(port).encode() in cmdline


def ask(base: str, path: str, source: str = FLOOD) -> socket.socket:
    """``GET path`` sent from ``source`` on a connection of its own, its answer not read."""
    host, port = base.split("//")[1].strip("/").split(":")
    sock = socket.create_connection((host, int(port)), timeout=120, source_address=(source, 0))
    head = f"GET /{path} HTTP/1.1\r\nHost: {host}:{port}\r\nConnection: close\r\n\r\n"
    sock.sendall(head.encode())
    return sock


def answer(sock: socket.socket) -> tuple[int, dict[str, str], str]:
    """The status, headers and body of the answer on ``sock`` (read until it closes)."""
    data = b""
    while chunk := sock.recv(65536):
        data += chunk
    sock.close()
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    fields = (line.partition(":") for line in lines[1:])
    return int(lines[0].split()[1]), {k.lower(): v.strip() for k, _, v in fields}, body.decode()


def test_a_flood_from_one_address_is_held_while_another_is_answered(base: str) -> None:
    from tabletop.web.coach import PER_MINUTE

    body = {"game": "quarto", "seats": [{"seat": 2, "ai": "1"}]}
    status, links = post(base, "api/matches", body)
    assert status == 201, links
    path = f"api/matches/{links['id']}/hint?token={links['seats'][0]['token']}&lang=cs"
    for _ in range(PER_MINUTE):  # the minute's hints for this address, one at a time
        assert answer(ask(base, path))[0] == 200
    status, headers, refusal = answer(ask(base, path))  # one too many: refused at once
    assert status == 429 and 1 <= int(headers["retry-after"]) <= 60, (status, headers)
    said = json.loads(refusal)["error"]
    assert ("trenér" in said or "nápověd" in said) and "\n" not in said, said  # in Czech

    flood = [ask(base, path) for _ in range(SOCKETS + 3)]  # re-sent at once, and more
    ready: list[socket.socket] = []
    while len(ready) < 3:  # three are past the address's sockets: turned away at once
        ready = select.select(flood, [], [], 120)[0]
        assert ready, "no answer to a flood past its sockets"
    assert len(ready) == 3, len(ready)
    for sock in ready:
        status, headers, text = answer(sock)
        assert status == 429 and headers["connection"] == "close", (status, headers)
        assert int(headers["retry-after"]) >= 1 and json.loads(text)["error"] == said
    held = [sock for sock in flood if sock not in ready]

    status, other = post(base, "api/matches", body)  # another address meanwhile: answered
    assert status == 201, other
    mine = f"api/matches/{other['id']}/hint?token={other['seats'][0]['token']}"
    assert get(base, mine)[0] == 200
    assert not select.select(held, [], [], 0)[0]  # the flood's four: still held

    for sock in held:  # let through after their hold, and refused again: the minute's up
        status, headers, text = answer(sock)
        assert status == 429 and int(headers["retry-after"]) >= 1, (status, headers)
        assert json.loads(text)["error"] == said


def test_the_tarpit_forgets_the_addresses_that_served_their_time() -> None:
    from tabletop.web.tarpit import Tarpit

    now = [0.0]
    tarpit = Tarpit(lambda path: True, SOCKETS, clock=lambda: now[0])
    addresses = [f"10.0.{i // 256}.{i % 256}" for i in range(1000)]
    for address in addresses:  # each refused once, told to wait a second, never back
        tarpit.refused(address, 1.0, b"{}")
        now[0] += 0.1
    assert len(tarpit.pits) <= 64, len(tarpit.pits)  # not one a refused address
    assert tarpit.left(addresses[-1]) > 0  # the last ones still wait
    assert tarpit.left(addresses[-20]) == 0 and addresses[-20] not in tarpit.pits

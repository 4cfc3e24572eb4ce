"""The shipped proxy set-up as browsers use it (issue 39, item 4): ``docs/deploy/nginx.conf``
as it is (only its ports replaced: nginx on a non-default port, both upstreams the one
``tabletop serve --forwarded-allow-ips 127.0.0.1`` process), real Chromium pages through
it: the lobby's create form, two people playing a game to its end by clicking, the
rematch and its links, every link on the proxy's origin. With ``$host`` (which drops the
port) the origin check refused the page's create and its websocket.

Behind it the per-address limits are per person: nginx appends the peer it saw to
``X-Forwarded-For``, the server believes that entry (and only from the proxy), so two
people (two loopback addresses) each get their own limit and a forged header gains
nothing."""

from __future__ import annotations

import json
import shutil
import signal
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from playwright.sync_api import Browser

from tests import web_clicks
from tests.browser_support import WAIT, create_match, wait_number
from tests.db_servers import wait_port
from tests.web_support import free_port, start_process

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.skipif(shutil.which("nginx") is None, reason="nginx is not installed")

QUARTO_WIN = [
    (1, "give LSRF"), (2, "place a1"), (2, "give LSRH"), (1, "place b1"),
    (1, "give LSQF"), (2, "place a2"), (2, "give LSQH"), (1, "place c1"),
    (1, "give DTRF"), (2, "place a3"), (2, "give LTRF"), (1, "place d1"),
]  # fmt: skip


@contextmanager
def behind_nginx(db: Path, *flags: str) -> Iterator[str]:
    """``tabletop serve`` behind docs/deploy/nginx.conf; yields nginx's base URL."""
    port, upstream = free_port(), free_port()
    server = start_process(db, upstream, "--forwarded-allow-ips", "127.0.0.1", *flags)
    folder = Path(tempfile.mkdtemp(prefix="tabletop-nginx-"))
    conf = (ROOT / "docs" / "deploy" / "nginx.conf").read_text()
    assert "proxy_set_header Host $http_host;" in conf
    conf = conf.replace("127.0.0.1:8001", f"127.0.0.1:{upstream}")
    conf = conf.replace("127.0.0.1:8002", f"127.0.0.1:{upstream}")
    conf = conf.replace("listen 8080;", f"listen 127.0.0.1:{port};")
    conf = conf.replace("worker_processes auto;", "worker_processes 1;")
    (folder / "nginx.conf").write_text(conf)
    nginx = subprocess.Popen(
        ["nginx", "-p", str(folder), "-c", str(folder / "nginx.conf"), "-g",
         f"daemon off; pid {folder}/nginx.pid; error_log {folder}/error.log;"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        wait_port(port)
        yield f"http://127.0.0.1:{port}/"
    finally:
        nginx.send_signal(signal.SIGQUIT)
        nginx.wait(10)
        server.kill()
        server.wait(30)
        shutil.rmtree(folder, ignore_errors=True)


def test_a_browser_creates_plays_and_rematches_through_nginx(
    browser: Browser, tmp_path: Path
) -> None:
    with behind_nginx(tmp_path / "m.sqlite3") as base:
        contexts = [browser.new_context() for _ in range(2)]
        alice, bob = (c.new_page() for c in contexts)
        links = create_match(alice, base, "quarto", {})
        assert all(link.startswith(base) for link in links.values()), links
        alice.goto(links["1"])
        bob.goto(links["2"])
        pages = {1: alice, 2: bob}
        for number, (seat, text) in enumerate(QUARTO_WIN):
            for page in pages.values():
                wait_number(page, number)
            web_clicks.click_action(pages[seat], "quarto", text)
        for page in pages.values():
            wait_number(page, len(QUARTO_WIN))
            assert page.inner_text("#status").startswith("Game over")
        alice.locator("#rematch").click()
        new = {}
        for seat, page in pages.items():
            page.wait_for_selector("#rematch-url", timeout=WAIT)
            new[seat] = page.get_attribute("#rematch-url", "href") or ""
            assert new[seat].startswith(base) and "token=" in new[seat], new
        assert new[1] != new[2]
        for seat, page in pages.items():
            page.goto(new[seat])
            wait_number(page, 0)
        # seats rotated: player 1 of the rematch is who was player 2
        assert bob.inner_text("#status") == "Your turn"
        for context in contexts:
            context.close()


def create_from(base: str, source: str, forwarded: str = "") -> int:
    """POST a match through nginx from the loopback address ``source``; the status."""
    import socket

    port = int(base.rsplit(":", 1)[1].strip("/"))
    body = json.dumps({"game": "quarto"}).encode()
    head = (
        f"POST /api/matches HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n{forwarded}"
        f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
        "Connection: close\r\n\r\n"
    ).encode()
    with socket.create_connection(("127.0.0.1", port), source_address=(source, 0)) as sock:
        sock.sendall(head + body)
        answer = b""
        while data := sock.recv(65536):
            answer += data
    return int(answer.split(b" ", 2)[1])


def test_per_address_limits_are_per_person_behind_nginx(tmp_path: Path) -> None:
    with behind_nginx(tmp_path / "m.sqlite3", "--max-creates-per-minute", "2") as base:
        assert [create_from(base, "127.0.0.2") for _ in range(3)] == [201, 201, 429]
        forged = "X-Forwarded-For: 10.9.9.9\r\n"
        assert create_from(base, "127.0.0.2", forged) == 429
        assert create_from(base, "127.0.0.3") == 201

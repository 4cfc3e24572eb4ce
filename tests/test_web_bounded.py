"""Bounded reads (issue 39, item 3), against a real `tabletop serve` process whose peak
memory (``VmHWM`` in /proc) is read before and after: a 400 MB body streamed without a
``Content-Length`` (chunked) or announced by one, 130 MB of headers, one 130 MB header
line and a websocket frame announcing 100 MB are each refused at their limit while being
read (413, 431, close 1009), and the server's peak memory grows by less than
:data:`BOUND` (it grew from 51 to 777 MB under the 400 MB body)."""

from __future__ import annotations

import json
import socket
import struct
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.web_support import Client, free_port, post, start_process

BOUND = 40 * 2**20  # bytes the peak may grow by (the limits are 64 KiB each)
MB = 2**20


def peak(pid: int) -> int:
    """The process's peak resident memory, in bytes."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) * 1024
    raise AssertionError("no VmHWM")


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[int, int]]:
    """`tabletop serve` (one process: the server is the process itself); (port, pid)."""
    port = free_port()
    process = start_process(tmp_path / "m.sqlite3", port)
    try:
        yield port, process.pid
    finally:
        process.kill()
        process.wait(30)


def stream(port: int, head: bytes, chunk: bytes, total: int) -> bytes:
    """Send ``head`` then ``chunk`` again and again up to ``total`` bytes, as long as the
    server reads (its answer read meanwhile); the answer it gave (b'' if none)."""
    answer: list[bytes] = []

    def listen(sock: socket.socket) -> None:
        try:
            while data := sock.recv(65536):
                answer.append(data)
        except OSError:
            pass

    with socket.create_connection(("127.0.0.1", port), timeout=60) as sock:
        reader = threading.Thread(target=listen, args=(sock,))
        reader.start()
        sock.sendall(head)
        sent = 0
        try:
            while sent < total:
                sock.sendall(chunk)
                sent += len(chunk)
        except OSError:
            pass  # refused and closed: what the test wants
        reader.join(60)
    assert sent < total, "the server read all of it"
    return b"".join(answer)


def status_of(answer: bytes) -> int:
    return int(answer.split(b" ", 2)[1]) if answer.startswith(b"HTTP/") else 0


def test_a_400_mb_body_without_a_length_is_refused_as_it_is_read(
    server: tuple[int, int],
) -> None:
    port, pid = server
    before = peak(pid)
    head = (
        b"POST /api/matches HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        b"Transfer-Encoding: chunked\r\n\r\n"
    )
    piece = b"x" * MB
    chunk = b"%x\r\n%s\r\n" % (len(piece), piece)
    answer = stream(port, head, chunk, 400 * MB)
    assert status_of(answer) == 413, answer[:300]
    assert b"at most 65536 bytes" in answer
    assert peak(pid) - before < BOUND, (before, peak(pid))
    # the server goes on serving
    assert post(f"http://127.0.0.1:{port}/", "api/matches", {"game": "quarto"})[0] == 201


def test_a_400_mb_content_length_is_refused_unread(server: tuple[int, int]) -> None:
    port, pid = server
    before = peak(pid)
    head = (
        b"POST /api/matches HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        b"Content-Length: %d\r\n\r\n" % (400 * MB)
    )
    answer = stream(port, head, b"x" * MB, 400 * MB)
    assert status_of(answer) == 413 and json.loads(answer.partition(b"\r\n\r\n")[2])["error"]
    assert peak(pid) - before < BOUND, (before, peak(pid))


@pytest.mark.parametrize("one_line", [False, True])
def test_130_mb_of_headers_are_refused_as_they_arrive(
    server: tuple[int, int], one_line: bool
) -> None:
    port, pid = server
    before = peak(pid)
    head = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n" + (b"X-A: " if one_line else b"")
    chunk = b"a" * 65000 if one_line else b"X-A: " + b"a" * 65000 + b"\r\n"
    answer = stream(port, head, chunk, 130 * MB)
    assert status_of(answer) == 431, answer[:300]
    assert peak(pid) - before < BOUND, (before, peak(pid))


def test_a_websocket_frame_announcing_100_mb_is_refused_by_its_length(
    server: tuple[int, int],
) -> None:
    port, pid = server
    base = f"http://127.0.0.1:{port}/"
    status, links = post(base, "api/matches", {"game": "quarto"})
    assert status == 201, links
    client = Client(base, links["id"], links["seats"][0]["token"])
    client.at(0)
    before = peak(pid)
    sock = client.ws.socket
    sock.sendall(bytes([0x81, 0x80 | 127]) + struct.pack("!Q", 100 * MB) + b"mask")
    sent = 0
    try:
        while sent < 100 * MB:
            sock.sendall(b"a" * 65536)
            sent += 65536
    except OSError:
        pass
    assert sent < 100 * MB, "the server read the whole frame"
    assert peak(pid) - before < BOUND, (before, peak(pid))
    client.ws.close()

"""Throwaway database servers for the tests: a PostgreSQL cluster (Debian's postgresql 15,
``initdb`` and ``pg_ctl`` run as ``nobody``, since initdb refuses root) and a Redis
server, each in a temporary folder on a free loopback port, stopped at the end.

Outside CI a missing binary skips the tests that need it (CI installs both: ``.ci/run``).
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

NOBODY = 65534


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def pg_bin() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    return Path(found[-1]).parent if found else None


def _as_nobody(command: list[str]) -> list[str]:
    if os.geteuid() != 0:
        return command
    return ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups", *command]


def wait_port(port: int, seconds: float = 30) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"nothing listens on port {port}")


@contextmanager
def postgres_cluster() -> Iterator[str]:
    """A PostgreSQL cluster; yields ``postgresql://tabletop@127.0.0.1:PORT/postgres``."""
    bindir = pg_bin()
    assert bindir is not None, "PostgreSQL is not installed (apt-get install postgresql)"
    folder = Path(tempfile.mkdtemp(prefix="tabletop-pg-"))
    os.chmod(folder, 0o777)
    if os.geteuid() == 0:
        os.chown(folder, NOBODY, NOBODY)
    data = folder / "data"
    port = free_port()
    subprocess.run(
        _as_nobody([str(bindir / "initdb"), "-D", str(data), "-U", "tabletop",
                    "--auth=trust", "-E", "UTF8", "--no-sync"]),
        check=True, capture_output=True, cwd=folder,
    )  # fmt: skip
    options = (
        f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c fsync=off "
        "-c synchronous_commit=off -c full_page_writes=off -c max_connections=200"
    )
    subprocess.run(
        _as_nobody([str(bindir / "pg_ctl"), "-D", str(data), "-o", options, "-l",
                    str(folder / "log"), "-w", "start"]),
        check=True, capture_output=True, cwd=folder,
    )  # fmt: skip
    try:
        yield f"postgresql://tabletop@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run(
            _as_nobody([str(bindir / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"]),
            capture_output=True, cwd=folder,
        )  # fmt: skip
        shutil.rmtree(folder, ignore_errors=True)


def new_database(cluster: str, name: str) -> str:
    """A new empty database in ``cluster``; its URL."""
    import psycopg

    with psycopg.connect(cluster, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    return cluster.rsplit("/", 1)[0] + "/" + name


class RedisServer:
    """A redis-server on a free port in a temporary folder, which can be stopped and
    started again on the same port (the tests' Redis outage)."""

    def __init__(self) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="tabletop-redis-"))
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        binary = shutil.which("redis-server") or "/usr/bin/redis-server"
        self.process = subprocess.Popen(
            [binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(self.folder)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        wait_port(self.port)

    def stop(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait(10)
            self.process = None

    def close(self) -> None:
        self.stop()
        shutil.rmtree(self.folder, ignore_errors=True)


def have_postgres() -> bool:
    return pg_bin() is not None


def have_redis() -> bool:
    return shutil.which("redis-server") is not None or Path("/usr/bin/redis-server").exists()


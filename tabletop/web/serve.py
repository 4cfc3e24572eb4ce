"""Starting the server: the database's default place, the loopback warning, uvicorn."""

from __future__ import annotations

import ipaddress
import os
import sys
from pathlib import Path

import uvicorn

from tabletop.core.errors import UsageError
from tabletop.web import collector, store
from tabletop.web.app import build_app
from tabletop.web.config import ServerConfig

WS_MAX_SIZE = 65_536  # bytes of one websocket frame uvicorn accepts at all


def default_db() -> Path:
    """``$XDG_DATA_HOME/tabletop/matches.sqlite3`` (default ``~/.local/share/tabletop``)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "tabletop" / "matches.sqlite3"


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def serve(host: str, port: int, db: Path | None, config: ServerConfig | None = None) -> None:
    """Run the server until interrupted; prints the lobby's address first. A database
    that cannot be used ends it at once with one line (StoreError, exit status 1)."""
    if not 1 <= port <= 65535:
        raise UsageError(f"--port must be 1-65535, not {port}")
    config = config or ServerConfig().with_host(host)
    path = db or default_db()
    if db is None:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            message = f"cannot create the folder of the database {path}: {exc}"
            raise store.StoreError(message) from None
    store.check(path)
    if not is_loopback(host):
        sys.stderr.write(
            f"tabletop: warning: serving on {host}, beyond this machine; the server has no "
            "user accounts, only seat links: anyone with a link can take that seat. It "
            f"answers only to the host names {', '.join(config.allowed_hosts)} "
            "(add the ones people use with --allowed-host NAME)\n"
        )
    shown = f"[{host}]" if ":" in host else host
    print(f"tabletop: lobby at http://{shown}:{port}/ (matches in {path})", flush=True)
    uv = uvicorn.Config(
        build_app(path, config),
        host=host,
        port=port,
        log_level="warning",
        ws_max_size=WS_MAX_SIZE,
        ws_per_message_deflate=False,  # small JSON: compressing costs more than it saves
    )
    collector.install()  # no full-heap pauses with thousands of sockets open
    uvicorn.Server(uv).run()

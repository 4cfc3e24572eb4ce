"""Starting the server: the database's default place, the loopback warning, uvicorn."""

from __future__ import annotations

import ipaddress
import os
import sys
from pathlib import Path

import uvicorn

from tabletop.core.errors import UsageError
from tabletop.web.app import build_app
from tabletop.web.origin import public_base

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


def serve(host: str, port: int, db: Path | None, public_url: str | None = None) -> None:
    """Run the server until interrupted; prints the lobby's address first. ``public_url``:
    the address people reach it by (behind a reverse proxy), the base of every link."""
    if not 1 <= port <= 65535:
        raise UsageError(f"--port must be 1-65535, not {port}")
    public = public_base(public_url) if public_url else None
    path = db or default_db()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"cannot create the folder of the database {path}: {exc}") from None
    if not is_loopback(host):
        sys.stderr.write(
            f"tabletop: warning: serving on {host}, beyond this machine; the server has no "
            "user accounts, only seat links: anyone with a link can take that seat\n"
        )
    shown = f"[{host}]" if ":" in host else host
    print(f"tabletop: lobby at http://{shown}:{port}/ (matches in {path})", flush=True)
    config = uvicorn.Config(
        build_app(path, public),
        host=host,
        port=port,
        log_level="warning",
        ws_max_size=WS_MAX_SIZE,
        ws_per_message_deflate=False,  # small JSON: compressing costs more than it saves
    )
    uvicorn.Server(config).run()

"""Starting the server: the database's default place (or a PostgreSQL URL and a Redis
bus, shared with other servers), the loopback warning, uvicorn, and ``--workers N``:
uvicorn's N processes on one port, each a whole server of the shared store."""

from __future__ import annotations

import ipaddress
import json
import os
import sys
from pathlib import Path
from typing import Any

import uvicorn

from tabletop.core.errors import UsageError
from tabletop.core.i18n.text import Domain
from tabletop.web import collector, lifeline, protocols, store, undo_requests
from tabletop.web.app import build_app
from tabletop.web.config import ServerConfig

_ = Domain("tabletop")

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


ENVIRONMENT = "TABLETOP_SERVE"  # what a worker of --workers is to serve (JSON)
SHARED = "postgresql://USER@HOST:PORT/DB"


def check_shared(db: str | Path | None, bus: str | None, workers: int) -> None:
    """UsageError (one line) for a combination that cannot share matches."""
    shared = isinstance(db, str) and db.startswith(("postgresql://", "postgres://"))
    if isinstance(db, str) and not shared:
        raise UsageError(_("--db is a SQLite file or {shared}, not {db}", shared=SHARED, db=db))
    if workers > 1 and not (shared and bus):
        raise UsageError(
            _(
                "--workers {workers} needs a shared store and a bus: --db {shared} "
                "--bus redis://HOST:PORT/N",
                workers=workers,
                shared=SHARED,
            )
        )
    if bus is not None and not shared:
        raise UsageError(
            _("--bus needs --db {shared} (a SQLite file serves one process)", shared=SHARED)
        )
    if bus is not None and not bus.startswith(("redis://", "rediss://", "unix://")):
        raise UsageError(_("--bus is redis://HOST:PORT/N, not {bus}", bus=bus))


def check_bus(url: str) -> None:
    """StoreError (one line) when Redis does not answer at ``url``."""
    import redis

    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=3)
        client.ping()
        client.close()
    except (redis.RedisError, OSError, ValueError) as exc:
        raise store.StoreError(
            _("cannot use the bus {url}: {reason}", url=url, reason=str(exc))
        ) from None


def serve(
    host: str,
    port: int,
    db: Path | str | None,
    config: ServerConfig | None = None,
    workers: int = 1,
) -> None:
    """Run the server until interrupted; prints the lobby's address first. A database
    (or bus) that cannot be used ends it at once with one line (StoreError, exit 1)."""
    if not 1 <= port <= 65535:
        raise UsageError(_("--port must be 1-65535, not {port}", port=port))
    config = config or ServerConfig().with_host(host)
    check_shared(db, config.bus, workers)
    undo_requests.expiry()  # $TABLETOP_UNDO_EXPIRY, if set, is a number of seconds
    target: Path | str
    if isinstance(db, str):
        from tabletop.web import postgres

        postgres.check(db)
        if config.bus:
            check_bus(config.bus)
        target, where = db, postgres.shown(db)
    else:
        target = path = db or default_db()
        where = str(path)
        if db is None:
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                message = _(
                    "cannot create the folder of the database {path}: {reason}",
                    path=str(path),
                    reason=str(exc),
                )
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
    print(f"tabletop: lobby at http://{shown}:{port}/ (matches in {where})", flush=True)
    settings: dict[str, Any] = {
        "host": host,
        "port": port,
        "log_level": "warning",
        "proxy_headers": False,  # tabletop.web.proxy believes only --forwarded-allow-ips
        "ws_max_size": WS_MAX_SIZE,
        "ws_per_message_deflate": False,  # small JSON: compressing costs more than it saves
        **protocols.uvicorn_settings(),  # a request's head past 64 KiB: 431 as it arrives
    }
    if workers > 1:
        os.environ[ENVIRONMENT] = json.dumps(
            {"db": str(target), "config": config.to_json(), "parent": os.getpid()}
        )
        uvicorn.run("tabletop.web.serve:worker_app", factory=True, workers=workers, **settings)
        return
    collector.install()  # no full-heap pauses with thousands of sockets open
    uvicorn.Server(uvicorn.Config(build_app(target, config), **settings)).run()


def worker_app() -> Any:
    """The application of one worker process of ``--workers`` (uvicorn imports it)."""
    data = json.loads(os.environ[ENVIRONMENT])
    lifeline.die_with_parent(data.get("parent"))  # a kill -9 of the main process ends us
    collector.install()
    return build_app(data["db"], ServerConfig.from_json(data["config"]))

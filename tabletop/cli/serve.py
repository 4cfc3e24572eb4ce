"""``tabletop serve``: the web server of the ``web`` extra (:mod:`tabletop.web`), imported
only when the command runs; without the extra, a one-line error naming it."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

from typer import Option

from tabletop.cli.language import speak
from tabletop.core.errors import UsageError
from tabletop.core.i18n.text import Domain

_ = Domain("tabletop")


def serve(
    host: Annotated[str, Option("--host", help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, Option("--port", help="Port to listen on.")] = 8000,
    db: Annotated[
        str | None,
        Option(
            "--db",
            help="SQLite file of the matches (default: $XDG_DATA_HOME/tabletop/matches.sqlite3, "
            "i.e. ~/.local/share/tabletop/matches.sqlite3), or postgresql://USER@HOST:PORT/DB "
            "to share the matches with other servers (with --bus).",
        ),
    ] = None,
    bus: Annotated[
        str | None,
        Option(
            "--bus",
            help="redis://HOST:PORT/N: the servers sharing --db postgresql://... tell each "
            "other of new positions, presence and chat through it.",
        ),
    ] = None,
    workers: Annotated[
        int,
        Option(
            "--workers",
            help="Server processes on this port (more than 1 needs --db postgresql://... "
            "and --bus).",
        ),
    ] = 1,
    public_url: Annotated[
        str | None,
        Option(
            "--public-url",
            help="The address people open, e.g. https://games.example.org/ behind a "
            "reverse proxy: the base of every link the server hands out (default: the "
            "address each page was served from, X-Forwarded-Proto/-Host included).",
        ),
    ] = None,
    allowed_host: Annotated[
        list[str] | None,
        Option(
            "--allowed-host",
            help="A host name the server answers to (repeatable; default: the bound address, "
            "localhost, 127.0.0.1, ::1). Other Host headers and other sites' pages are refused.",
        ),
    ] = None,
    forwarded_allow_ips: Annotated[
        list[str] | None,
        Option(
            "--forwarded-allow-ips",
            help="Addresses or networks of the reverse proxies in front (repeatable or "
            "comma-separated, * for any): only from them are X-Forwarded-For, -Proto and "
            "-Host believed (default: from nobody).",
        ),
    ] = None,
    ai_workers: Annotated[
        int | None,
        Option("--ai-workers", help="Worker processes for computer players (default: one a core)."),
    ] = None,
    allow_computer_matches: Annotated[
        bool,
        Option("--allow-computer-matches", help="Allow matches with no person in them."),
    ] = False,
    max_creates_per_minute: Annotated[
        int, Option(help="New matches one client address may create a minute (and open "
                    "seats it may take a minute).")
    ] = 20,
    max_open_matches_per_client: Annotated[
        int, Option(help="Ongoing matches one client address may have created.")
    ] = 20,
    max_sockets_per_client: Annotated[
        int,
        Option(
            help="Websockets one client address may hold open at once; also its hint and "
            "review requests held at once (asked again too soon)."
        ),
    ] = 100,
    max_open_matches: Annotated[int, Option(help="Ongoing matches on the whole server.")] = 2000,
    lobby_keep: Annotated[
        float, Option(help="Seconds a finished match stays in the lobby's listing.")
    ] = 600.0,
) -> None:
    """Play in the browser: a lobby, matches, seat links (needs pip install 'tabletop[web]')."""
    speak(None)  # its one-line errors: TABLETOP_LANG, then the locale, then English
    for name, value in (
        ("--ai-workers", ai_workers if ai_workers is not None else 1),
        ("--max-creates-per-minute", max_creates_per_minute),
        ("--max-open-matches-per-client", max_open_matches_per_client),
        ("--max-sockets-per-client", max_sockets_per_client),
        ("--max-open-matches", max_open_matches),
    ):
        if not 1 <= value <= 1_000_000:
            raise UsageError(
                _("{flag} must be a whole number 1..1000000, not {value}", flag=name, value=value)
            )
    if not 1 <= workers <= 64:
        raise UsageError(
            _("--workers must be a whole number 1..64, not {workers}", workers=workers)
        )
    if not 0 <= lobby_keep <= 10**7:
        raise UsageError(
            _("--lobby-keep must be 0..10000000 seconds, not {seconds}", seconds=lobby_keep)
        )
    try:
        from tabletop.web.config import Limits, ServerConfig, default_ai_workers
        from tabletop.web.origin import public_base
        from tabletop.web.proxy import networks
        from tabletop.web.serve import serve as run_server
    except ImportError as exc:
        raise UsageError(
            _(
                "the web server needs its extra: pip install 'tabletop[web]' ({module} missing)",
                module=str(exc.name),
            )
        ) from None
    trusted = tuple(forwarded_allow_ips or ())
    networks(trusted)  # a bad address is a one-line error now, not in a worker
    limits = Limits(
        max_creates_per_minute, max_open_matches_per_client, max_sockets_per_client,
        max_open_matches,
    )  # fmt: skip
    config = ServerConfig(
        allowed_hosts=tuple(allowed_host or ServerConfig().with_host(host).allowed_hosts),
        limits=limits,
        ai_workers=ai_workers or default_ai_workers(),
        allow_computer_matches=allow_computer_matches,
        lobby_keep=lobby_keep,
        public_url=public_base(public_url) if public_url else None,
        bus=bus,
        forwarded_allow_ips=trusted,
    )
    run_server(host, port, Path(db) if db and "://" not in db else db, config, workers)

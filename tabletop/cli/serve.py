"""``tabletop serve``: the web server of the ``web`` extra (:mod:`tabletop.web`), imported
only when the command runs; without the extra, a one-line error naming it."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

from typer import Option

from tabletop.core.errors import UsageError


def serve(
    host: Annotated[str, Option("--host", help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, Option("--port", help="Port to listen on.")] = 8000,
    db: Annotated[
        Path | None,
        Option(
            "--db",
            help="SQLite file of the matches (default: $XDG_DATA_HOME/tabletop/matches.sqlite3, "
            "i.e. ~/.local/share/tabletop/matches.sqlite3).",
        ),
    ] = None,
    public_url: Annotated[
        str | None,
        Option(
            "--public-url",
            help="The address people open, e.g. https://games.example.org/ behind a "
            "reverse proxy: the base of every link the server hands out (default: the "
            "address each page was served from, X-Forwarded-Proto/-Host included).",
        ),
    ] = None,
) -> None:
    """Play in the browser: a lobby, matches, seat links (needs pip install 'tabletop[web]')."""
    try:
        from tabletop.web.serve import serve as run_server
    except ImportError as exc:
        raise UsageError(
            f"the web server needs its extra: pip install 'tabletop[web]' ({exc.name} missing)"
        ) from None
    run_server(host, port, db, public_url)

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
) -> None:
    """Play in the browser: a lobby, matches, seat links (needs pip install 'tabletop[web]')."""
    try:
        from tabletop.web.serve import serve as run_server
    except ImportError as exc:
        raise UsageError(
            f"the web server needs its extra: pip install 'tabletop[web]' ({exc.name} missing)"
        ) from None
    run_server(host, port, db)

"""The host's page of a match: every seat link on one private page, to send a lost one again.

Its key is derived from the match's secrets (its seed and every seat token), so nothing
more is stored and nobody without a seat's secret or the key can work it out. Creating a
match answers ``host_url``; the page is ``/match/{id}/host?key=KEY``.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from html import escape

from tabletop.web.store import StoredMatch

TITLE = "Seat links of this match"
INTRO = ("Keep this page private: whoever has a seat's link plays that seat. "
         "Send each person their own link again if they lost it.")  # fmt: skip
SEAT = "Seat {seat}"
COMPUTER = "computer ({level})"
OPEN = "open: the first person to take it in the lobby gets its link"
SPECTATORS = "Spectators"
NO_SPECTATORS = "this match allows no spectators"
BACK = "Back to the lobby"


def host_key(meta: StoredMatch) -> str:
    """The host page's key of ``meta`` (32 characters)."""
    secret = "\n".join(["tabletop-host", meta.id, str(meta.seed)]
                       + [r.token or "" for r in meta.seats])  # fmt: skip
    digest = hashlib.sha256(secret.encode()).digest()
    return base64.urlsafe_b64encode(digest).decode()[:32]


def is_host(meta: StoredMatch, key: str | None) -> bool:
    return bool(key) and hmac.compare_digest(host_key(meta), key or "")


def host_url(meta: StoredMatch, base: str) -> str:
    return f"{base}match/{meta.id}/host?key={host_key(meta)}"


def page(meta: StoredMatch, name: str, base: str, left: set[int] | None = None) -> str:
    """The host page's HTML (everything in it escaped); ``left``: the seats still open
    (said so, without their links: the first taker alone gets one)."""
    rows = []
    for row in meta.seats:
        label = escape(SEAT.format(seat=row.seat))
        if row.token is None:
            rows.append(f"<li><b>{label}:</b> {escape(COMPUTER.format(level=row.ai))}</li>")
        elif row.seat in (left or set()):
            rows.append(f'<li data-open-seat="{row.seat}"><b>{label}:</b> {escape(OPEN)}</li>')
        else:
            url = escape(f"{base}match/{meta.id}?token={row.token}")
            rows.append(f'<li><b>{label}:</b> <a data-seat-link="{row.seat}" '
                        f'href="{url}">{url}</a></li>')  # fmt: skip
    if meta.spectators:
        url = escape(f"{base}match/{meta.id}")
        rows.append(f'<li><b>{SPECTATORS}:</b> <a data-spectator-link href="{url}">{url}</a></li>')
    else:
        rows.append(f"<li><b>{SPECTATORS}:</b> {NO_SPECTATORS}</li>")
    items = "\n".join(rows)
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>{escape(TITLE)} · {escape(name)}</title>
<link rel="stylesheet" href="/static/style.css"></head>
<body data-copy-links>
<header><a href="/">tabletop</a><span>{escape(name)} · {escape(meta.id)}</span></header>
<main><section class="links"><h1>{escape(TITLE)}</h1><p>{escape(INTRO)}</p>
<ul>{items}</ul><p><a href="/">{escape(BACK)}</a></p></section></main>
<script type="module" src="/static/copy.js"></script></body></html>
"""

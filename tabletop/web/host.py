"""The host's page of a match: every seat link on one private page, to send a lost one again.

Its key is derived from the match's secrets (its seed and every seat token), so nothing
more is stored and nobody without a seat's secret or the key can work it out. Creating a
match answers ``host_url``; the page is ``/match/{id}/host?key=KEY``, in the request's
language (``?lang=``, the switcher's cookie, ``Accept-Language``), a "Copy link" button
beside each link (``static/copy.js``); a seat still open (:mod:`.open_seats`) is said to
be open, without its link.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from html import escape

from tabletop.core.i18n.text import ENGLISH, Domain, translate
from tabletop.web.store import StoredMatch

_ = Domain("tabletop")


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


def page(
    meta: StoredMatch, name: str, base: str, left: set[int] | None = None, lang: str = ENGLISH
) -> str:
    """The host page's HTML in ``lang`` (everything in it escaped); ``left``: the seats
    still open (said so, without their links: the first taker alone gets one)."""

    def said(text: object) -> str:
        return escape(translate(text, lang))

    rows = []
    for row in meta.seats:
        label = said(_("Seat {seat}", seat=row.seat))
        if row.token is None:
            computer = said(_("computer ({level})", level=row.ai))
            rows.append(f"<li><b>{label}:</b> {computer}</li>")
        elif row.seat in (left or set()):
            taken_by = said(_("open: the first person to take it in the lobby gets its link"))
            rows.append(f'<li data-open-seat="{row.seat}"><b>{label}:</b> {taken_by}</li>')
        else:
            url = escape(f"{base}match/{meta.id}?token={row.token}")
            rows.append(f'<li><b>{label}:</b> <a data-seat-link="{row.seat}" '
                        f'href="{url}">{url}</a></li>')  # fmt: skip
    spectators = said(_("Spectators"))
    if meta.spectators:
        url = escape(f"{base}match/{meta.id}")
        rows.append(f'<li><b>{spectators}:</b> <a data-spectator-link href="{url}">{url}</a></li>')
    else:
        nobody = said(_("this match allows no spectators"))
        rows.append(f"<li><b>{spectators}:</b> {nobody}</li>")
    items = "\n".join(rows)
    title = said(_("Seat links of this match"))
    intro = said(_("Keep this page private: whoever has a seat's link plays that seat. "
                   "Send each person their own link again if they lost it."))  # fmt: skip
    back = said(_("Back to the lobby"))
    return f"""<!doctype html>
<html lang="{escape(lang)}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>{title} · {escape(name)}</title>
<link rel="stylesheet" href="/static/style.css"></head>
<body data-copy-links>
<header><a href="/">tabletop</a><span>{escape(name)} · {escape(meta.id)}</span></header>
<main><section class="links"><h1>{title}</h1><p>{intro}</p>
<ul>{items}</ul><p><a href="/">{back}</a></p></section></main>
<script type="module" src="/static/copy.js"></script></body></html>
"""

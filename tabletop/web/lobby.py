"""The lobby's list of matches: the matches still going and those finished in the last
``lobby_keep`` seconds, newest first, a page of :data:`PAGE_SIZE` at a time; a match
nobody has played or visited for ``abandoned_after`` seconds leaves it too. No tokens,
nothing hidden; damaged and unserved matches say why. An ongoing match names its seats
still open to take (:mod:`tabletop.web.open_seats`)."""

from __future__ import annotations

import time
from collections.abc import Iterable

from tabletop.core.errors import UsageError
from tabletop.core.i18n.text import Domain
from tabletop.game import JSON
from tabletop.web.config import ServerConfig
from tabletop.web.room import Room
from tabletop.web.store import Unserved

_ = Domain("tabletop")
PAGE_SIZE = 100  # matches a page of the lobby's listing


def listed(room: Room, now: float, config: ServerConfig) -> bool:
    """Whether the lobby still lists ``room``: going on and not abandoned, or finished
    less than ``lobby_keep`` seconds ago."""
    if room.meta.status == "over":
        return now - room.updated < config.lobby_keep
    return bool(room.connections) or now - room.active < config.abandoned_after


def listing(
    served: Iterable[Room], unserved: list[Unserved], config: ServerConfig, page: int = 1,
    left: dict[str, list[int]] | None = None,
) -> JSON:
    """One page of the lobby's list of matches (newest first): no tokens, nothing
    hidden; damaged and unserved matches say why; ``left``: each match's open seats."""
    now = time.time()
    rooms = [r for r in served if listed(r, now, config)]
    rooms.sort(key=lambda r: -r.meta.created)
    pages = max(1, -(-len(rooms) // PAGE_SIZE))
    if not 1 <= page <= pages:
        raise UsageError(
            _(
                "page {page} does not exist: the listing has pages 1-{pages}",
                page=page,
                pages=pages,
            )
        )
    shown = rooms[(page - 1) * PAGE_SIZE : page * PAGE_SIZE]
    return {
        "matches": [row(room, (left or {}).get(room.meta.id, [])) for room in shown],
        "page": page,
        "pages": pages,
        "per_page": PAGE_SIZE,
        "total": len(rooms),
        "unserved": [{"id": u.id, "reason": u.reason} for u in unserved],
    }


def row(room: Room, left: list[int] | None = None) -> JSON:
    """One match as the lobby lists it (``left``: its seats still open to take)."""
    meta = room.meta
    online = room.online()
    return {
        "id": meta.id,
        "game": meta.game,
        "players": meta.players,
        "status": meta.status,
        "damaged": room.damage or None,
        "number": len(room.table.match.actions),
        "spectators": meta.spectators,
        "move_time": meta.move_time,
        "seats": [
            {
                "seat": r.seat,
                "kind": "computer" if r.ai else "person",
                "level": r.ai,
                "free": r.ai is None and r.seat not in meta.claimed,
                "online": r.seat in online,
            }
            for r in meta.seats
        ],
        "open_seats": sorted(left or []) if meta.status == "ongoing" else [],
    }

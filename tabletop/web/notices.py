"""The notices servers sharing a store send one another over the bus
(:mod:`tabletop.web.bus`), all built here: one format, one place.

A notice is a small JSON object: ``k`` its kind, ``m`` the match it is about, and what
that kind carries. Notices are hints: a server that hears one reads the store (or, for
chat and undo requests, takes the notice's own content, which the store holds too).

- :data:`CHANGED` (``a``): the match changed in the store; ``n`` actions, ``u`` undos.
- :data:`CHAT` (``c``): a chat message ``e``, as every connection reads it.
- :data:`NAMED` (``nm``): seat ``seat`` is now called ``name`` (stored).
- :data:`PRESENCE` (``p``): a server's connections of the match changed (counts: the bus).
- :data:`UNDO_ASKED` (``uq``): an undo request ``r`` (its ``undo-request`` message, the
  seats still to answer), asked on server ``o`` at wall-clock time ``t`` (the request's
  name in the store: :mod:`tabletop.web.undo_requests`).
- :data:`UNDO_RESULT` (``ur``): the result ``r`` of the undo request asked at ``t``, for
  every connection (an answer is stored by the server it came to, which tells the result).
"""

from __future__ import annotations

from tabletop.game import JSON

CHANGED = "a"
CHAT = "c"
PRESENCE = "p"
NAMED = "nm"
UNDO_ASKED = "uq"
UNDO_RESULT = "ur"
UNDO_KINDS = (UNDO_ASKED, UNDO_RESULT)


def changed(match_id: str, number: int, undos: int) -> JSON:
    return {"k": CHANGED, "m": match_id, "n": number, "u": undos}


def chat(match_id: str, entry: JSON) -> JSON:
    return {"k": CHAT, "m": match_id, "e": entry}


def named(match_id: str, seat: int | None, name: str) -> JSON:
    return {"k": NAMED, "m": match_id, "seat": seat, "name": name}


def presence(match_id: str) -> JSON:
    return {"k": PRESENCE, "m": match_id}


def undo_asked(match_id: str, origin: str, request: JSON, asked: float) -> JSON:
    return {"k": UNDO_ASKED, "m": match_id, "o": origin, "r": request, "t": asked}


def undo_result(match_id: str, message: JSON, asked: float) -> JSON:
    return {"k": UNDO_RESULT, "m": match_id, "r": message, "t": asked}

"""Undo requests kept in the store (issue 39): a request waiting for the others' answers
is a row of table ``undo_requests`` (match, the asker's seat, the position it was asked
at: actions and undos, the actions it takes back, the seats still to answer, when it was
asked), so a restarted server, another server sharing the store, or a connection joining
later finds it and its answers work there.

The row goes when the request is answered (a decline, the last agreement), when it
lapses (nobody answered within :func:`expiry` seconds of ``asked``: the asker is told),
and when it is made moot: an action, an undo or the end of the match removes it in the
same store step (:func:`tabletop.web.store_steps.moot`). Each of these writes must remove the
row it names (``asked``), else it is refused as
:class:`~tabletop.web.store_records.Stale`: whichever server writes first decides, once.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Iterable

from tabletop.core.errors import UsageError
from tabletop.core.i18n.text import Domain
from tabletop.web.store_records import Statement
from tabletop.web.store_steps import ONE_ROW

_ = Domain("tabletop")

EXPIRY = 120.0  # seconds an undo request waits for its answers, then lapses
EXPIRY_VARIABLE = "TABLETOP_UNDO_EXPIRY"  # seconds in place of EXPIRY (tests, a club)
EXPIRY_MOST = 86_400.0


def expiry() -> float:
    """The seconds a request waits: :data:`EXPIRY`, or ``$TABLETOP_UNDO_EXPIRY`` (1 to
    86400); UsageError (one line) for another value (``serve`` checks it at start)."""
    text = os.environ.get(EXPIRY_VARIABLE)
    if not text:
        return EXPIRY
    try:
        seconds = float(text)
    except ValueError:
        seconds = math.nan
    if not 1 <= seconds <= EXPIRY_MOST:
        raise UsageError(
            _(
                "{variable} is the seconds an undo request waits, 1 to {most}, not {value}",
                variable=EXPIRY_VARIABLE,
                most=int(EXPIRY_MOST),
                value=text,
            )
        )
    return seconds


def lapsed() -> str:
    """Why a request was not carried out when nobody answered in time."""
    return _("nobody answered in time ({seconds} s)", seconds=format(expiry(), "g"))


def waiting_text(waiting: Iterable[int]) -> str:
    """The seats still to answer as stored (a JSON list, in order)."""
    return json.dumps(sorted(waiting))


def asked(
    match_id: str, seat: int, number: int, undos: int, count: int, waiting: Iterable[int],
    at: float,
) -> list[Statement]:
    """Store ``seat``'s request to take back ``count`` actions, asked at ``at`` at position
    ``number`` (after ``undos`` undos). Refused (:class:`Stale`) when another request is
    waiting or the match is no longer there (moved on, ended). The match's row is written
    first: its lock orders this against another server's action."""
    return [
        ("UPDATE matches SET updated=updated WHERE id=?", (match_id,)),  # orders the writers
        ("DELETE FROM undo_requests WHERE match=? AND (number<>? OR undos<>?)",
         (match_id, number, undos)),  # a row left over from another position
        (ONE_ROW + "INSERT INTO undo_requests (match, seat, number, undos, count, waiting, "
         "asked) SELECT ?,?,?,?,?,?,? WHERE (SELECT count(*) FROM actions WHERE match=?)=? "
         "AND (SELECT undos FROM matches WHERE id=?)=? "
         "AND (SELECT status FROM matches WHERE id=?)='ongoing'",
         (match_id, seat, number, undos, count, waiting_text(waiting), at,
          match_id, number, match_id, undos, match_id)),
    ]  # fmt: skip


def agreed(match_id: str, at: float, waiting: Iterable[int]) -> list[Statement]:
    """An agreement that leaves ``waiting`` to answer the request asked at ``at``."""
    return [(
        ONE_ROW + "UPDATE undo_requests SET waiting=? WHERE match=? AND asked=?",
        (waiting_text(waiting), match_id, at),
    )]  # fmt: skip


def settled(match_id: str, at: float) -> list[Statement]:
    """The request asked at ``at`` is answered (declined, or its last agreement) or has
    lapsed: its row goes; Stale when it went already (another server decided)."""
    return [(ONE_ROW + "DELETE FROM undo_requests WHERE match=? AND asked=?", (match_id, at))]


"""The writes: each step of a match (an action, an undo, a loss on time, the clock, a
claimed seat, a rematch; a sealed choice: :mod:`tabletop.web.store_sealed`) as the
statements that store it, in the SQL both databases speak. A statement marked
:data:`ONE_ROW` must change a row, else the step is refused as
:class:`~tabletop.web.store_records.Stale` (another writer stored it first)."""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

from tabletop.web.store_records import Statement

ONE_ROW = "/* one row */ "  # a statement marked so must change a row, else Stale


def moot(match_id: str) -> Statement:
    """The waiting undo request (:mod:`tabletop.web.undo_requests`) forgotten: part of
    every step that moves the match on (an action, an undo, its end)."""
    return ("DELETE FROM undo_requests WHERE match=?", (match_id,))


def append(
    match_id: str, number: int, text: str, status: str, at: float,
    deadline: float | None = None, undos: int | None = None,
    sealed: Mapping[int, str] | None = None,
) -> list[Statement]:
    """Store action ``number`` (1-based), the match's status after it, when, and the
    deadline (wall clock) of the person to act next. Refused (:class:`Stale`) when
    action ``number`` is already stored, when fewer than ``number - 1`` are (no gap), when
    the match was lost on time or ended at the table (resigned, a draw agreed), or (given
    ``undos``) when another server has undone since
    (the action was chosen on a history that is gone). The match's row is written first:
    its lock orders the writers of one match on a shared database.

    The first action of a joint step names in ``sealed`` the stored sealed choices it
    applies (by seat): each is cleared, and the step refused when one is not stored as
    given (taken back, or another). No action is stored while a sealed choice is."""
    undone = "" if undos is None else " AND (SELECT undos FROM matches WHERE id=?)=?"
    clear = [
        (ONE_ROW + "DELETE FROM sealed WHERE match=? AND seat=? AND number=? AND text=?",
         (match_id, seat, number - 1, chosen))
        for seat, chosen in sorted((sealed or {}).items())
    ]  # fmt: skip
    return [
        ("UPDATE matches SET status=?, updated=?, deadline=? WHERE id=?",
         (status, at, deadline, match_id)),
        *clear,
        moot(match_id),
        (ONE_ROW + "INSERT INTO actions (match, number, text) SELECT ?,?,? "
         "WHERE NOT EXISTS (SELECT 1 FROM timeouts WHERE match=?) "
         "AND NOT EXISTS (SELECT 1 FROM sealed WHERE match=?) "
         "AND (SELECT forfeit FROM matches WHERE id=?) IS NULL "
         "AND (SELECT count(*) FROM actions WHERE match=?)=?" + undone,
         (match_id, number, text, match_id, match_id, match_id, match_id, number - 1,
          *(() if undos is None else (match_id, undos)))),
    ]  # fmt: skip


def truncate(
    match_id: str, keep: int, deadline: float | None = None,
    seen: int | None = None, undos: int | None = None,
) -> list[Statement]:
    """Forget every action after the first ``keep`` (an undo), any forfeit and any
    sealed choice. Given
    ``seen`` (the actions the undoing server knows) and ``undos`` (the undos it knows),
    refused (:class:`Stale`) when another server has stored an action or undone since:
    an undo never deletes an action someone else was told of."""
    guard = ""
    args: tuple[Any, ...] = ()
    if seen is not None and undos is not None:
        guard = " AND undos=? AND (SELECT count(*) FROM actions WHERE match=?)=?"
        args = (undos, match_id, seen)
    return [
        ((ONE_ROW if guard else "")
         + "UPDATE matches SET forfeit=NULL, ending=NULL, status='ongoing', deadline=?, "
         "undos=undos+1 "
         "WHERE id=?" + guard, (deadline, match_id, *args)),
        ("DELETE FROM actions WHERE match=? AND number>?", (match_id, keep)),
        ("DELETE FROM timeouts WHERE match=?", (match_id,)),
        ("DELETE FROM sealed WHERE match=?", (match_id,)),
        moot(match_id),
    ]  # fmt: skip


def rewritten(match_id: str, texts: list[str]) -> list[Statement]:
    """Store ``texts`` as the match's actions in place of those stored (a match stored
    before its game declared chance steps, its chance outcomes now among them)."""
    insert = "INSERT INTO actions (match, number, text) VALUES (?,?,?)"
    return [
        ("DELETE FROM actions WHERE match=?", (match_id,)),
        *((insert, (match_id, number, text)) for number, text in enumerate(texts, start=1)),
    ]


def forfeit(
    match_id: str, player: int, at: float, number: int | None = None, ending: str = "time"
) -> list[Statement]:
    """``player`` lost on time (``ending`` "time"), resigned, or offered the draw every
    person agreed to ("resigned", "agreed-draw": :mod:`tabletop.core.endings`). Given the
    position ``number`` it happened at, refused as :class:`Stale` when the match ended
    already or is no longer at ``number`` (another server stored an action first): a game
    ends on time exactly once."""
    if ending != "time":
        return [(
            ONE_ROW + "UPDATE matches SET forfeit=?, ending=?, status='over', updated=?, "
            "deadline=NULL WHERE id=? AND forfeit IS NULL"
            + ("" if number is None else " AND (SELECT count(*) FROM actions WHERE match=?)=?"),
            (player, ending, at, match_id, *(() if number is None else (match_id, number))),
        ), moot(match_id)]  # fmt: skip
    steps: list[Statement] = [(
        "UPDATE matches SET forfeit=?, status='over', updated=?, deadline=NULL WHERE id=?",
        (player, at, match_id),
    ), moot(match_id)]  # fmt: skip
    if number is not None:
        steps.append((
            ONE_ROW + "INSERT INTO timeouts (match, number, player) SELECT ?,?,? WHERE "
            "(SELECT count(*) FROM actions WHERE match=?)=? "
            "AND NOT EXISTS (SELECT 1 FROM timeouts WHERE match=?)",
            (match_id, number, player, match_id, number, match_id),
        ))  # fmt: skip
    return steps


def clock(match_id: str, deadline: float | None, first: bool = False) -> list[Statement]:
    """The deadline of the person to act (set when the last seat is first opened);
    ``first``: only if none is stored (else Stale: another server started the clock)."""
    if first:
        return [(ONE_ROW + "UPDATE matches SET deadline=? WHERE id=? AND deadline IS NULL",
                 (deadline, match_id))]  # fmt: skip
    return [("UPDATE matches SET deadline=? WHERE id=?", (deadline, match_id))]


def claim(match_id: str, seat: int) -> list[Statement]:
    return [(
        "INSERT INTO claims (match, seat) VALUES (?,?) ON CONFLICT DO NOTHING",
        (match_id, seat),
    )]  # fmt: skip


def rematch(match_id: str, new_id: str) -> list[Statement]:
    """The rematch of ``match_id`` is ``new_id`` (Stale when it has one already: made
    by another server meanwhile); the match counts as touched now (:data:`POSITIONS`)."""
    return [(
        ONE_ROW + "UPDATE matches SET rematch=?, updated=? WHERE id=? AND rematch IS NULL",
        (new_id, time.time(), match_id),
    )]  # fmt: skip


# every table that holds rows of one match (its ``match`` column), matches itself aside
MATCH_TABLES = (
    "actions", "claims", "open_seats", "leases", "timeouts", "sealed", "names", "chat",
    "chat_open", "undo_requests",
)  # fmt: skip


def withdraw(match_id: str) -> list[Statement]:
    """Remove ``match_id`` and all its rows: a rematch made by this server after another
    server's had been stored (nobody was given its links)."""
    rows = [(f"DELETE FROM {table} WHERE match=?", (match_id,)) for table in MATCH_TABLES]
    return [*rows, ("DELETE FROM matches WHERE id=?", (match_id,))]

"""The writes of a simultaneous step's sealed choices (issue 35): each acknowledged
choice is a row of table ``sealed`` (match, seat, the number of actions it was made
at, its text) until the joint action is applied, so a restart or another server sharing
the store knows it; the row is read back only into the match (``Match.sealed``), whose
views show its text to its chooser alone.

The rows of a match never make a whole round: the last choice is stored as the joint
action itself (:func:`tabletop.web.store_steps.append` clears the others' rows in the
same step, refused when one is not stored as this server knows it). A choice that would
be the last in the store, though this server did not know the others', is refused as
:class:`~tabletop.web.store_records.Stale`: the room reads the store and enters it again
(then it is the last, and applied)."""

from __future__ import annotations

from tabletop.web.store_records import Statement
from tabletop.web.store_steps import ONE_ROW


def chosen(
    match_id: str, number: int, seat: int, text: str, choosers: int, undos: int, at: float
) -> list[Statement]:
    """Store ``seat``'s sealed choice ``text`` made at position ``number`` (the actions
    stored) of a step ``choosers`` choose at. Refused (:class:`Stale`) when the seat's
    choice is stored already, when the match moved on (another action, an undo, a loss
    on time), or when it would make the round whole (the others' choices all stored)."""
    return [
        ("UPDATE matches SET updated=? WHERE id=?", (at, match_id)),  # orders the writers
        (ONE_ROW + "INSERT INTO sealed (match, seat, number, text) SELECT ?,?,?,? "
         "WHERE NOT EXISTS (SELECT 1 FROM timeouts WHERE match=?) "
         "AND (SELECT count(*) FROM actions WHERE match=?)=? "
         "AND (SELECT undos FROM matches WHERE id=?)=? "
         "AND (SELECT count(*) FROM sealed WHERE match=?)<?",
         (match_id, seat, number, text, match_id, match_id, number, match_id, undos,
          match_id, choosers - 1)),
    ]  # fmt: skip


def taken_back(match_id: str, number: int, seat: int, at: float) -> list[Statement]:
    """Forget ``seat``'s sealed choice made at position ``number``; refused (:class:`Stale`)
    when none is stored (applied meanwhile, on another server)."""
    return [
        ("UPDATE matches SET updated=? WHERE id=?", (at, match_id)),
        (ONE_ROW + "DELETE FROM sealed WHERE match=? AND seat=? AND number=?",
         (match_id, seat, number)),
    ]  # fmt: skip

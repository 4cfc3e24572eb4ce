"""A room's match brought up to the stored one (several servers sharing a store).

Another server stored actions (or an undo, or a loss on time) this server has not
applied: :func:`catch_up` applies the stored actions after the ones this match has
through the checked path, or, when the stored match is no longer a continuation of it
(an undo elsewhere: a different undo count or other texts), replays the stored match
whole. Either way the result is exactly the stored match, with the sealed choices
stored at its simultaneous step (:func:`tabletop.web.sealed.restore`) in place of those
it held.
"""

from __future__ import annotations

from dataclasses import dataclass

from tabletop.core.match import Match
from tabletop.web import sealed
from tabletop.web.store import StoredMatch
from tabletop.web.store_records import ended


@dataclass(frozen=True)
class CaughtUp:
    """What :func:`catch_up` did: ``first`` is the first action index that changed (the
    game log is told again from there), ``replayed`` whether the match was replayed whole
    (an undo: every cache of the old one is stale)."""

    match: Match
    first: int
    replayed: bool
    changed: bool


def catch_up(match: Match, stored: StoredMatch, undos: int) -> CaughtUp:
    """``match`` (at ``undos`` undos so far) made the stored match; TabletopError when a
    stored action does not replay (the caller keeps its match)."""
    have = len(match.texts)
    continues = (
        stored.undos == undos
        and len(stored.actions) >= have
        and stored.actions[:have] == match.texts
    )
    forfeit = ended(stored)
    if not continues:
        fresh = match.again(stored.actions)
        fresh.forfeit = forfeit
        sealed.restore(fresh, stored.sealed)
        first = next(
            (i for i, (a, b) in enumerate(zip(match.texts, fresh.texts, strict=False)) if a != b),
            min(have, len(fresh.texts)),
        )
        return CaughtUp(fresh, first, True, True)
    changed = False
    before, match.sealed = sealed.texts(match), {}
    match.draw_chance = False  # the chance outcomes drawn elsewhere are stored: replayed
    try:
        for text in stored.actions[have:]:
            match.play(text)
            changed = True
    except Exception:  # the caller keeps its match as it was, not half advanced
        match.truncate(have)
        sealed.restore(match, before)
        raise
    finally:
        match.draw_chance = True
    match.settle()
    if (match.forfeit is None) != (forfeit is None):
        match.forfeit = forfeit
        changed = True
    sealed.restore(match, stored.sealed)
    changed = changed or sealed.texts(match) != before
    return CaughtUp(match, have, False, changed)

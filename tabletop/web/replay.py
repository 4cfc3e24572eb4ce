"""A stored match made live again: replayed through the checked path
(``Match.from_record``); one stored before its game declared chance steps is upgraded
(:mod:`tabletop.core.legacy`); one whose stored actions no longer replay is served up to
its last good action and marked damaged."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from tabletop.core.errors import TabletopError, one_line
from tabletop.core.i18n.text import Domain
from tabletop.core.legacy import seeded_chance_of
from tabletop.core.match import Match
from tabletop.core.records import Record
from tabletop.game import Game
from tabletop.web import sealed, store
from tabletop.web.store import MatchStore, StoredMatch
from tabletop.web.store_records import ended

log = logging.getLogger("tabletop.web")
_ = Domain("tabletop")


def replayed(
    game: Game[Any, Any], meta: StoredMatch, db: MatchStore
) -> tuple[Match, str]:
    """The match replayed through the checked path with its stored sealed choices, and
    '' ; or, when a stored action no longer replays, the match up to its last good action
    and why."""
    record = stored_record(meta)
    try:
        match = Match.from_record(game, record, _("match {id}", id=meta.id))
        sealed.restore(match, meta.sealed)
        return match, ""
    except TabletopError as exc:
        damage = one_line(str(exc))
    upgraded = upgrade(game, record, meta, db)
    if upgraded is not None:
        sealed.restore(upgraded, meta.sealed)
        return upgraded, ""
    start = record.model_copy(update={"actions": [], "forfeit": None})
    match = Match.from_record(game, start, _("match {id}", id=meta.id))
    for text in meta.actions:
        try:
            match.play(text)
        except TabletopError:
            break
    log.warning("match %s is damaged, served up to action %d: %s",
                meta.id, len(match.actions), damage)  # fmt: skip
    return match, damage


def upgrade(
    game: Game[Any, Any], record: Record, meta: StoredMatch, db: MatchStore
) -> Match | None:
    """A match stored before its game declared chance steps (its actions hold no
    chance outcome), replayed by the game's legacy facet (:mod:`tabletop.core.legacy`);
    its stored actions are rewritten with the outcomes drawn, so that it goes on as
    any other. None when it is not such a match."""
    if seeded_chance_of(game) is None:
        return None
    try:
        old = record.model_copy(update={"chance": "seed"})
        match = Match.from_record(game, old, _("match {id}", id=meta.id))
    except TabletopError:
        return None
    meta.actions = list(match.texts)
    written = db.submit(store.rewritten(meta.id, match.texts))
    written.add_done_callback(lambda done: _unwritten(meta.id, done))
    log.info("match %s was stored before chance steps: its actions now hold them", meta.id)
    return match


def _unwritten(match_id: str, done: asyncio.Future[None]) -> None:
    """One log line when an upgraded match's actions could not be stored (a restart
    upgrades it again; until then the store refuses its next action as stale)."""
    if not done.cancelled() and (error := done.exception()) is not None:
        log.warning("match %s: its upgraded actions were not stored: %s", match_id, error)


def stored_record(meta: StoredMatch) -> Record:
    """The record of a stored match (its chance outcomes among its actions)."""
    return Record(
        game=meta.game,
        game_version=meta.game_version,
        players=meta.players,
        options=meta.options,
        seed=meta.seed,
        actions=list(meta.actions),
        chance="actions",
        seats={str(r.seat): r.ai for r in meta.seats if r.ai},
        move_time=meta.move_time,
        forfeit=ended(meta),
    )

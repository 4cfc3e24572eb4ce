"""A match a server stored before its game declared chance steps (issue 35): its stored
actions hold no deal. After the upgrade the server replays it through the game's legacy
facet to the same position, rewrites its stored actions with the deal among them, and
serves it on: nothing a player had on the server is lost."""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path

from tabletop.core.match import Match
from tabletop.core.records import Record
from tabletop.core.registry import registry
from tabletop.game import CHANCE
from tabletop.web import store
from tabletop.web.store import SeatRow, StoredMatch
from tests.web_support import get, live_server

LEGACY = Path(__file__).parent / "legacy" / "quartino"


def stored_before(path: Path, record: Record) -> None:
    """The match as a server of the previous release stored it: its actions, no deal."""
    meta = StoredMatch(
        "old", time.time(), record.game, record.game_version, record.players, record.options,
        record.seed, [SeatRow(1, None, "tok1"), SeatRow(2, None, "tok2")], True, None,
    )  # fmt: skip
    db = store.connect(path)
    try:
        statements = [meta.insert()]
        for number, text in enumerate(record.actions, start=1):
            statements += store.append("old", number, text, "ongoing", time.time())
        for sql, args in statements:
            db.execute(sql.removeprefix(store.ONE_ROW), args)
    finally:
        db.close()


def test_an_old_stored_match_is_served_at_the_same_position(tmp_path: Path) -> None:
    record = Record.from_text((LEGACY / "p2-first-end.record.json").read_text("utf-8"))
    position = json.loads((LEGACY / "p2-first-end.position.json").read_text("utf-8"))
    assert record.actions and not any(t.startswith("deal") for t in record.actions)
    db = tmp_path / "m.sqlite3"
    stored_before(db, record)
    with live_server(db) as base:
        status, text = get(base, "api/matches/old/record?token=tok1")
        assert status == 200, text
    served = Record.from_text(text)
    game = registry().get("quartino")
    match = Match.from_record(game, served)
    assert game.to_json(match.state) == position  # the same position, hidden cards too
    dealt = [t for t, a in zip(match.texts, match.actors, strict=True) if a == CHANCE]
    assert dealt and all(t.startswith("deal ") for t in dealt)
    assert [t for t in match.texts if not t.startswith("deal ")] == record.actions
    with sqlite3.connect(db) as rows:  # the store now holds the deal among the actions
        kept = [t for (t,) in rows.execute("SELECT text FROM actions ORDER BY number")]
    assert kept == match.texts

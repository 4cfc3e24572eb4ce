"""Chance outcomes and joint actions in the web server's store (issue 35).

- The chance outcome the core draws as a match is set up (Goofspiel's first prize card)
  is stored with the new match: the actions after it are accepted, and a restart on the
  same database resumes the match at the same position with the same game log.
- A room brought up to the stored match (``tabletop.web.catchup``, several servers
  sharing a store) replays the stored chance outcomes rather than drawing again, whether it
  continues its match or replays it whole.
"""

from __future__ import annotations

import random
import time
from pathlib import Path

import pytest

from tabletop.core.match import Match
from tabletop.core.registry import registry
from tabletop.web.catchup import catch_up
from tabletop.web.store import SeatRow, StoredMatch
from tests.web_support import Client, live_server, post

pytest.importorskip("tabletop_goofspiel")
pytest.importorskip("tabletop_pig")


def random_match(game_id: str, rng: random.Random, length: int) -> Match:
    """A match of two, its choices random (a sealed step's by each chooser in turn)."""
    game = registry().get(game_id)
    match = Match(game, 2, game.info.options(), rng.randrange(2**31))
    while len(match.actions) < length and match.outcome() is None:
        player = match.choosers()[0]
        match.play(rng.choice(match.listing_text(player)), player)
    return match


def stored_as(match: Match, undos: int) -> StoredMatch:
    return StoredMatch(
        "m", time.time(), match.game.info.id, match.game.info.version, match.players, {},
        match.seed, [SeatRow(1, None, "t"), SeatRow(2, None, "u")], True, None,
        undos=undos, actions=list(match.texts),
    )  # fmt: skip


def copy_of(match: Match, count: int) -> Match:
    """The first ``count`` actions replayed as a record is (chance stated, then drawn on)."""
    other = Match(match.game, match.players, match.options, match.seed, match.start, False)
    other.play_all(match.texts[:count])
    other.draw_chance = True
    other.settle()
    return other


@pytest.mark.parametrize("game_id", ["pig", "goofspiel"])
@pytest.mark.parametrize("seed", range(4))
def test_catching_up_replays_the_stored_chance_outcomes(game_id: str, seed: int) -> None:
    rng = random.Random(seed)
    ahead = random_match(game_id, rng, rng.randrange(8, 20))
    chances = [t for t, a in zip(ahead.texts, ahead.actors, strict=True) if a == -1]
    assert chances  # the stored actions hold chance outcomes
    behind = copy_of(ahead, rng.randrange(0, len(ahead.texts)))
    result = catch_up(behind, stored_as(ahead, 0), 0)
    assert not result.replayed and result.match.texts == ahead.texts
    assert result.match.state == ahead.state and result.match.draw_chance
    # an undo elsewhere: the stored match replayed whole, its chance as stored
    result = catch_up(copy_of(ahead, len(ahead.texts)), stored_as(ahead, 1), 0)
    assert result.replayed and result.match.texts == ahead.texts
    assert result.match.state == ahead.state and result.match.draw_chance


def test_a_restart_resumes_a_goofspiel_match_with_its_chance_and_bids(tmp_path: Path) -> None:
    db = tmp_path / "m.sqlite3"
    with live_server(db) as base:
        status, links = post(base, "api/matches", {
            "game": "goofspiel", "players": 2, "options": {"num_cards": 4},
            "seats": [{"seat": 1}, {"seat": 2}], "spectators": True, "move_time": None,
        })  # fmt: skip
        assert status == 201, links
        tokens = {s["seat"]: s["token"] for s in links["seats"]}
        one, two = (Client(base, links["id"], tokens[s]) for s in (1, 2))
        start = one.at(0)
        assert start["number"] == 1  # the first prize card, drawn as the match was set up
        two.at(1)
        one.act("bid 4")
        two.act("bid 1")
        after = two.until(lambda m: m["type"] == "position" and m["number"] > 1)
        assert after["number"] == 4 and after["sealed"]["mine"] is None  # the next round
        log = one.until(lambda m: m["type"] == "log" and m["number"] == 4)
        before = [e["text"] for e in log["entries"]]
        one.close()
        two.close()
    with live_server(db) as base:
        again = Client(base, links["id"], tokens[1])
        texts = again.until(lambda m: m["type"] == "log")
        assert [e["text"] for e in texts["entries"]][1:] == before
        assert [e["player"] for e in texts["entries"]] == [-1, 1, 2, -1]
        position = again.at(4)
        assert position["number"] == 4 and position["sealed"]["waiting"] == [1, 2]
        again.act("bid 2")  # the match goes on where it was
        assert again.until(lambda m: m["type"] == "position")["sealed"]["mine"] == "bid 2"
        again.close()

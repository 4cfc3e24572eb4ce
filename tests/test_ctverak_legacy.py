"""Čtverák games saved before the deal and draws became chance steps (issue 35) still load
and replay to the same position.

``tests/legacy/ctverak/`` holds saves made by version 0.1.0 (the seed in the state: a
shuffled deck, the stock drawn from its front, the K5.2 reshuffle shuffled with the seed),
each beside the full position it reached (``to_json``, hidden parts included), and the
four golden games that version recorded (``golden/``), kept as they were written.
The stock has no order now (K8: nobody sees it), so it is compared as a multiset; every
other key, and every card that came from it into a hand, must be exactly as then.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from tabletop.core.match import Match
from tabletop.core.records import load
from tabletop.core.registry import registry
from tabletop.game import CHANCE
from tabletop.kit.golden import replay_golden
from tabletop_ctverak.cards import card_code, deck
from tabletop_ctverak.legacy import reshuffled_stock, seeded_chance, shuffled_deck
from tabletop_ctverak.rules import DEAL_CARD, CtverakOptions

LEGACY = Path(__file__).parent / "legacy" / "ctverak"
RECORDS = sorted(LEGACY.glob("*.record.json"))
GOLDEN = sorted((LEGACY / "golden").glob("ctverak-*.json"))
GAME = registry().get("ctverak")


def same_position(want: dict[str, Any], got: dict[str, Any]) -> None:
    """Every key as saved; the stock as a multiset (it has no order now)."""
    assert set(want) <= set(got)
    for key in want:
        if key == "stock":
            assert Counter(got[key]) == Counter(want[key]), key
        else:
            assert got[key] == want[key], key


def test_the_fixtures_cover_reshuffles_finished_and_unfinished_games() -> None:
    names = {p.name.split(".")[0] for p in RECORDS}
    assert len(names) == 7 and {"2p-full-mid", "4p-reshuffle-done", "6p-reshuffle-mid"} <= names
    positions = {n: json.loads((LEGACY / f"{n}.position.json").read_text()) for n in names}
    assert sum(p["reshuffles"] for p in positions.values()) >= 4  # draws after reshuffles
    assert any(p["winners"] or p["phase"] == "over" for p in positions.values())
    assert any(p["phase"] != "over" for p in positions.values())
    assert all("chance" not in json.loads(p.read_text()) for p in RECORDS)  # made before


@pytest.mark.parametrize("path", RECORDS, ids=[p.name for p in RECORDS])
def test_a_save_made_before_chance_steps_replays_to_the_same_position(path: Path) -> None:
    record = load(path)
    assert record.chance == "seed" and record.game_version == "0.1.0"
    match = Match.from_record(GAME, record, str(path))
    want = json.loads(path.with_name(path.name.replace(".record", ".position")).read_text())
    same_position(want, GAME.to_json(match.state))
    # the saved actions are all there, the chance steps drawn as version 0.1.0 drew them
    played = [t for t, a in zip(match.texts, match.actors, strict=True) if a != CHANCE]
    assert played == record.actions
    # and saved again it keeps every outcome among its actions: it replays as it is
    again = Match.from_record(GAME, match.record())
    assert again.record().chance == "actions" and again.state == match.state


def test_a_loaded_old_game_goes_on_with_the_cards_its_version_would_have_dealt() -> None:
    path = LEGACY / "2p-full-mid.record.json"
    match = Match.from_record(GAME, load(path), str(path))
    assert match.player() is not None and match.seeded is not None
    before = len(match.actions)
    while match.player() is not None and len(match.actions) < before + 40:
        match.push(GAME.legal(match.state)[0])  # draw stock first, when a refill is due
    chance = [t.split()[1] for t, a in zip(match.texts, match.actors, strict=True) if a == CHANCE]
    dealt = 4 * match.players + 4
    old = [card_code(c) for c in shuffled_deck(match.seed, False)]
    assert len(chance) > dealt + 10 and chance == old[: len(chance)]  # the deal, then the stock


@pytest.mark.parametrize("path", GOLDEN, ids=[p.name for p in GOLDEN])
def test_a_golden_game_made_before_chance_steps_still_replays(path: Path, tmp_path: Path) -> None:
    """The file as written by version 0.1.0, its stocks sorted (the only change: the same
    cards, no order), replays through the checked path without a difference."""
    data = json.loads(path.read_text(encoding="utf-8"))
    assert "chance" not in data and data["game_version"] == "0.1.0"
    snapshots = [data["initial"], *data["steps"]]
    rank = {card_code(c): c for c in deck(False)}
    for snap in snapshots:
        stock = snap["position"]["stock"]
        snap["position"]["stock"] = sorted(stock, key=rank.__getitem__)
        assert Counter(snap["position"]["stock"]) == Counter(stock)
    sorted_copy = tmp_path / path.name
    sorted_copy.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    assert replay_golden(sorted_copy) == []


def test_without_the_legacy_draws_an_old_golden_game_would_not_replay(tmp_path: Path) -> None:
    """The comparison is real: the same file claiming chance drawn by the match differs."""
    data = json.loads(GOLDEN[0].read_text(encoding="utf-8"))
    data["chance"] = "drawn"
    bent = tmp_path / "bent.json"
    bent.write_text(json.dumps(data), encoding="utf-8")
    assert replay_golden(bent)


def test_seeded_chance_deals_as_the_old_shuffle_and_rebuilds_the_old_reshuffle() -> None:
    cards = list(deck(True))
    random.Random(21).shuffle(cards)
    match = Match(GAME, 3, CtverakOptions(deck="half"), 21, seeded=seeded_chance)
    state = match.state
    assert [len(h) for h in state.hands] == [4, 4, 4]
    for p in range(3):
        assert state.hands[p] == tuple(sorted(cards[p:12:3]))
    assert state.bases == tuple(cards[12:16]) and state.stock == tuple(sorted(cards[16:]))
    assert match.actions[:16] == [(DEAL_CARD, c) for c in cards[:16]]
    piles = ((1, 2, 3), (), (4,), (5, 6))
    pool = [1, 2, 5]
    random.Random("ctverak-reshuffle:21:0").shuffle(pool)
    assert reshuffled_stock(21, 0, piles) == tuple(pool)

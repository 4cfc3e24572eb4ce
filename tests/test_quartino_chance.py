"""Quartino's deal and lot as chance steps (issue 35; rules N2.1, N2.2, N7): exact
probabilities over the cards not yet dealt, what a dealt card tells whom, determinisation
during the deal, and the records and golden games made before the change, which replay
to the same position through the legacy facet (``tabletop_quartino.legacy``)."""

from __future__ import annotations

import json
import random
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest
from pydantic import BaseModel

from tabletop.core.errors import ActionError, PositionError
from tabletop.core.i18n.text import translate
from tabletop.core.match import Match
from tabletop.core.records import load
from tabletop.core.table import told
from tabletop.game import CHANCE
from tabletop.kit.golden import replay_golden
from tabletop_quartino import render
from tabletop_quartino.cards import deck
from tabletop_quartino.game import QuartinoGame
from tabletop_quartino.legacy import old_deal, seeded_chance
from tabletop_quartino.rules import DEAL, DEALS, LOT, LOTS, State

GAME = QuartinoGame()
LEGACY = Path(__file__).parent / "legacy" / "quartino"
GOLDEN = Path(__file__).parent / "golden"
CODES = deck().codes


def options(**values: object) -> BaseModel:
    return GAME.info.options(**values)


def deal_all(state: State, rng: random.Random) -> tuple[State, list[object]]:
    """Every chance step drawn by its probabilities: the state after them and the path."""
    path: list[object] = []
    while GAME.to_act(state) == CHANCE:
        outcomes = GAME.chance_outcomes(state)
        actions = [a for a, _p in outcomes]
        action = rng.choices(actions, weights=[float(p) for _a, p in outcomes])[0]
        path.append(action)
        state = GAME.apply(state, action)
    return state, path


# -- the chance steps (N2.1, N2.2) ------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("start", ["first", "lot"])
def test_every_deal_step_offers_exactly_the_unseen_cards_with_exact_probabilities(
    players: int, start: str
) -> None:
    """N2.1: each card not yet on a stand comes with 1/(cards left); they sum to 1 exactly;
    a card goes to player 1 until they hold 4, then to player 2, ...; N2.2: the lot."""
    state = GAME.new(players, options(start=start), 0)
    rng = random.Random(players)
    steps = 0
    while GAME.to_act(state) == CHANCE:
        outcomes = list(GAME.chance_outcomes(state))
        assert all(isinstance(p, Fraction) for _a, p in outcomes)
        assert sum(p for _a, p in outcomes) == 1
        assert [a for a, _p in outcomes] == list(GAME.legal(state))
        held = {card for stand in state.stands for card in stand}
        if steps < 4 * players:
            assert {a.a for a, _p in outcomes} == set(range(24)) - held
            assert all(a.kind == DEAL and p == Fraction(1, 24 - steps) for a, p in outcomes)
        else:  # the lot: every player, 1/n each
            assert start == "lot"
            assert outcomes == [(LOTS[p], Fraction(1, players)) for p in range(1, players + 1)]
        action = rng.choice([a for a, _p in outcomes])
        before = [len(stand) for stand in state.stands]
        state = GAME.apply(state, action)
        if action.kind == DEAL:
            due = next(i for i, n in enumerate(before) if n < 4)
            assert action.a in state.stands[due] and len(state.stands[due]) == before[due] + 1
        steps += 1
    assert steps == 4 * players + (start == "lot")
    assert all(len(stand) == 4 for stand in state.stands)
    assert GAME.to_act(state) == (action.a if action.kind == LOT else 1)


def test_new_holds_no_seed_the_match_draws_the_deal() -> None:
    """The start is the same whatever the seed; the same match seed gives the same deal and
    records it as actions; another seed another deal."""
    assert GAME.new(3, options(), 0) == GAME.new(3, options(), 12345)
    one, again, other = (Match(GAME, 2, options(), seed) for seed in (5, 5, 6))
    assert one.state.stands == again.state.stands != other.state.stands
    assert one.texts[:8] == [a for a in one.texts if a.startswith("deal ")]
    assert len(one.texts) == 8 and one.record().chance == "actions"


def test_the_deal_follows_its_probabilities() -> None:
    """Drawn by the match over many seeds, the first card is every card about equally
    often (a chi-square bound far from the edge: 24 cards, 2400 deals)."""
    firsts = Counter(Match(GAME, 2, options(), seed).texts[0] for seed in range(2400))
    assert set(firsts) == {f"deal {code}" for code in CODES}
    chi2 = sum((n - 100) ** 2 / 100 for n in firsts.values())
    assert chi2 < 60  # 23 degrees of freedom: p < 1e-4 beyond 50


def test_chance_outcomes_are_refused_to_the_players_and_theirs_during_the_deal() -> None:
    match = Match(GAME, 2, options(start="lot"), 0, draw_chance=False)
    with pytest.raises(ActionError, match=r"N2\)"):
        match.play("place Y c")
    match.play("deal P|YBG")
    with pytest.raises(ActionError, match=r"P\|YBG is already dealt.*N2\.1"):
        match.play("deal P|YBG")
    with pytest.raises(ActionError, match=r"N2\)"):
        match.play("lot 1")  # the lot comes after the deal
    for code in CODES[:8]:
        if code != "P|YBG" and len(match.state.stands[1]) < 4:
            match.play(f"deal {code}")
    with pytest.raises(ActionError, match=r"players 1-2 \(N2\.2\)"):
        match.play("lot 3")
    match.play("lot 2")
    assert match.to_act() == 2
    with pytest.raises(ActionError, match=r"chance deals no more cards \(N2\.1\)"):
        match.play("deal Y|GPB")


@pytest.mark.parametrize(
    ("text", "said"),
    [("deal", "deal <card>"), ("deal X|YYY", "unknown card"), ("lot", "lot <player>"),
     ("lot 0", "lot <player>"), ("lot 5", "lot <player>"), ("lot x", "lot <player>")],
)
def test_bad_chance_notation_says_what_is_allowed(text: str, said: str) -> None:
    match = Match(GAME, 2, options(), 0, draw_chance=False)
    with pytest.raises(ActionError, match=said):
        match.play(text)
    assert match.texts == []


# -- what is told (N7) ------------------------------------------------------------------
def test_a_dealt_card_is_told_to_its_owner_only_until_the_end() -> None:
    match = Match(GAME, 3, options(start="lot", max_turns=1), 7)
    assert len(match.texts) == 13
    for index in range(12):
        owner = index // 4 + 1
        for viewer in (None, 1, 2, 3):
            assert told(match, index, viewer) is (viewer == owner), (index, viewer)
    assert all(told(match, 12, viewer) for viewer in (None, 1, 2, 3))  # the lot
    while match.outcome() is None:  # max_turns=1: the first turn ends the game (N5.2)
        match.play("end" if match.state.owed == 0 else "place Y c")
    assert all(told(match, index, viewer) for index in range(12) for viewer in (None, 1, 2, 3))


def test_the_views_during_the_deal_show_only_the_own_cards() -> None:
    match = Match(GAME, 2, options(), 3, draw_chance=False)
    for code in ("P|YBG", "Y|BGP", "B|YGP", "G|YBP", "B|PGY"):
        match.play(f"deal {code}")
    state = match.state
    mine, theirs = GAME.view(state, 1), GAME.view(state, 2)
    assert mine["stand"] == ["Y|BGP", "B|YGP", "G|YBP", "P|YBG"] and theirs["stand"] == ["B|PGY"]
    text = json.dumps(theirs) + json.dumps(GAME.view(state, None))
    assert not any(code in text for code in mine["stand"])
    assert mine["to_act"] == CHANCE and mine["stand_size"] == {"1": 4, "2": 1}


def test_unseen_text_names_the_player_not_the_card() -> None:
    state = GAME.new(2, options(start="lot"), 0)
    said = render.unseen_text(state, DEALS[5])
    assert said == "player 1 was dealt a card" and CODES[5] not in str(said)
    assert translate(said, "cs") == "hráč 1 dostal kartu"
    for _n in range(4):
        state = GAME.apply(state, GAME.legal(state)[0])
    assert render.unseen_text(state, DEALS[23]) == "player 2 was dealt a card"
    state, _path = deal_all(state, random.Random(1))
    assert render.unseen_text(state, GAME.legal(state)[0]) is None  # a placement


# -- determinisation and positions during the deal -------------------------------------
@pytest.mark.parametrize("players", [2, 4])
def test_samples_during_the_deal_agree_with_the_view_and_are_positions(players: int) -> None:
    rng = random.Random(players)
    state = GAME.new(players, options(start="lot"), 0)
    while GAME.to_act(state) == CHANCE:
        for player in range(1, players + 1):
            view = GAME.view(state, player)
            sample = GAME.sample(view, player, players, options(start="lot"), rng)
            assert GAME.view(sample, player) == view and GAME.to_act(sample) == CHANCE
            again = GAME.from_json(GAME.to_json(sample), players, options(start="lot"), 0)
            assert again == sample
        state = GAME.apply(state, rng.choice(list(GAME.legal(state))))


@pytest.mark.parametrize(
    ("change", "said"),
    [({"owed": 1}, "no turn has begun"), ({"board": {"c": ["Y"]}}, "board is empty"),
     ({"stands": {"1": ["P|YBG"], "2": ["Y|BGP"]}}, "then to player 2"),
     ({"stands": {"1": list(CODES[:4]), "2": list(CODES[4:8])}}, "to_act must be 1")],
)
def test_impossible_positions_during_the_deal_are_refused(change: dict[str, object],
                                                          said: str) -> None:
    data = GAME.to_json(GAME.new(2, options(), 0))
    assert data["to_act"] == CHANCE and data["stands"] == {"1": [], "2": []}
    data.update(change)
    if "board" in change:
        data["supply"] = {"Y": 6, "B": 7, "G": 7, "P": 7}
    with pytest.raises(PositionError, match=said):
        GAME.from_json(data, 2, options(), 0)


# -- made before the change: records, saves and golden games (issue 35) -----------------
def test_the_legacy_facet_deals_as_the_earlier_version_did() -> None:
    """The earlier new_state, seed 0, two players: these stands (the scenarios' deal2)."""
    cards, first = old_deal(0, 2, by_lot=False)
    assert sorted(CODES[c] for c in cards[:4]) == sorted(["Y|BGP", "B|YPG", "G|BYP", "G|PBY"])
    assert first == 1
    states = [GAME.new(2, options(), 0)]
    while GAME.to_act(states[-1]) == CHANCE:
        states.append(GAME.apply(states[-1], seeded_chance(states, 0)))
    assert [list(s) for s in states[-1].stands] == [sorted(cards[:4]), sorted(cards[4:8])]


LEGACY_RECORDS = sorted(LEGACY.glob("*.record.json"))


def test_the_legacy_fixtures_are_there() -> None:
    assert len(LEGACY_RECORDS) == 9


@pytest.mark.parametrize("path", LEGACY_RECORDS, ids=[p.name for p in LEGACY_RECORDS])
def test_a_record_saved_before_the_change_replays_to_the_same_position(path: Path) -> None:
    record = load(path)
    assert record.chance == "seed"  # written without the key, as before the change
    match = Match.from_record(GAME, record)
    want = json.loads(path.with_name(path.name.replace(".record", ".position")).read_text())
    got = GAME.to_json(match.state)
    # the undealt cards are a multiset now, not an order: compared as one
    assert Counter(got.pop("out_of_play")) == Counter(want.pop("out_of_play"))
    assert got == want
    players = [t for t in match.texts if not t.startswith(("deal ", "lot "))]
    assert players == record.actions
    # saved again, it states its deal, and replays without the legacy facet
    again = Match.from_record(GAME, match.record())
    assert GAME.to_json(again.state) == GAME.to_json(match.state)


OLD_GOLDEN = sorted(GOLDEN.glob("quartino-[0-9].json"))


@pytest.mark.parametrize("path", OLD_GOLDEN, ids=[p.name for p in OLD_GOLDEN])
def test_a_golden_game_made_before_the_change_replays_unchanged(path: Path) -> None:
    assert "chance" not in json.loads(path.read_text())
    assert replay_golden(path) == []


def test_golden_games_of_both_kinds_are_there() -> None:
    names = sorted(p.name for p in GOLDEN.glob("quartino-*.json"))
    assert names == sorted(
        [f"quartino-{n}.json" for n in range(1, 5)]
        + [f"quartino-chance-{n}.json" for n in range(1, 5)]
    )
    for n in range(1, 5):
        assert json.loads((GOLDEN / f"quartino-chance-{n}.json").read_text())["chance"] == "drawn"

"""Quartino's AI levels 1-5 and named agents: legal, described, reproducible, view-only.

Cheap checks only; the ladder itself is measured with ``python -m bench.ladder quartino``.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from tabletop.agents.levels import agent_levels
from tabletop.agents.seat import Seat, make_seat
from tabletop_quartino.agents import LEVELS
from tabletop_quartino.agents.evaluation import (
    VALUE,
    evaluate,
    expected_progress,
    missing,
    progress,
    tops_of,
)
from tabletop_quartino.agents.search import moves, placements, scores
from tabletop_quartino.game import QuartinoGame
from tabletop_quartino.legacy import dealt_as_before
from tabletop_quartino.rules import CLAIM, END, PLACE, QuartinoOptions, State, claim_fields
from tests.test_quartino import load, position

GAME = QuartinoGame()
OPTIONS = QuartinoOptions()


def _played(players: int, seed: int, actions: int) -> State:
    """A position reached by ``basic`` agents after ``actions`` actions."""
    seat = make_seat(GAME, "basic")
    s = dealt_as_before(players, OPTIONS, seed)
    for i in range(actions):
        if not GAME.legal(s):
            break
        p = s.to_act
        s = GAME.apply(s, seat.choose(GAME, s, p, players, OPTIONS, random.Random(i)))
    return s


def _positions() -> list[tuple[State, int]]:
    n81 = position("c:P r5:Y r6:B r7:G", {1: ["P|YBG", "B|YGP"], 2: ["G|YBP"]}, owed=0)
    return [
        (dealt_as_before(2, OPTIONS, 1), 2),
        (_played(2, 3, 20), 2),
        (_played(4, 4, 30), 4),
        (load(n81), 2),  # N8.1: a claim phase with a true claim
    ]


def _choose(seat: Seat, s: State, players: int, seed: int = 7) -> Any:
    return seat.choose(GAME, s, s.to_act, players, OPTIONS, random.Random(seed))


@pytest.mark.parametrize("name", sorted(agent_levels(GAME)))
def test_every_level_and_agent_returns_a_legal_action(name: str) -> None:
    seat = make_seat(GAME, name)
    for s, players in _positions():
        assert GAME.legal(s)
        assert _choose(seat, s, players) in GAME.legal(s)


def test_levels_1_to_5_are_described_and_2_to_5_are_quartinos_own() -> None:
    levels = agent_levels(GAME)
    for name in "12345":
        assert levels[name].name == name and len(levels[name].description) > 10
    for name in "2345":
        assert levels[name] is LEVELS[name]
    for name in "345":  # budgets in playouts (reproducible), seconds only as a cap
        budget = levels[name].budget
        assert budget.iterations and budget.seconds == 2.0
    assert [LEVELS[n].budget.iterations for n in "345"] == sorted(
        LEVELS[n].budget.iterations or 0 for n in "345"
    )


@pytest.mark.parametrize("name", ["2", "3", "4", "5"])
def test_same_seed_same_move(name: str) -> None:
    seat = make_seat(GAME, name)
    for s, players in _positions()[1:3]:
        assert _choose(seat, s, players, 11) == _choose(seat, s, players, 11)


@pytest.mark.parametrize("name", ["3", "4", "5"])
def test_search_levels_take_a_true_claim_n4_3(name: str) -> None:
    s = load(position("c:P r5:Y r6:B r7:G", {1: ["P|YBG", "B|YGP"], 2: ["G|YBP"]}, owed=0))
    chosen = _choose(make_seat(GAME, name), s, 2)
    assert chosen == GAME.parse(s, "claim P|YBG 5")


@pytest.mark.parametrize("name", ["3", "4", "5"])
def test_search_levels_place_the_missing_pawn_n4_2(name: str) -> None:
    # P|YBG needs only G on r7; with one placement owed, that completes it.
    s = load(position("c:P r5:Y r6:B", {1: ["P|YBG"], 2: ["G|YBP"]}, owed=1))
    assert _choose(make_seat(GAME, name), s, 2) == GAME.parse(s, "place G r7")


def test_search_reads_only_the_view_n7() -> None:
    """Two positions differing only in player 2's hidden stand: player 1 acts the same."""
    one = load(position("c:P r5:Y r1:G", {1: ["P|YBG", "Y|BGP"], 2: ["G|YBP"]}, owed=2))
    two = load(position("c:P r5:Y r1:G", {1: ["P|YBG", "Y|BGP"], 2: ["B|PGY"]}, owed=2))
    assert GAME.view(one, 1) == GAME.view(two, 1)
    for name in ("3", "5"):
        seat = make_seat(GAME, name)
        assert _choose(seat, one, 2, 5) == _choose(seat, two, 2, 5)


def test_moves_never_offer_a_false_claim_n4_4() -> None:
    claimable = load(position("c:P r5:Y r6:B r7:G", {1: ["P|YBG", "B|YGP"], 2: []}, owed=0))
    assert moves(claimable) == (GAME.parse(claimable, "claim P|YBG 5"),)
    nothing = load(position("c:P r5:Y", {1: ["P|YBG"], 2: []}, owed=0))
    assert [a.kind for a in moves(nothing)] == [END]
    for s, _ in _positions():
        for a in moves(s):
            assert a in GAME.legal(s)
            if a.kind == CLAIM:
                assert claim_fields(s.board, a.a, a.b, s.cfg.mirror) is not None


def test_placements_aim_at_the_movers_cards_or_fall_back_to_all() -> None:
    s = load(position("c:P r5:Y r6:B", {1: ["P|YBG"], 2: []}, owed=1))
    near = placements(s, slack=0)  # the best reading needs only G on r7
    assert near == (GAME.parse(s, "place G r7"),)
    wider = placements(s, slack=2)  # readings missing up to 3 pawns add their pawns
    assert near[0] in wider and len(wider) > 1 and all(a.kind == PLACE for a in wider)
    assert set(wider) <= set(GAME.legal(s))
    # No green left in the supply: nothing P|YBG needs can be placed; all placements remain.
    greens = "r0:GGGG r2:GGG"
    starved = load(position(f"c:P r5:Y r6:B {greens}", {1: ["P|YBG"], 2: []}, owed=1))
    assert starved.supply[2] == 0
    assert placements(starved, slack=0) == GAME.legal(starved)


def test_evaluation_counts_missing_pawns_and_owed_placements() -> None:
    s = load(position("c:P r5:Y r6:B", {1: ["P|YBG"], 2: ["G|YBP"]}, owed=1))
    tops = tops_of(s)
    assert missing(tops, 18, False) == 1  # P|YBG is card 18 in cards.json
    assert progress(s, 1) == pytest.approx(VALUE[0] * 0.97)  # one owed pawn finishes it
    after = GAME.apply(s, GAME.parse(s, "place G r7"))
    assert progress(after, 1) == pytest.approx(VALUE[0])
    assert 0.5 < evaluate(s, 1) < evaluate(after, 1) < 1
    # Another player's stand counts as the mean of the unseen cards, whatever it holds.
    other = load(position("c:P r5:Y r6:B", {1: ["P|YBG"], 2: ["B|PGY"]}, owed=1))
    unseen = [c for c in range(24) if c != 18]
    assert expected_progress(s, 2, unseen, tops) == expected_progress(other, 2, unseen, tops)


def test_softmax_scores_are_shares_that_follow_progress() -> None:
    """Level 5's leaf score: shares of a softmax over progress (sum 1, more progress more
    share, every rival counting); the lead form is clipped; a finished game scores its
    result in both."""
    s = load(
        position("c:P r5:Y r6:B", {1: ["P|YBG"], 2: ["G|YBP"], 3: ["Y|BGP"]}, owed=1, players=3), 3
    )
    unseen = [c for c in range(24) if c != 18]
    shares = scores(s, 1, unseen, 0.25, sharpness=2.0)
    assert sum(shares[1:]) == pytest.approx(1.0)
    far = load(
        position("c:P r5:Y r6:B", {1: ["B|PGY"], 2: ["G|YBP"], 3: ["Y|BGP"]}, owed=1, players=3), 3
    )
    far_shares = scores(far, 1, unseen, 0.25, sharpness=2.0)
    assert far_shares[1] < shares[1] and far_shares[2] > shares[2]  # same others, less own
    lead = scores(s, 1, unseen, 10.0)
    assert all(0.0 <= r <= 1.0 for r in lead[1:]) and 1.0 in lead[1:]
    after = GAME.apply(s, GAME.parse(s, "place G r7"))
    over = GAME.apply(after, GAME.parse(after, "claim P|YBG 5"))
    assert over.to_act == 0 and over.winner == 1
    assert scores(over, 1, unseen, 0.25, sharpness=2.0)[1:] == [1.0, 0.0, 0.0]

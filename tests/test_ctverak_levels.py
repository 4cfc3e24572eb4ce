"""Čtverák's AI levels 1-5 and named agents: legal, reproducible, described, and the habits
that set the levels apart (the arena ladder itself is ``python -m bench.ladder ctverak``)."""

from __future__ import annotations

import random

import pytest

from tabletop.agents.base import Budget, Turn
from tabletop.agents.levels import agent_levels
from tabletop.agents.seat import make_seat
from tabletop_ctverak.agents import (
    BasicAgent,
    ExpertAgent,
    NoviceAgent,
    basic_policy,
    evaluation,
    expert_policy,
)
from tabletop_ctverak.agents.levels import LEVELS, ismcts
from tabletop_ctverak.rules import OVER, REFILL, CtverakOptions, State
from tests.test_ctverak import GAME, new, position, settle

OPTIONS = CtverakOptions()
NAMES = sorted(agent_levels(GAME))


def positions(players: int, seed: int) -> list[State]:
    """A few positions of a seeded basic-agent game: the opening, refills, meld steps
    with and without a discard owed."""
    state = new(players, OPTIONS, seed)
    found = [state]
    steps = 0
    while state.step != OVER and len(found) < 6:
        state = settle(GAME.apply(state, basic_policy(state)))
        steps += 1
        if steps % 17 == 0:
            found.append(state)
    return [s for s in found if s.step != OVER]


def turn(state: State, rng: random.Random, budget: Budget | None = None) -> Turn:
    player = state.player
    return Turn(
        GAME,
        player,
        state.cfg.players,
        OPTIONS,
        GAME.view(state, player),
        list(GAME.legal(state)),
        rng,
        budget or Budget(),
    )


def test_the_game_replaces_levels_3_to_5_and_keeps_the_named_agents() -> None:
    levels = agent_levels(GAME)
    assert {"1", "2", "3", "4", "5", "random", "greedy", "ismcts", "basic"} <= set(levels)
    assert levels["3"].make is NoviceAgent
    assert levels["4"].make is BasicAgent
    assert levels["5"].make is ExpertAgent
    assert levels["ismcts"].make is ismcts  # a real search, not level 4 under that name
    for name in ("1", "2", "3", "4", "5"):
        assert len(levels[name].description) > 10, name
    for name, level in LEVELS.items():
        assert level.name == name and level.description.startswith(("novice", "basic", "expert"))


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("players", [2, 4])
def test_every_level_and_agent_plays_a_legal_action(name: str, players: int) -> None:
    seat = make_seat(GAME, name)
    budget = Budget(iterations=30) if name == "ismcts" else seat.budget
    kinds = set()
    for state in positions(players, seed=11 + players):
        legal = GAME.legal(state)
        kinds.add((state.step, len(legal) > 1))
        action = seat.agent.act(turn(state, random.Random(5), budget))
        assert action in legal, (name, action)
    assert (REFILL, True) in kinds or players == 4  # a pile-or-stock choice was offered


@pytest.mark.parametrize("name", NAMES)
def test_same_seed_same_move(name: str) -> None:
    seat = make_seat(GAME, name)
    budget = Budget(iterations=30) if name == "ismcts" else seat.budget
    for state in positions(3, seed=29):
        first = seat.agent.act(turn(state, random.Random(99), budget))
        again = make_seat(GAME, name).agent.act(turn(state, random.Random(99), budget))
        assert first == again, name


def test_the_policies_on_states_play_as_the_agents_on_views() -> None:
    """basic_policy / expert_policy (used on states) read only what the view shows."""
    for seed in range(4):
        state = new(3, OPTIONS, seed)
        while state.step != OVER:
            t = turn(state, random.Random(0))
            assert BasicAgent().act(t) == basic_policy(state)
            expert = expert_policy(state)
            assert ExpertAgent().act(t) == expert
            state = settle(GAME.apply(state, expert))


def test_novice_takes_no_top_for_a_pair_but_one_for_its_meld() -> None:
    # K4.1: pile 2's top 9D pairs with 9S in hand: basic takes it, the novice the stock
    state = position({1: "9S 3H", 2: "2C 5D 8H JC"}, piles=("", "4C 9D", "", ""))
    assert state.step == REFILL
    assert BasicAgent().act(turn(state, random.Random(1))) == GAME.parse(state, "draw 2")
    assert NoviceAgent().act(turn(state, random.Random(1))) == GAME.parse(state, "draw stock")
    # pile 3's top 3D fits its open 3 meld: both take it
    state = position(
        {1: "9S", 2: "2C 5D 8H JC"}, melds={1: ["3S 3C"]}, piles=("", "4C 9D", "3D", "")
    )
    assert NoviceAgent().act(turn(state, random.Random(1))) == GAME.parse(state, "draw 3")
    assert BasicAgent().act(turn(state, random.Random(1))) == GAME.parse(state, "draw 3")


def test_expert_lays_a_joker_with_a_lone_card_where_basic_discards() -> None:
    # K4.2/K4.3: laying 7C X means no discard and two draws next turn
    state = position({1: "7C 9H QH X", 2: "2C 5D 8H JC"})
    basic = BasicAgent().act(turn(state, random.Random(1)))
    assert GAME.format(state, basic).startswith("discard")
    expert = ExpertAgent().act(turn(state, random.Random(1)))
    assert GAME.format(state, expert) == "meld 7C X"


def test_expert_discards_the_rank_with_fewest_unseen_copies() -> None:
    # five queens lie in the piles, so QH is the least likely card to pair; basic throws
    # the first of its equally unwanted cards (3C), both on the first empty pile
    state = position({1: "3C 6D 9H QH", 2: "2C 5D 8H JC"}, piles=("QS QD QC", "QS QD", "", ""))
    assert GAME.format(state, BasicAgent().act(turn(state, random.Random(1)))) == "discard 3C 3"
    expert = ExpertAgent().act(turn(state, random.Random(1)))
    assert GAME.format(state, expert) == "discard QH 3"


def test_evaluate_ranks_progress_and_sums_to_one_for_two_players() -> None:
    ahead = position(
        {1: "3C 6D 9H X", 2: "2C 5D 8H JC"},
        melds={1: ["KS KD KC KH", "7S 7D 7C"], 2: ["4S 4D"]},
    )
    assert evaluation.evaluate(ahead, 1) > 0.7 > 0.3 > evaluation.evaluate(ahead, 2)
    for state in positions(2, seed=3):
        value = evaluation.evaluate(state, 1)
        assert 0.0 < value < 1.0
        assert value + evaluation.evaluate(state, 2) == pytest.approx(1.0)
    # a finished game scores its result: K5.1, the fourth čtverka wins at once
    three = ["KS KD KC KH", "QS QD QC QH", "JS JD JC JH", "7S 7D 7C"]
    near = position({1: "7H 3C 4D 5S", 2: "2C 5D 8H 9C"}, melds={1: three})
    won = GAME.apply(near, GAME.parse(near, "add 4 7H"))
    assert won.step == OVER and won.winners == (1,)
    assert evaluation.evaluate(won, 1) == 1.0 and evaluation.evaluate(won, 2) == 0.0
    assert evaluation.evaluate(near, 1) > evaluation.evaluate(ahead, 1)


def test_expert_plans_its_refill_over_the_cards_below_the_pile_tops() -> None:
    # K4.1/K8: pile 1 shows 9S under 9H; neither pairs the hand, so basic draws the stock,
    # but the expert's two draws take both nines: a pair to lay (K4.2)
    state = position({1: "3C 6D", 2: "2C 5D 8H JC"}, piles=("9S 9H", "", "", ""))
    assert state.step == REFILL
    assert BasicAgent().act(turn(state, random.Random(1))) == GAME.parse(state, "draw stock")
    first = ExpertAgent().act(turn(state, random.Random(1)))
    assert GAME.format(state, first) == "draw 1"
    state = GAME.apply(state, first)
    assert sorted(GAME.view(state, 1)["hand"]) == ["3C", "6D", "9H"]
    assert GAME.format(state, ExpertAgent().act(turn(state, random.Random(1)))) == "draw 1"
    # with one draw left a lone nine is worth less than a stock card: the expert takes the stock
    state = position({1: "3C 6D KH", 2: "2C 5D 8H JC"}, piles=("9S 9H", "", "", ""))
    assert GAME.format(state, ExpertAgent().act(turn(state, random.Random(1)))) == "draw stock"
    # a top that pairs the hand still beats the stock
    state = position({1: "3C 6D 9D", 2: "2C 5D 8H JC"}, piles=("9S 9H", "", "", ""))
    assert GAME.format(state, ExpertAgent().act(turn(state, random.Random(1)))) == "draw 1"


def test_the_refill_plan_fills_an_open_meld_only_up_to_four_k3_2() -> None:
    # An open meld of three nines takes one more (K3.2); a second nine would be a lone
    # card (K3.3), worth less than a stock card, so the expert leaves the pile's nine
    state = position(
        {1: "3C 6D 9H", 2: "2C 5D 8H JC"}, melds={1: ["9C 9D 9S"]}, piles=("9C", "", "", "")
    )
    assert state.step == REFILL
    assert GAME.format(state, ExpertAgent().act(turn(state, random.Random(1)))) == "draw stock"
    # without the nine in hand, the pile's nine completes the čtverka: the expert takes it
    state = position(
        {1: "3C 6D QH", 2: "2C 5D 8H JC"}, melds={1: ["9C 9D 9S"]}, piles=("9C", "", "", "")
    )
    assert GAME.format(state, ExpertAgent().act(turn(state, random.Random(1)))) == "draw 1"

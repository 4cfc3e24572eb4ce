"""Pig's own ladder: the perfect table is the value iteration's, and each level plays as
its description says."""

from __future__ import annotations

import random
import zlib

import pytest
from tabletop_pig import optimal
from tabletop_pig.agents import LEVELS, HoldAt, PerfectAgent
from tabletop_pig.game import PigGame
from tabletop_pig.rules import HOLD, ROLL, PigOptions, State

from tabletop.agents.base import Turn

GAME = PigGame()


def turn(state: State, players: int = 2) -> Turn:
    options = PigOptions(winscore=state.winscore, diceoutcomes=state.faces)
    view = GAME.view(state, state.turn)
    return Turn(GAME, state.turn, players, options, view, list(GAME.legal(state)), random.Random(0))


def position(mine: int, other: int, total: int, players: int = 2, **options: int) -> State:
    start = GAME.new(players, PigOptions(**options), 0)
    scores = (mine, other, *([0] * (players - 2)))
    return start._replace(scores=scores, total=total)


def test_the_shipped_table_is_the_value_iterations() -> None:
    """Solved again from nothing (numpy, about 20 s): bit for bit the shipped table."""
    pytest.importorskip("numpy")
    shipped = zlib.decompress(optimal.table_path(100, 6).read_bytes())
    assert optimal.solve(100, 6) == shipped


def pure_python_rolls(goal: int, faces: int) -> set[tuple[int, int, int]]:
    """Where rolling is better, by a value iteration written apart from the shipped one."""
    win: dict[tuple[int, int, int], float] = {}

    def value(mine: int, other: int, total: int) -> float:
        return 1.0 if mine + total >= goal else win.get((mine, other, total), 0.0)

    live = [(i, j, k) for i in range(goal) for j in range(goal) for k in range(goal - i)]
    rolls: set[tuple[int, int, int]] = set()
    moved = 1.0
    while moved > 1e-9:
        moved, rolls = 0.0, set()
        for i, j, k in live:
            hold = 1.0 if i + k >= goal else 1 - value(j, i + k, 0)
            roll = (1 - value(j, i, 0)) / faces
            roll += sum(value(i, j, k + f) for f in range(2, faces + 1)) / faces
            best = max(roll, hold)
            moved = max(moved, abs(best - win.get((i, j, k), 0.0)))
            win[(i, j, k)] = best
            if roll > hold:
                rolls.add((i, j, k))
    return rolls


def test_a_small_race_agrees_with_a_value_iteration_written_apart() -> None:
    """A race to 25 with a three-sided die (a 1 loses the turn a third of the time): the
    numpy solver's bits are where a plain Python value iteration finds rolling better (in
    a short race with a six-sided die rolling is always better)."""
    pytest.importorskip("numpy")
    goal = 25
    bits = optimal.solve(goal, 3)
    found = {
        (i, j, k)
        for i in range(goal)
        for j in range(goal)
        for k in range(goal - i)
        if bits[((i * goal + j) * goal + k) >> 3] >> (7 - (((i * goal + j) * goal + k) & 7)) & 1
    }
    expected = pure_python_rolls(goal, 3)
    assert found == expected
    assert 0 < len(found) < goal * sum(goal - i for i in range(goal))


def test_perfect_play_rolls_when_behind_at_the_end_and_holds_on_a_winning_total() -> None:
    """Where it differs from hold at 20: the opponent one turn from winning (99 points)
    makes it roll on, whatever its total; a total that reaches 100 is banked (P2.4)."""
    agent = PerfectAgent()
    assert agent.act(turn(position(50, 99, 30))) == ROLL
    assert agent.act(turn(position(80, 0, 20))) == HOLD  # 100: holding wins
    assert agent.act(turn(position(0, 0, 0))) == ROLL
    for total in range(0, 60, 5):  # it follows the table
        expected = optimal.rolls(100, 6, 30, 40, total)
        assert agent.act(turn(position(30, 40, total))) == (ROLL if expected else HOLD)


def test_perfect_play_is_greedy_where_no_table_is_shipped() -> None:
    """Three players, or a race to 50: the greedy level's choice (hold at 20)."""
    agent = PerfectAgent()
    assert not optimal.has_table(50, 6)
    for state in (position(10, 20, 5, players=3), position(10, 20, 5, winscore=50)):
        assert agent.act(turn(state, len(state.scores))) == ROLL
    assert agent.act(turn(position(10, 20, 30, players=3), 3)) == HOLD


@pytest.mark.parametrize("target", [5, 10])
def test_hold_at_rolls_below_its_target_and_holds_at_it(target: int) -> None:
    agent = HoldAt(target)
    assert agent.act(turn(position(0, 0, target - 1))) == ROLL
    assert agent.act(turn(position(0, 0, target))) == HOLD
    assert agent.act(turn(position(98, 0, 2))) == HOLD  # forced: 100 reached (P2.4)


def test_the_levels_are_the_ladder_described() -> None:
    assert sorted(LEVELS) == ["2", "3", "4", "5"]
    assert isinstance(LEVELS["2"].make(), HoldAt) and isinstance(LEVELS["5"].make(), PerfectAgent)

"""The computer players Connect Four gets from tabletop: levels 1-5 and the named agents,
with its ``evaluate`` hook and its own levels 3-5 (search scored by the evaluation)."""

from __future__ import annotations

import random

import pytest
from tabletop.agents.levels import agent_levels
from tabletop.agents.seat import Seat, make_seat
from tabletop.testing import Match

from tabletop_connect4.game import ConnectFourGame
from tabletop_connect4.rules import ConnectFourOptions

OPTIONS = ConnectFourOptions()


def choose(game: ConnectFourGame, seat: Seat, match: Match, seed: int = 0) -> str:
    player = match.player()
    assert player is not None
    action = seat.choose(game, match.state, player, 2, OPTIONS, random.Random(seed))
    return game.format(match.state, action)


def after(game: ConnectFourGame, *texts: str) -> Match:
    match = Match(game, 2, OPTIONS, 0)
    match.play_all(texts)
    return match


def test_the_ladder_has_the_generic_and_the_game_levels(game: ConnectFourGame) -> None:
    levels = agent_levels(game)
    assert set(levels) == {"1", "2", "3", "4", "5", "random", "greedy", "mcts"}
    assert levels["3"].description.startswith("MCTS with the open-line evaluation")
    assert levels["mcts"].budget.iterations == 1000


@pytest.mark.parametrize("level", ["2", "3", "4"])
def test_every_level_wins_when_it_can_and_blocks(game: ConnectFourGame, level: str) -> None:
    seat = make_seat(game, level)
    win = after(game, "1", "1", "2", "2", "3", "3")  # X to act: drop 4 wins
    assert choose(game, seat, win) == "drop 4"
    block = after(game, "1", "1", "2", "2", "3")  # O to act must block at 4
    assert choose(game, seat, block) == "drop 4"
    vertical = after(game, "1", "2", "1", "2", "1")  # O must block the column
    assert choose(game, seat, vertical) == "drop 1"


def tournament(game: ConnectFourGame, one: str, two: str, games: int) -> dict[str, int]:
    """Wins of each level over ``games`` games, seats swapped every game."""
    wins = {one: 0, two: 0, "draw": 0}
    for index in range(games):
        names = (one, two) if index % 2 == 0 else (two, one)
        seats = {n + 1: make_seat(game, name) for n, name in enumerate(names)}
        match = Match(game, 2, OPTIONS, index)
        while (player := match.player()) is not None:
            rng = random.Random(f"{index}:{len(match.actions)}")
            match.push(seats[player].choose(game, match.state, player, 2, OPTIONS, rng))
        outcome = match.outcome()
        assert outcome is not None
        wins[names[outcome.winners[0] - 1] if outcome.winners else "draw"] += 1
    return wins


def test_greedy_beats_random(game: ConnectFourGame) -> None:
    wins = tournament(game, "2", "1", 20)
    assert wins["2"] >= 17, wins


def test_search_level_3_beats_greedy(game: ConnectFourGame) -> None:
    wins = tournament(game, "3", "2", 8)
    assert wins["3"] > 2 * wins["2"], wins

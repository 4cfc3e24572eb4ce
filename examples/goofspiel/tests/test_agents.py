"""Goofspiel's own level budgets: the generic search with 50, 200 and 1000 playouts."""

from __future__ import annotations

import random

from tabletop_goofspiel.agents import LEVELS
from tabletop_goofspiel.game import GoofspielGame
from tabletop_goofspiel.rules import GoofspielOptions

from tabletop.agents.base import Turn
from tabletop.agents.search import SearchAgent


def test_levels_three_to_five_are_the_search_with_growing_budgets() -> None:
    assert [LEVELS[name].budget.iterations for name in ("3", "4", "5")] == [50, 200, 1000]
    assert all(isinstance(LEVELS[name].make(), SearchAgent) for name in LEVELS)


def test_a_level_bids_one_of_its_own_cards_in_a_sealed_round() -> None:
    game = GoofspielGame()
    options = GoofspielOptions(num_cards=5, points_order="descending")
    state = game.new(2, options, 0)
    while not isinstance(game.to_act(state), frozenset):
        state = game.apply(state, game.legal(state)[0])  # the prize's chance step
    assert game.to_act(state) == frozenset({1, 2})
    mine = list(game.choices(state, 1))
    level = LEVELS["3"]
    turn = Turn(game, 1, 2, options, game.view(state, 1), mine, random.Random(0), level.budget)
    assert level.make().act(turn) in mine

"""Issue 41, item 3: the game's own judgement as an OpenSpiel evaluator
(:class:`tabletop.bridges.evaluator.GameEvaluator`) for MCTS and ISMCTS."""

from __future__ import annotations

import random
from typing import Any

import pytest

np = pytest.importorskip("numpy")
pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

from tabletop.agents.facet import players_of  # noqa: E402
from tabletop.bridges import openspiel  # noqa: E402
from tabletop.bridges.evaluator import GameEvaluator  # noqa: E402

openspiel.register()


def _walk(game: Any, seed: int, moves: int) -> list[Any]:
    rng = random.Random(seed)
    state = game.new_initial_state()
    seen: list[Any] = []
    while not state.is_terminal() and len(seen) < moves:
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _p in state.chance_outcomes()]))
            continue
        seen.append(state.clone())
        state.apply_action(rng.choice(state.legal_actions()))
    return seen


@pytest.mark.parametrize(
    "name",
    [
        "tabletop_quartino(players=3,max_turns=12)",
        "tabletop_ctverak(players=2,deck=half,stall_limit=2)",
        "tabletop_connect4",
    ],
)
def test_the_value_is_the_games_own_evaluation_on_the_win_scale(name: str) -> None:
    game = pyspiel.load_game(name)
    evaluator = GameEvaluator(game)
    rules = game.config.game
    for state in _walk(game, 1, 25):
        values = evaluator.evaluate(state)
        expected = [
            2 * float(players_of(rules).evaluate(state.tabletop, seat) or 0.0) - 1
            for seat in range(1, game.num_players() + 1)
        ]
        assert values.tolist() == pytest.approx(expected)
        assert all(-1.0 <= v <= 1.0 for v in values)
        prior = evaluator.prior(state)
        assert sorted(a for a, _ in prior) == state.legal_actions()
        assert sum(p for _, p in prior) == pytest.approx(1.0)


def test_a_chance_node_and_an_end_are_valued_too() -> None:
    game = pyspiel.load_game("tabletop_ctverak(players=2,deck=half,stall_limit=2)")
    evaluator = GameEvaluator(game, seed=3)
    start = game.new_initial_state()
    assert start.is_chance_node()  # issue 36: the deal is the game's own chance steps
    assert len(evaluator.evaluate(start)) == 2
    assert start.history() == []  # evaluated on a copy
    assert evaluator.prior(start) == start.chance_outcomes()  # the exact probabilities
    assert sum(p for _, p in evaluator.prior(start)) == pytest.approx(1.0)
    end = _walk(game, 2, 10_000)[-1]
    rng = random.Random(0)
    while not end.is_terminal():
        end.apply_action(rng.choice(end.legal_actions()))
    assert evaluator.evaluate(end).tolist() == end.returns()


def _quarto_win_in_one(seed: int) -> Any:
    """A Quarto state (a placement due) where the player to act wins by placing."""
    game = pyspiel.load_game("tabletop_quarto")
    rng = random.Random(seed)
    for _ in range(200):
        state = game.new_initial_state()
        while not state.is_terminal():
            player = state.current_player()
            wins = [
                a
                for a in state.legal_actions()
                if state.child(a).is_terminal() and state.child(a).returns()[player] > 0
            ]
            if wins:
                return state
            state.apply_action(rng.choice(state.legal_actions()))
    raise AssertionError("no win in one found")


def test_without_an_evaluation_the_games_level_plays_it_out() -> None:
    """Quarto has no Game.evaluate: its level 2 (wins when it can) plays the position
    out, so a win in one is worth +1 to the player to act and -1 to the other."""
    state = _quarto_win_in_one(4)
    game = state.get_game()
    assert players_of(game.config.game).evaluate(state.tabletop, 1) is None
    evaluator = GameEvaluator(game, rollouts=3)
    player = state.current_player()
    values = evaluator.evaluate(state)
    assert values[player] == 1.0 and values[1 - player] == -1.0
    early = _walk(game, 5, 4)[-1]
    assert set(GameEvaluator(game, level="1").evaluate(early)) <= {-1.0, 0.0, 1.0}


def test_ismcts_and_mcts_play_whole_games_with_it() -> None:
    game = pyspiel.load_game("tabletop_quartino(players=2,max_turns=8)")
    rng = np.random.RandomState(1)
    bots = [
        ismcts.ISMCTSBot(game, GameEvaluator(game, seed=i), 2.0, 12, random_state=rng)
        for i in range(2)
    ]
    state = game.new_initial_state()
    chooser = random.Random(1)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(chooser.choice([a for a, _p in state.chance_outcomes()]))
        else:
            action = bots[state.current_player()].step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
    quarto = pyspiel.load_game("tabletop_quarto")
    searcher = mcts.MCTSBot(quarto, 2.0, 20, GameEvaluator(quarto), random_state=rng)
    win = _quarto_win_in_one(6)
    chosen = searcher.step(win)
    assert win.child(chosen).returns()[win.current_player()] == 1.0  # it takes the win

"""Pig against OpenSpiel's native ``pig``: the same player to act, legal actions, chance
outcomes with their probabilities, and returns, over many seeded random games."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from tabletop_pig.game import PigGame
from tabletop_pig.rules import CHANCE_BASE, PigOptions, State

from tabletop.game import CHANCE

pyspiel = pytest.importorskip("pyspiel")

CONFIGS = [
    (2, {"winscore": 20, "horizon": 1000, "diceoutcomes": 6}),
    (3, {"winscore": 15, "horizon": 60, "diceoutcomes": 4}),
    (5, {"winscore": 10, "horizon": 30, "diceoutcomes": 2}),
]


def returns(game: PigGame, state: State, players: int) -> list[float]:
    """OpenSpiel's returns from our outcome: the winner 1, the others -1/(n-1); none: 0."""
    outcome = game.outcome(state)
    assert outcome is not None
    if not outcome.winners:
        return [0.0] * players
    return [1.0 if p in outcome.winners else -1.0 / (players - 1) for p in range(1, players + 1)]


@pytest.mark.parametrize(("players", "params"), CONFIGS)
def test_pig_matches_openspiel(players: int, params: dict[str, int]) -> None:
    game = PigGame()
    native_game = pyspiel.load_game("pig", {"players": players, **params})
    compared = 0
    for seed in range(150):
        rng = random.Random(seed)
        state = game.new(players, PigOptions(**params), seed)
        native = native_game.new_initial_state()
        while True:
            actor = game.to_act(state)
            if native.is_terminal():
                assert actor is None
                assert native.returns() == pytest.approx(returns(game, state, players))
                break
            if native.is_chance_node():
                assert actor == CHANCE
                ours = [(a - CHANCE_BASE - 1, p) for a, p in game.chance_outcomes(state)]
                assert [a for a, _p in ours] == [a for a, _p in native.chance_outcomes()]
                assert sum((p for _a, p in ours), Fraction(0)) == 1
                assert [float(p) for _a, p in ours] == pytest.approx(
                    [p for _a, p in native.chance_outcomes()]
                )
                face = rng.choice(ours)[0]
                state = game.apply(state, CHANCE_BASE + face + 1)
                native.apply_action(face)
            else:
                assert actor == native.current_player() + 1
                assert list(game.legal(state)) == native.legal_actions()  # roll 0, hold 1
                action = rng.choice(native.legal_actions())
                state = game.apply(state, action)
                native.apply_action(action)
            compared += 1
    assert compared > 1000

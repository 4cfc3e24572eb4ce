"""The coach over every installed game and a sample of its variants (issue 28): on seeded
random positions it judges exactly the legal actions, with chances from 0 to 1 that agree
with their exact values, a hint naming every exact action, and a review verdict for each."""

from __future__ import annotations

import random
from typing import Any

import pytest

from tabletop.agents.base import Budget
from tabletop.coach.base import DRAW, LOSS, WIN, Coach
from tabletop.coach.choose import coach_for, turn_for
from tabletop.coach.hints import hint_text
from tabletop.coach.review import VERDICTS, judge
from tabletop.core.registry import registry
from tabletop.game import Game
from tabletop.kit.configurations import configurations
from tabletop_quarto.coach import QuartoCoach
from tests.steps import chooser, own_actions, past_chance, random_step

BUDGET = Budget(iterations=4)  # counted: every coach reads it as its playouts or deals
CHANCE = {WIN: 1.0, LOSS: 0.0}


def coach_of(game: Game[Any, Any]) -> Coach:
    """Each game's strongest coach; Quarto's with a small solver budget (it has no clock
    here), so that positions early in the game fall back to the search too."""
    return QuartoCoach(nodes=5000) if game.info.id == "quarto" else coach_for(game)


@pytest.mark.parametrize("game_id", sorted(registry().ids()))
def test_the_coach_judges_exactly_the_legal_actions(game_id: str) -> None:
    game = registry().get(game_id)
    coach = coach_of(game)
    rng = random.Random(0)
    checked = 0
    for config in configurations(game, max_configs=4):
        state = game.new(config.players, config.options, rng.randrange(1000))
        state = past_chance(game, state, rng)
        every = rng.randrange(5, 12)  # three positions a game, early to late
        for number in range(3 * every + 1):
            player = chooser(game, state)
            if player is None:
                break
            if number % every == every - 1:
                turn = turn_for(game, state, config.players, config.options, BUDGET, player)
                assessment = coach.assess(turn)
                judged = [j.action for j in assessment.judgements]
                mine = own_actions(game, state, player)
                assert sorted(map(repr, judged)) == sorted(map(repr, mine))
                assert assessment.player == player
                text = hint_text(assessment)
                for j in assessment.judgements:
                    assert 0.0 <= j.chance <= 1.0 and j.text == game.format(state, j.action)
                    if j.exact:
                        assert j.value in (WIN, DRAW, LOSS, None)
                        assert CHANCE.get(j.value or "", j.chance) == j.chance
                        assert f"  {j.text}: " in text or len(judged) == 1
                    entry = judge(number + 1, assessment, j.action, len(judged) == 1)
                    assert entry.verdict in VERDICTS
                assert judge(1, assessment, assessment.best.action, False).verdict == "best"
                checked += 1
            state = random_step(game, state, rng)
    assert checked >= 4  # some configurations are short (3-card Goofspiel)

"""One shape for every plugin (issue 15): a reader of one game's package knows the others.

Each shipped game (and the Connect Four example, when installed) names its class
``<Name>Game`` in ``tabletop_<id>.game``, keeps its options model in
``tabletop_<id>.options``, shows its package README as the rules, ends every refusal
with the rule ID in parentheses and gives every outcome a kind.
"""

from __future__ import annotations

import importlib
import importlib.resources
import random
import re
from typing import Any

import pytest
from pydantic import BaseModel

from tabletop.core.registry import registry
from tabletop.game import Game, options_as

GAMES = [gid for gid in ("quarto", "quartino", "ctverak", "connect4") if gid in registry().ids()]
RULE_AT_END = re.compile(r"\([A-Z]\d+(\.\d+)*(, [^()]+)?\)$")  # "… (K4.1)", "… (K3.1, option x)"
KINDS = {"line", "draw", "completed", "ctverak", "blocked", "turn-limit"}


def game_of(game_id: str) -> Game[Any, Any]:
    return registry().get(game_id)


@pytest.mark.parametrize("game_id", GAMES)
def test_the_class_and_the_options_live_where_every_plugin_keeps_them(game_id: str) -> None:
    game = game_of(game_id)
    package = f"tabletop_{game_id}"
    assert type(game).__module__ == f"{package}.game"
    assert type(game).__name__.endswith("Game")
    options = game.info.options
    assert options.__module__ == f"{package}.options"
    assert getattr(importlib.import_module(f"{package}.options"), options.__name__) is options


@pytest.mark.parametrize("game_id", GAMES)
def test_the_rules_text_is_the_package_readme(game_id: str) -> None:
    readme = importlib.resources.files(f"tabletop_{game_id}").joinpath("README.md")
    assert game_of(game_id).rules_text() == readme.read_text("utf-8")


def playthrough(game: Game[Any, Any], players: int, seed: int) -> list[Any]:
    """The states of one random game (default options), start to end."""
    rng = random.Random(seed)
    state = game.new(players, game.info.options(), seed)
    states = [state]
    for _ in range(game.info.max_actions(players, game.info.options())):
        legal = game.legal(state)
        if not legal:
            break
        state = game.apply(state, rng.choice(list(legal)))
        states.append(state)
    return states


@pytest.mark.parametrize("game_id", GAMES)
def test_refusals_end_with_the_rule_and_outcomes_have_a_kind(game_id: str) -> None:
    game = game_of(game_id)
    players = game.info.min_players
    games = [playthrough(game, players, seed) for seed in range(3)]
    for states in games:
        outcome = game.outcome(states[-1])
        assert outcome is not None and outcome.kind in KINDS, outcome
    # Well-formed actions: whatever was legal somewhere; refused wherever it is not legal.
    rng = random.Random(0)
    offered = sorted({a for states in games for s in states for a in game.legal(s)}, key=repr)
    checked = 0
    for state in rng.sample([s for states in games for s in states], 40):
        legal = set(game.legal(state))
        for action in rng.sample(offered, min(30, len(offered))):
            if action not in legal:
                message = game.refusal(state, action)
                assert RULE_AT_END.search(message), (game.format(state, action), message)
                checked += 1
    assert checked >= 10  # Connect Four has 7 actions; the others hundreds


class Other(BaseModel):
    pass


def test_options_as_narrows_the_model_and_names_anything_else() -> None:
    options = game_of("quarto").info.options()
    model = type(options)
    assert options_as(model, options) is options
    with pytest.raises(TypeError, match=f"options are Other, not {model.__name__}"):
        options_as(model, Other())

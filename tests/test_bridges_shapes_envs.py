"""Issue 36 in the environments: chance steps drawn as a match draws them, simultaneous
steps sealed, the ParallelEnv, OpenSpiel's return conventions; PettingZoo's ``api_test``,
``parallel_api_test``, ``seed_test`` and Gymnasium's ``check_env`` on every game,
the example plugins (Goofspiel, Pig) included."""

from __future__ import annotations

import importlib
import random
import sys
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import (  # noqa: E402
    api_test,
    parallel_api_test,
    parallel_seed_test,
    seed_test,
)

from tabletop.bridges.gym import SingleAgentEnv  # noqa: E402
from tabletop.bridges.pettingzoo import env, parallel_env  # noqa: E402
from tabletop.core.errors import UsageError  # noqa: E402
from tabletop.core.match import Match  # noqa: E402
from tabletop.game import Game  # noqa: E402
from tests.hidden_dice_game import HiddenDiceGame  # noqa: E402

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
for _name in ("goofspiel", "pig"):
    if str(EXAMPLES / _name) not in sys.path:
        sys.path.append(str(EXAMPLES / _name))

# the examples are plugins of their own (not in the type-checked tree): found by name
GoofspielGame = importlib.import_module("tabletop_goofspiel.game").GoofspielGame
PigGame = importlib.import_module("tabletop_pig.game").PigGame

GOOFSPIEL, PIG = GoofspielGame(), PigGame()
CONVENTION = {
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be gymnasium.spaces.box or "
    "gymnasium.spaces.discrete",
}
GAMES: list[tuple[str | Game[Any, Any], int, dict[str, Any]]] = [
    ("quarto", 2, {}),
    ("quartino", 3, {}),
    ("ctverak", 2, {"deck": "half"}),
    ("connect4", 2, {}),
    (GOOFSPIEL, 2, {"num_cards": 5}),
    (GOOFSPIEL, 3, {"num_cards": 4, "points_order": "descending"}),
    (PIG, 2, {"winscore": 15}),
    (PIG, 3, {"winscore": 10, "diceoutcomes": 3}),
    (HiddenDiceGame(), 2, {}),
]
IDS = [f"{g if isinstance(g, str) else g.info.id}-{n}-{len(o)}" for g, n, o in GAMES]


def _clean(run: Callable[[], None]) -> list[str]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        run()
    return sorted({str(w.message) for w in caught} - CONVENTION)


@pytest.mark.parametrize(("game", "players", "options"), GAMES, ids=IDS)
def test_pettingzoo_tests_pass_for_both_environments(
    game: Any, players: int, options: dict[str, Any]
) -> None:
    def aec() -> Any:
        return env(game, players=players, options=options)

    def par() -> Any:
        return parallel_env(game, players=players, options=options)

    assert _clean(lambda: api_test(aec(), num_cycles=200, verbose_progress=False)) == []
    assert _clean(lambda: parallel_api_test(par(), num_cycles=200)) == []
    assert _clean(lambda: seed_test(aec, num_cycles=60)) == []
    assert _clean(lambda: parallel_seed_test(par, num_cycles=60)) == []


@pytest.mark.parametrize(("game", "players", "options"), GAMES[:-1], ids=IDS[:-1])
def test_gymnasium_check_env_passes(game: Any, players: int, options: dict[str, Any]) -> None:
    opponents = "1" if isinstance(game, str) else "random"
    learner = SingleAgentEnv(game, opponents=opponents, players=players, options=options)
    check_env(learner, skip_render_check=True)


def _aec_game(game: Any, players: int, options: dict[str, Any], seed: int) -> tuple[Any, ...]:
    """A random game of the AEC environment: its last state and the texts of the choices
    (one per agent step)."""
    e = env(game, players=players, options=options, reward="total_points")
    e.reset(seed=seed)
    rng = random.Random(seed)
    taken: list[tuple[int, str]] = []
    final: dict[str, float] = {}
    for agent in e.agent_iter():
        observation, reward, done, cut, info = e.last()
        if done or cut:
            final[agent] = reward
            e.step(None)
            continue
        action = int(rng.choice(list(np.flatnonzero(observation["action_mask"]))))
        seat = e.possible_agents.index(agent) + 1
        taken.append((seat, info["action_texts"][action]))
        e.step(action)
    return e, taken, final


@pytest.mark.parametrize(
    ("game", "players", "options"),
    [(PIG, 2, {"winscore": 12}), (GOOFSPIEL, 3, {"num_cards": 5}), (HiddenDiceGame(), 2, {})],
)
def test_chance_in_the_environment_is_the_match_draw(
    game: Any, players: int, options: dict[str, Any]
) -> None:
    model = game.info.options(**options)
    for seed in range(6):
        e, taken, final = _aec_game(game, players, options, seed)
        match = Match(game, players, model, seed)
        for seat, text in taken:
            match.play(text, seat)
        assert match.state == e.state_  # the same chance outcomes, drawn from the seed
        points = game.scores(match.state)
        assert [final[a] for a in e.possible_agents] == [points[p] for p in range(1, players + 1)]


def test_a_simultaneous_step_is_sealed_in_the_aec_environment() -> None:
    e = env(GOOFSPIEL, players=2, options={"num_cards": 4, "points_order": "descending"})
    e.reset(seed=0)
    first = e.agent_selection
    before = e.observe("player_1")["observation"].copy()
    e.step(3)  # player_0 bids its 4
    assert e.agent_selection == "player_1" != first
    assert (e.observe("player_1")["observation"] == before).all()  # nothing shown yet
    assert e.observe("player_1")["action_mask"].tolist() == [1, 1, 1, 1]
    e.step(0)  # player_1 bids its 1: the joint action is applied
    assert e.state_.points == (4, 0) and e.agent_selection == "player_0"


def test_the_parallel_environment_takes_a_joint_action_and_pays_win_loss() -> None:
    par = parallel_env(GOOFSPIEL, players=3, options={"num_cards": 3}, reward="win_loss")
    observations, _infos = par.reset(seed=1)
    assert all(o["action_mask"].sum() == 3 for o in observations.values())
    with pytest.raises(UsageError, match="player_2 is to act"):
        par.step({"player_0": 0, "player_1": 0})
    while par.agents:
        bids = {a: int(np.flatnonzero(o["action_mask"])[0]) for a, o in observations.items()}
        bids["player_1"] = int(np.flatnonzero(observations["player_1"]["action_mask"])[-1])
        observations, rewards, terms, _cuts, _infos = par.step(bids)
    assert all(terms.values())
    # player_1 always bid highest and took every prize: the losers share -1 (OpenSpiel's)
    assert rewards == {"player_0": -0.5, "player_1": 1.0, "player_2": -0.5}


def test_an_illegal_parallel_action_ends_the_game_with_minus_one() -> None:
    options = {"num_cards": 3, "points_order": "descending"}
    par = parallel_env(GOOFSPIEL, players=2, options=options)
    par.reset(seed=0)
    par.step({"player_0": 0, "player_1": 1})  # bids 1 and 2
    _obs, rewards, terms, _cuts, infos = par.step({"player_0": 0, "player_1": 0})
    assert rewards == {"player_0": -1.0, "player_1": 0.0}  # player_0's 1 is gone (G2.3)
    assert infos["player_0"] == {"illegal": True}
    assert all(terms.values()) and par.agents == []


def test_gym_learner_at_a_simultaneous_step_and_with_dice() -> None:
    learner = SingleAgentEnv(
        GOOFSPIEL, opponents="random", players=2, options={"num_cards": 5}, reward="win_loss"
    )
    results = set()
    for seed in range(8):
        observation, _info = learner.reset(seed=seed)
        done, reward = False, 0.0
        while not done:
            assert observation["action_mask"].sum() >= 1
            action = int(np.flatnonzero(observation["action_mask"])[-1])
            observation, reward, done, _cut, _info = learner.step(action)
        results.add(reward)
    assert results <= {-1.0, 0.0, 1.0} and len(results) > 1
    dice = SingleAgentEnv(PIG, opponents="random", players=2, options={"winscore": 8})
    seen = set()
    for seed in range(4):
        dice.reset(seed=seed)
        done = False
        while not done:
            _obs, _reward, done, _cut, _info = dice.step(0 if dice.state.total < 4 else 1)
        seen.add(str(dice.state))
    assert len(seen) > 1  # the die differs from deal to deal

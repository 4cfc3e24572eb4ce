"""The single-agent Gymnasium environment: Gymnasium's own ``check_env``, the vector
environments, the opponents at the other seats, and win and score rewards."""

from __future__ import annotations

import random
import warnings
from typing import Any

import pytest

np = pytest.importorskip("numpy")
gymnasium = pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402

from tabletop.bridges.gym import SingleAgentEnv  # noqa: E402
from tabletop.core.errors import UsageError  # noqa: E402
from tabletop.core.registry import registry  # noqa: E402

CONFIGS: list[tuple[str, dict[str, Any]]] = [
    ("quarto", {}),
    ("connect4", {}),
    ("quartino", {"players": 3, "options": {"max_turns": 8}}),
    ("ctverak", {"players": 2, "options": {"deck": "half", "scoring": "extended"}}),
    ("ctverak", {"players": 4, "opponents": "1,2,basic"}),
]
ONLY_WARNING = "Not able to test alternative render modes"  # no registered spec: by design


def _masked(observation: dict[str, Any], rng: random.Random) -> int:
    return int(rng.choice(list(np.flatnonzero(observation["action_mask"]))))


@pytest.mark.parametrize(
    ("game", "kwargs"), CONFIGS, ids=[f"{g}-{i}" for i, (g, _) in enumerate(CONFIGS)]
)
def test_gymnasium_check_env_passes(game: str, kwargs: dict[str, Any]) -> None:
    env = SingleAgentEnv(game, **{"opponents": "1", **kwargs})
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env)
    assert [str(w.message) for w in caught if ONLY_WARNING not in str(w.message)] == []


def _episode(env: SingleAgentEnv, seed: int) -> tuple[list[bytes], float]:
    observation, _ = env.reset(seed=seed)
    rng = random.Random(seed)
    seen, done, reward = [observation["observation"].tobytes()], False, 0.0
    while not done:
        observation, reward, done, truncated, info = env.step(_masked(observation, rng))
        assert not truncated and not info.get("illegal")
        seen.append(observation["observation"].tobytes())
    return seen, float(reward)


def test_an_episode_repeats_from_its_seed_and_ends_with_the_games_result() -> None:
    env = SingleAgentEnv("connect4", opponents="1", seat=None)
    results = set()
    for seed in range(6):
        first, reward = _episode(env, seed)
        assert _episode(env, seed) == (first, reward)
        outcome = registry().get("connect4").outcome(env.state)
        assert outcome is not None
        winners = outcome.winners
        assert reward == (0.0 if not winners else 1.0 if env.seat in winners else -1.0)
        results.add(reward)
    assert len(results) > 1


def test_the_learner_acts_only_at_its_seat() -> None:
    env = SingleAgentEnv("quartino", opponents="1", players=3, seat=2, options={"max_turns": 6})
    observation, info = env.reset(seed=3)
    assert info["seat"] == 2
    rng = random.Random(3)
    done = False
    while not done:
        assert registry().get("quartino").to_act(env.state) == 2
        observation, _, done, _, _ = env.step(_masked(observation, rng))


def test_score_reward_is_the_points_minus_the_others_mean() -> None:
    game = registry().get("ctverak")
    env = SingleAgentEnv(
        "ctverak",
        opponents="basic",
        reward="score",
        players=3,
        seat=None,
        options={"scoring": "extended"},
    )
    nonzero = 0
    for seed in range(8):
        _, reward = _episode(env, seed)
        points = game.scores(env.state)
        assert points is not None
        others = [points[p] for p in (1, 2, 3) if p != env.seat]
        assert reward == pytest.approx(points[env.seat] - sum(others) / 2)
        nonzero += reward != 0
    assert nonzero


def test_an_illegal_action_ends_the_episode_with_minus_one() -> None:
    env = SingleAgentEnv("quarto", opponents="1")
    observation, _ = env.reset(seed=0)
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    _, reward, done, _, info = env.step(illegal)
    assert (reward, done, info) == (-1.0, True, {"illegal": True})
    with pytest.raises(UsageError, match="call reset"):
        env.step(0)


def test_bad_arguments_are_one_line() -> None:
    with pytest.raises(UsageError, match="reward='score' needs a game that keeps points"):
        SingleAgentEnv("quartino", reward="score")
    with pytest.raises(UsageError, match="reward 'points' is not offered"):
        SingleAgentEnv("quarto", reward="points")
    with pytest.raises(UsageError, match="has 3 other seats"):
        SingleAgentEnv("ctverak", players=4, opponents="1,2")
    with pytest.raises(UsageError, match="use 1-2 or None"):
        SingleAgentEnv("quarto", seat=3)


@pytest.mark.parametrize("vector", ["SyncVectorEnv", "AsyncVectorEnv"])
def test_vector_environments_play_episodes(vector: str) -> None:
    make = getattr(gymnasium.vector, vector)
    envs = make([lambda: SingleAgentEnv("connect4", opponents="1", seat=None) for _ in range(2)])
    try:
        observations, _ = envs.reset(seed=5)
        assert observations["observation"].shape == (2, 88)
        rng = random.Random(5)
        ended = 0
        for _ in range(60):
            masks = observations["action_mask"]
            # an ended episode's mask is empty: its next step resets it (action unused)
            actions = np.array([_masked({"action_mask": m}, rng) if m.any() else 0 for m in masks])
            observations, rewards, terminated, truncated, _ = envs.step(actions)
            assert set(rewards.tolist()) <= {-1.0, 0.0, 1.0}
            assert not truncated.any()
            ended += int(terminated.sum())
        assert ended >= 2
    finally:
        envs.close()

"""The PettingZoo bridge, proved by PettingZoo's own ``api_test`` and ``seed_test``.

The only warnings allowed are the two that PettingZoo's test gives every environment
whose observations are ``{"observation", "action_mask"}`` dicts, the convention of its
classic games (chess, connect four), which its test exempts by name only.
"""

from __future__ import annotations

import random
import warnings
from collections.abc import Callable
from typing import Any

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test  # noqa: E402

from tabletop.bridges.pettingzoo import env  # noqa: E402
from tabletop.core.errors import TabletopError  # noqa: E402
from tabletop.core.registry import registry  # noqa: E402

CONVENTION = {
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be gymnasium.spaces.box or "
    "gymnasium.spaces.discrete",
}
CONFIGS: list[tuple[str, int, dict[str, Any]]] = [
    ("quarto", 2, {}),
    ("quarto", 2, {"squares": True}),
    ("quarto", 2, {"attributes": "colour,top"}),
    ("quarto", 2, {"claim": "manual"}),
    ("quarto", 2, {"squares": True, "attributes": "height", "claim": "manual"}),
    ("quartino", 2, {}),
    ("quartino", 3, {"mirror": True}),
    ("quartino", 4, {"situations": False, "start": "lot"}),
    ("ctverak", 2, {}),
    ("ctverak", 6, {"scoring": "extended", "reshuffle": True}),
    ("ctverak", 2, {"deck": "half", "min_natural": 2}),
    ("connect4", 2, {}),
    ("connect4", 2, {"columns": 5, "rows": 4, "connect": 3}),
]


def _suite(make: Callable[[], Any]) -> list[str]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(make(), num_cycles=300, verbose_progress=False)
        seed_test(make, num_cycles=100)
    return sorted({str(w.message) for w in caught} - CONVENTION)


def _label(game: str, players: int, options: dict[str, Any]) -> str:
    return f"{game}-{players}-{'-'.join(f'{k}={v}' for k, v in options.items()) or 'standard'}"


@pytest.mark.parametrize(("game", "players", "options"), CONFIGS, ids=[_label(*c) for c in CONFIGS])
def test_pettingzoo_api_and_seed_tests_pass(
    game: str, players: int, options: dict[str, Any]
) -> None:
    assert _suite(lambda: env(game, players=players, options=options, seed=11)) == []


def _play(e: Any, rng: random.Random) -> dict[str, float]:
    """Random legal actions to the end; the rewards each agent got."""
    total: dict[str, float] = {}
    for agent in e.agent_iter():
        observation, reward, termination, truncation, _ = e.last()
        total[agent] = total.get(agent, 0.0) + reward
        mask = observation["action_mask"]
        if termination or truncation:
            assert not mask.any()  # nobody acts once the game is over
            e.step(None)
            continue
        e.step(int(rng.choice(list(np.flatnonzero(mask)))))
    return total


def test_only_the_agent_to_act_has_legal_actions() -> None:
    e = env("quartino", players=3, seed=5)
    e.reset(seed=5)
    selected = e.agent_selection
    for agent in e.possible_agents:
        assert e.observe(agent)["action_mask"].any() == (agent == selected)


def test_winners_get_plus_one_and_the_others_minus_one() -> None:
    for seed in range(4):
        e = env("quartino", players=4, options={"max_turns": 60}, seed=seed)
        e.reset(seed=seed)
        total = _play(e, random.Random(seed))
        outcome = registry().get("quartino").outcome(e.unwrapped.state_)
        assert outcome is not None
        winners = outcome.winners
        expected = {
            f"player_{i}": (0.0 if not winners else 1.0 if i + 1 in winners else -1.0)
            for i in range(4)
        }
        assert total == expected


def test_an_agent_observes_its_own_view_only() -> None:
    game = registry().get("ctverak")
    e = env("ctverak", players=3, seed=2)
    e.reset(seed=2)
    raw = e.unwrapped
    mine = raw.observe("player_1")["observation"]
    view = game.view(raw.state_, 2)
    other = game.sample(view, 2, 3, raw.config.options, random.Random(0))  # other hands
    assert game.view(other, 1) != game.view(raw.state_, 1)
    raw.state_ = other
    assert (raw.observe("player_1")["observation"] == mine).all()


def test_ansi_render_is_the_terminal_drawing() -> None:
    e = env("quarto", render_mode="ansi", seed=0)
    e.reset(seed=0)
    text = e.render()
    assert isinstance(text, str) and "pool (16):" in text and "DTQH" in text
    e.step(int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[0]))  # give LSRF
    after = e.render()
    assert isinstance(after, str)
    assert "pool (15):" in after and "LSRF" not in after.split("pool")[1].splitlines()[-2]


def test_bad_input_is_one_line() -> None:
    with pytest.raises(TabletopError, match="Quarto is for 2 players, not 3"):
        env("quarto", players=3)
    with pytest.raises(TabletopError, match="unknown option 'colour'"):
        env("quarto", options={"colour": True})
    with pytest.raises(TabletopError, match="render_mode 'rgb_array' is not offered"):
        env("quarto", render_mode="rgb_array")


def test_score_rewards_are_each_agents_points_minus_the_others_mean() -> None:
    game = registry().get("ctverak")
    nonzero = 0
    for seed in range(3):
        e = env("ctverak", players=3, options={"scoring": "extended"}, seed=seed, reward="score")
        e.reset(seed=seed)
        total = _play(e, random.Random(seed))
        points = game.scores(e.unwrapped.state_)
        assert points is not None
        expected = {
            f"player_{p - 1}": points[p] - sum(points[q] for q in (1, 2, 3) if q != p) / 2
            for p in (1, 2, 3)
        }
        assert total == pytest.approx(expected)
        assert sum(total.values()) == pytest.approx(0.0)
        nonzero += any(total.values())
    assert nonzero
    with pytest.raises(TabletopError, match="reward='score' needs a game that keeps points"):
        env("quarto", reward="score")


def test_an_illegal_action_ends_the_game_with_minus_one_for_its_agent() -> None:
    e = env("quartino", players=3, seed=1)
    e.reset(seed=1)
    agent = e.agent_selection
    mask = e.observe(agent)["action_mask"]
    e.step(int(np.flatnonzero(mask == 0)[0]))
    assert all(e.terminations.values())
    _, reward, termination, _, info = e.last()
    assert e.agent_selection == agent and termination and info["illegal"]
    assert reward == -1.0
    assert {a: e._cumulative_rewards[a] for a in e.agents if a != agent} == {
        a: 0.0 for a in e.agents if a != agent
    }
    with pytest.raises(TabletopError, match="is not an action id of quartino: use an int 0-228"):
        fresh = env("quartino", players=3, seed=1)
        fresh.step(229)


HIDDEN: list[tuple[str, int, dict[str, Any]]] = [
    ("quartino", 2, {"max_turns": 40}),
    ("quartino", 4, {"mirror": True, "max_turns": 40}),
    ("ctverak", 3, {"deck": "half"}),
    ("ctverak", 6, {}),
]


@pytest.mark.parametrize(("game", "players", "options"), HIDDEN, ids=[_label(*c) for c in HIDDEN])
def test_the_fast_observation_is_the_views_and_carries_nothing_hidden(
    game: str, players: int, options: dict[str, Any]
) -> None:
    """Along random games, every agent's observation (written from the state by the
    game's fast path, ``Game.observer``) is the slow path's observation of its view, and
    stays the same when everything it may not see is resampled (``Game.sample``)."""
    e = env(game, players=players, options=options, seed=3)
    raw = e.unwrapped
    rules, model, enc = raw.config.game, raw.config.options, raw.config.encoding
    rng = random.Random(3)
    resampled_differently = 0
    for steps, _agent in enumerate(e.agent_iter(max_iter=250)):
        state = raw.state_
        if rules.outcome(state) is None and steps % 5 == 0:
            for seat, name in enumerate(raw.possible_agents, 1):
                got = raw.observe(name)["observation"]
                view = rules.view(state, seat)
                slow = np.array(enc.observation(view, seat, players, model), np.float32)
                assert (got == slow).all()
                other = rules.sample(view, seat, players, model, rng)
                resampled_differently += rules.to_json(other) != rules.to_json(state)
                raw.state_ = other
                assert (raw.observe(name)["observation"] == got).all()
                raw.state_ = state
        observation, _, termination, truncation, _ = e.last()
        if termination or truncation:
            e.step(None)
        else:
            e.step(int(rng.choice(list(np.flatnonzero(observation["action_mask"])))))
    assert resampled_differently > 10  # the hidden parts really were other cards


@pytest.mark.parametrize(("game", "players"), [("quartino", 4), ("ctverak", 3), ("quarto", 2)])
def test_the_mask_marks_exactly_the_legal_ids(game: str, players: int) -> None:
    """Along random games the mask (from ``Game.id_lister``, long id lists copied from the
    masks made before) marks the ids of ``Game.legal`` by ``Game.action_id``, no other."""
    e = env(game, players=players, seed=6)
    raw = e.unwrapped
    rules, enc = raw.config.game, raw.config.encoding
    rng = random.Random(6)
    for games in range(3):
        e.reset(seed=games)
        for _agent in e.agent_iter(max_iter=400):
            observation, _, termination, truncation, _ = e.last()
            marked = list(np.flatnonzero(observation["action_mask"]))
            if termination or truncation:
                assert marked == []
                e.step(None)
                continue
            state = raw.state_
            assert marked == sorted(enc.action_id(state, a) for a in rules.legal(state))
            e.step(int(rng.choice(marked)))


def test_reset_without_a_seed_draws_from_the_last_seed_given() -> None:
    """reset(seed=s) restarts the generator of later seeds (made lazily) from s."""
    e = env("quarto", seed=3)
    e.reset(seed=7)
    e.reset()
    drawn = random.Random(7)
    assert e.unwrapped.seed_ == drawn.randrange(2**31)
    e.reset()
    assert e.unwrapped.seed_ == drawn.randrange(2**31)
    again = env("quarto", seed=3)
    again.reset()
    assert again.unwrapped.seed_ == random.Random(3).randrange(2**31)

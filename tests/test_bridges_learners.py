"""Issue 41, item 5: the learners' conventions. ``action_masks()`` (MaskablePPO's protocol)
on the Gymnasium env; a finished vector env's final observation as documented; a
``human`` render mode on every env (PettingZoo's ``render_test``); ``info["action_texts"]``
for the acting agent only; the observation layout on the envs; the OpenSpiel game type's
factored-observation flag."""

from __future__ import annotations

import itertools
import pickle
import random

import pytest

np = pytest.importorskip("numpy")
gymnasium = pytest.importorskip("gymnasium")
pyspiel = pytest.importorskip("pyspiel")
pytest.importorskip("pettingzoo")

from pettingzoo.test import render_test  # noqa: E402

from tabletop.bridges import openspiel  # noqa: E402
from tabletop.bridges.gym import SingleAgentEnv  # noqa: E402
from tabletop.bridges.pettingzoo import env as aec_env  # noqa: E402
from tabletop.core.registry import registry  # noqa: E402

GAMES = ["quarto", "quartino", "ctverak", "connect4"]


def test_action_masks_is_the_observations_mask_and_empty_at_the_end() -> None:
    e = SingleAgentEnv("quartino", opponents="1", players=2, options={"max_turns": 6})
    observation, _ = e.reset(seed=3)
    rng = random.Random(0)
    done = False
    while not done:
        masks = e.action_masks()
        assert masks.dtype == bool and masks.shape == (e.config.ids,)
        assert (masks == observation["action_mask"].astype(bool)).all() and masks.any()
        observation, _, done, _, _ = e.step(rng.choice(list(np.flatnonzero(masks))))
    assert not e.action_masks().any()


@pytest.mark.parametrize("mode", ["next", "same"])
def test_a_vector_envs_finished_game_as_documented(mode: str) -> None:
    """Gymnasium's default (next-step autoreset): a finished env's final observation has
    an all-zero mask and the next action for it is ignored; with same-step autoreset
    the observation is the new game's and the final one is in the infos."""
    autoreset = gymnasium.vector.AutoresetMode
    vector = gymnasium.vector.SyncVectorEnv(
        [lambda: SingleAgentEnv("connect4", opponents="1", seat=None) for _ in range(2)],
        autoreset_mode=autoreset.NEXT_STEP if mode == "next" else autoreset.SAME_STEP,
    )
    observations, _ = vector.reset(seed=1)
    rng = np.random.default_rng(0)
    finished = 0
    for _ in range(120):
        actions = []
        for mask in observations["action_mask"]:
            legal = mask if mask.any() else np.ones_like(mask)  # the documented recipe
            actions.append(int(rng.choice(np.flatnonzero(legal))))
        observations, _, terminated, _, infos = vector.step(np.array(actions))
        for i, done in enumerate(terminated):
            if mode == "next":
                assert observations["action_mask"][i].any() == (not done)
            else:
                assert observations["action_mask"][i].any()
                if done:
                    assert not infos["final_obs"][i]["action_mask"].any()
            finished += bool(done)
    assert finished >= 4
    vector.close()


@pytest.mark.parametrize("game", GAMES)
def test_pettingzoos_render_test_passes_with_human_and_ansi(game: str) -> None:
    render_test(lambda render_mode=None: aec_env(game, render_mode=render_mode, seed=1))


def test_human_mode_prints_what_ansi_returns(capsys: pytest.CaptureFixture[str]) -> None:
    e = aec_env("quarto", seed=1, render_mode="human")
    assert e.render() is None
    printed = capsys.readouterr().out
    assert printed == aec_env("quarto", seed=1, render_mode="ansi").render()
    g = SingleAgentEnv("connect4", opponents="1", render_mode="human")
    g.reset(seed=2)  # Gymnasium's convention: human mode renders on reset and step
    assert "1    2    3" in capsys.readouterr().out
    assert g.render() is None
    assert "1    2    3" in capsys.readouterr().out
    drawn = SingleAgentEnv("connect4", opponents="1", render_mode="ansi")
    drawn.reset(seed=2)
    assert capsys.readouterr().out.strip() == ""
    assert isinstance(drawn.render(), str) and "1    2    3" in str(drawn.render())


@pytest.mark.parametrize("game", GAMES)
def test_the_acting_agents_info_names_its_legal_actions(game: str) -> None:
    e = aec_env(game, seed=2, players=3 if game in ("quartino", "ctverak") else None)
    rules = e.config.game
    rng = random.Random(2)
    checked = 0
    for agent in e.agent_iter(60):
        observation, _, termination, truncation, info = e.last()
        if termination or truncation:
            e.step(None)
            continue
        legal = [int(i) for i in np.flatnonzero(observation["action_mask"])]
        texts = info["action_texts"]
        assert sorted(texts) == legal
        for action_id, text in texts.items():  # each text is what a person types for it
            action = rules.parse(e.state_, text)
            assert e.config.encoding.action_id(e.state_, action) == action_id
        for other in e.agents:  # no other agent is told the acting one's options
            if other != agent:
                assert "action_texts" not in e.infos[other]
        assert pickle.loads(pickle.dumps(info)) == {"action_texts": dict(texts)}
        checked += 1
        e.step(rng.choice(legal))
    assert checked > 10


def test_the_gym_envs_info_names_the_learners_legal_actions() -> None:
    e = SingleAgentEnv("quarto", opponents="1")
    observation, info = e.reset(seed=5)
    assert sorted(info["action_texts"]) == list(np.flatnonzero(observation["action_mask"]))
    assert info["action_texts"][0] == "give LSRF"
    done = False
    while not done:
        action = int(np.flatnonzero(observation["action_mask"])[0])
        observation, _, done, _, info = e.step(action)
        assert ("action_texts" in info) == (not done)


@pytest.mark.parametrize("game", GAMES)
def test_the_observation_layout_covers_the_vector_in_named_blocks(game: str) -> None:
    e = aec_env(game, seed=1)
    layout = e.observation_layout
    size = int(np.prod(e.config.shape))
    starts = sorted(layout.values())
    assert starts[0][0] == 0 and starts[-1][1] == size
    assert all(a[1] == b[0] for a, b in itertools.pairwise(starts))
    assert len(layout) > 3  # named blocks, not one opaque vector
    me = layout["me"]
    for seat, agent in enumerate(e.possible_agents):
        vector = e.observe(agent)["observation"]
        assert vector[me[0] + seat] == 1.0 and vector[me[0] : me[1]].sum() == 1.0
    g = SingleAgentEnv(game, opponents="1")
    assert g.observation_layout == layout


def test_the_game_types_say_the_observers_are_factored() -> None:
    openspiel.register()
    for game_id in registry().ids():
        game = pyspiel.load_game(openspiel.PREFIX + game_id)
        assert game.get_type().provides_factored_observation_string
        public = game.make_py_observer(
            pyspiel.IIGObservationType(
                public_info=True, perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE
            )
        )
        state = game.new_initial_state()
        while state.is_chance_node():  # a deal: one of its outcomes
            state.apply_action(state.chance_outcomes()[0][0])
        assert public.string_from(state, 0)

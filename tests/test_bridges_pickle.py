"""Issue 41, items 1 and 2: the bridges' games, states and environments pickle and copy
to equal objects (in this process, in a spawned process, in a Ray worker), and a state
resampled from an information state is whole (history, move number, the player's
information state and every public observation as the real state's)."""

from __future__ import annotations

import copy
import logging
import multiprocessing
import pickle
import random
from collections.abc import Iterator
from typing import Any

import pytest

np = pytest.importorskip("numpy")
pyspiel = pytest.importorskip("pyspiel")
pytest.importorskip("pettingzoo")

from tabletop.bridges import openspiel  # noqa: E402
from tabletop.bridges.gym import SingleAgentEnv  # noqa: E402
from tabletop.bridges.pettingzoo import env as aec_env  # noqa: E402
from tabletop.bridges.states import HIDDEN  # noqa: E402

openspiel.register()
NONE, SINGLE, ALL = (
    pyspiel.PrivateInfoType.NONE,
    pyspiel.PrivateInfoType.SINGLE_PLAYER,
    pyspiel.PrivateInfoType.ALL_PLAYERS,
)
GAMES = [
    "tabletop_quarto",
    "tabletop_connect4(columns=5,rows=4,connect=3)",
    "tabletop_quartino(players=2,max_turns=8)",
    "tabletop_quartino(players=3,max_turns=6,mirror=True)",
    "tabletop_ctverak(players=2,deck=half,stall_limit=2)",
    "tabletop_ctverak(players=3,deck=half,stall_limit=2,scoring=extended,reward=score)",
]
HIDDEN_GAMES = [name for name in GAMES if "quartino" in name or "ctverak" in name]


def _kind(public: bool, private: Any, recall: bool) -> Any:
    return pyspiel.IIGObservationType(
        public_info=public, perfect_recall=recall, private_info=private
    )


def _played(name: str, seed: int, moves: int) -> Any:
    """A state of ``name`` after the deal of ``seed`` and up to ``moves`` random actions
    (not the end)."""
    game = pyspiel.load_game(name)
    rng = random.Random(seed)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(rng.choice([a for a, _p in state.chance_outcomes()]))
    for _ in range(moves):
        after = state.child(rng.choice(state.legal_actions()))
        if after.is_terminal():
            break
        state = after
    return state


def _looks(state: Any) -> dict[str, Any]:
    """What a state shows through the API: history, player, legal actions, returns,
    every player's information state (string and tensor) and observation."""
    players = range(state.get_game().num_players())
    out: dict[str, Any] = {
        "history": state.history(),
        "move": state.move_number(),
        "player": state.current_player(),
        "terminal": state.is_terminal(),
        "returns": state.returns(),
        "text": str(state),
    }
    if not state.is_terminal() and not state.is_chance_node():
        out["legal"] = state.legal_actions()
        out["info"] = [state.information_state_string(p) for p in players]
        out["tensor"] = [list(state.information_state_tensor(p)) for p in players]
        out["observation"] = [state.observation_string(p) for p in players]
    return out


def play_on(state: Any, actions: int = 6) -> list[dict[str, Any]]:
    """What ``state`` shows, then after each of ``actions`` first-legal actions (a
    worker's job: it gets the state pickled)."""
    seen = [_looks(state)]
    for _ in range(actions):
        if state.is_terminal():
            break
        state.apply_action(0 if state.is_chance_node() else state.legal_actions()[-1])
        seen.append(_looks(state))
    return seen


def aec_run(e: Any) -> list[Any]:
    """The rest of an AEC episode with the last legal id each turn: what each agent saw."""
    seen: list[Any] = []
    for agent in e.agent_iter(200):
        observation, reward, termination, truncation, info = e.last()
        seen.append(
            (agent, observation["observation"].tolist(), observation["action_mask"].tolist())
        )
        seen.append((reward, termination, truncation, info))
        legal = np.flatnonzero(observation["action_mask"])
        e.step(None if termination or truncation else int(legal[-1]))
    return seen


def gym_run(e: Any) -> list[Any]:
    """The rest of a Gymnasium episode with the last legal id each step."""
    seen: list[Any] = []
    observation = e._observe()
    done = False
    while not done:
        action = int(np.flatnonzero(observation["action_mask"])[-1])
        observation, reward, done, truncated, _ = e.step(action)
        seen.append((observation["observation"].tolist(), reward, done, truncated))
    return seen


def _envs() -> list[tuple[str, Any, Any]]:
    """Environments in mid-episode, with the function that plays each to its end."""
    aec = aec_env("quartino", players=3, options={"max_turns": 12}, seed=5)
    for _ in range(7):
        observation, *_ = aec.last()
        aec.step(int(np.flatnonzero(observation["action_mask"])[0]))
    single = SingleAgentEnv("ctverak", opponents="3", players=3, options={"deck": "half"})
    observation, _ = single.reset(seed=4)
    single.step(int(np.flatnonzero(observation["action_mask"])[0]))
    c4 = SingleAgentEnv("connect4", opponents="2", seat=None)
    c4.reset(seed=9)
    return [("aec", aec, aec_run), ("gym", single, gym_run), ("gym-c4", c4, gym_run)]


@pytest.mark.parametrize("name", GAMES)
def test_games_and_states_pickle_and_copy_to_equal_ones(name: str) -> None:
    state = _played(name, 3, 9)
    game = state.get_game()
    again = pickle.loads(pickle.dumps(game))
    assert again == game and str(again) == str(game)
    assert again.new_initial_state().history() == []
    for copied in (
        pickle.loads(pickle.dumps(state)),
        copy.deepcopy(state),
        copy.copy(state),
        pickle.loads(pickle.dumps(state.clone())),
    ):
        assert _looks(copied) == _looks(state)
        assert play_on(copied) == play_on(state.clone())
    assert not _looks(state)["terminal"]


def test_states_resampled_pickle_too() -> None:
    state = _played(HIDDEN_GAMES[0], 5, 7)
    player = state.current_player()
    sample = state.resample_from_infostate(player, random.Random(1).random)
    again = pickle.loads(pickle.dumps(sample))
    assert again.history() == sample.history()
    assert again.information_state_string(player) == state.information_state_string(player)
    assert again.tabletop == sample.tabletop


@pytest.mark.parametrize("which", ["aec", "gym", "gym-c4"])
def test_environments_pickle_and_copy_to_equal_ones(which: str) -> None:
    _, e, run = next(entry for entry in _envs() if entry[0] == which)
    copies = [pickle.loads(pickle.dumps(e)), copy.deepcopy(e)]
    expected = run(e)
    assert len(expected) > 2
    for copied in copies:
        assert run(copied) == expected


def _spawned(jobs: list[tuple[Any, Any]]) -> list[Any]:
    context = multiprocessing.get_context("spawn")
    with context.Pool(1) as pool:
        return pool.starmap(_job, jobs)


def _job(function: Any, argument: Any) -> Any:
    return function(argument)


def test_states_and_environments_cross_a_spawned_process() -> None:
    """A fresh interpreter (nothing registered yet) unpickles the states and envs and
    plays on exactly as this process does."""
    states = [_played(name, 2, 8) for name in GAMES]
    games = [state.get_game() for state in states]
    envs = _envs()
    jobs: list[tuple[Any, Any]] = [(play_on, state) for state in states]
    jobs += [(str, game) for game in games]
    jobs += [(run, e) for _, e, run in envs]
    results = _spawned(jobs)
    expected: list[Any] = [play_on(state.clone()) for state in states]
    expected += [str(game) for game in games]
    expected += [run(e) for _, e, run in envs]
    assert results == expected


@pytest.fixture(scope="module")
def ray_local() -> Iterator[Any]:
    ray = pytest.importorskip("ray")
    started = not ray.is_initialized()
    if started:
        ray.init(
            num_cpus=1, include_dashboard=False, log_to_driver=False, logging_level=logging.ERROR
        )
    yield ray
    if started:
        ray.shutdown()


def test_states_and_environments_go_to_a_ray_worker(ray_local: Any) -> None:
    ray = ray_local
    remote = ray.remote(_job)
    states = [_played(name, 4, 6) for name in (GAMES[0], GAMES[2], GAMES[4])]
    envs = _envs()
    futures = [remote.remote(play_on, state) for state in states]
    futures += [remote.remote(run, e) for _, e, run in envs]
    futures.append(remote.remote(str, ray.put(states[1].get_game())))
    expected: list[Any] = [play_on(state.clone()) for state in states]
    expected += [run(e) for _, e, run in envs]
    expected.append(str(states[1].get_game()))
    assert ray.get(futures) == expected


# -- item 2: whole resampled states ---------------------------------------------------

OBSERVED = [
    (True, NONE, False),
    (True, NONE, True),
    (False, SINGLE, False),
    (False, SINGLE, True),
    (True, SINGLE, False),
    (True, SINGLE, True),
]


def _shown(observer: Any, state: Any, player: int) -> tuple[str, bytes]:
    observer.set_from(state, player)
    return observer.string_from(state, player), observer.tensor.tobytes()


@pytest.mark.parametrize("asked_before", [False, True])
@pytest.mark.parametrize("name", HIDDEN_GAMES)
def test_a_resampled_state_is_whole(name: str, asked_before: bool) -> None:
    game = pyspiel.load_game(name)
    observers = {k: game.make_py_observer(_kind(*k)) for k in OBSERVED}
    every = game.make_py_observer(_kind(True, ALL, True))
    rng = random.Random(11)
    differs = histories = fallbacks = 0
    for seed in range(3):
        for moves in (0, 3, 9):
            real = _played(name, seed, moves)
            for player in range(game.num_players()):
                state = game.new_initial_state()  # nothing asked of it yet
                for action in real.history():
                    state.apply_action(action)
                if asked_before:  # records of another kind, another player, asked first
                    _shown(every, state, (player + 1) % game.num_players())
                    state.information_state_string((player + 1) % game.num_players())
                sample = state.resample_from_infostate(player, rng.random)
                assert len(sample.history()) == len(real.history())
                assert sample.move_number() == real.move_number()
                assert sample.current_player() == real.current_player()
                assert sample.information_state_string(player) == real.information_state_string(
                    player
                )
                assert sample.information_state_tensor(player) == real.information_state_tensor(
                    player
                )
                assert sample.observation_string(player) == real.observation_string(player)
                for (public, private, recall), observer in observers.items():
                    for seat in range(game.num_players()):
                        if private == NONE or seat == player:  # what player may know
                            assert _shown(observer, sample, seat) == _shown(observer, real, seat), (
                                public,
                                private,
                                recall,
                                seat,
                                player,
                            )
                differs += sample.tabletop != real.tabletop
                for mine, theirs in zip(real.full_history(), sample.full_history(), strict=True):
                    assert mine.player == theirs.player
                    if mine.player == player:
                        assert mine.action == theirs.action
                # issue 36: the deal is chance steps, so the sample is a real history of
                # the tree (each unseen outcome and untold action drawn anew, every step
                # legal); where none was found within the resampler's budget, a state
                # sampled from the view with the history as the player knows it (HIDDEN
                # entries), never the real history
                if any(pa.action == HIDDEN for pa in sample.full_history()):
                    fallbacks += 1
                    continue
                histories += 1
                replay = game.new_initial_state()
                for action in sample.history():
                    assert action in replay.legal_actions()
                    replay.apply_action(action)
                assert replay.tabletop == sample.tabletop
    assert differs  # the hidden cards were really drawn anew
    # real histories of the tree (issue 36): the hidden outcomes another player's told
    # actions need are dealt first (bridges/demands.py), so the search hardly ever gives
    # up (every one here; before, Čtverák found 7 of 18 and 8 of 27, Quartino 3p 18 of 27)
    assert fallbacks <= (histories + fallbacks) // 10, (histories, fallbacks)


def test_a_resampled_history_keeps_own_actions_and_draws_the_hidden_cards_anew() -> None:
    real = _played(HIDDEN_GAMES[2], 6, 10)
    player = real.current_player()
    rng = random.Random(0)
    samples = [real.resample_from_infostate(player, rng.random) for _ in range(8)]
    real_history = [(pa.player, pa.action) for pa in real.full_history()]
    others = set()
    for sample in samples:
        history = [(pa.player, pa.action) for pa in sample.full_history()]
        assert [h for h in history if h[0] == player] == [h for h in real_history if h[0] == player]
        assert any(p == pyspiel.PlayerId.CHANCE for p, _a in history)  # the deal is chance
        others.add(str(sample))
    assert len(others) > 1  # not the real deal each time

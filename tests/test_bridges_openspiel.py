"""The OpenSpiel bridge, proved by OpenSpiel's own ``random_sim_test`` and its MCTSBot."""

from __future__ import annotations

import json
import random
import sys
from typing import Any

import pytest

np = pytest.importorskip("numpy")
pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import evaluate_bots, mcts  # noqa: E402
from typer.testing import CliRunner  # noqa: E402

from tabletop.agents.seat import make_seat  # noqa: E402
from tabletop.bridges import openspiel  # noqa: E402
from tabletop.bridges.steps import settle  # noqa: E402
from tabletop.cli.app import app  # noqa: E402
from tabletop.core.errors import UsageError  # noqa: E402
from tabletop.core.registry import registry  # noqa: E402
from tabletop_ctverak import encoding as ctverak_encoding  # noqa: E402

NAMES = openspiel.register()
SIMS: list[tuple[str, dict[str, Any], int]] = [
    ("tabletop_quarto", {}, 5),
    ("tabletop_quarto", {"squares": True, "attributes": "colour+height", "claim": "manual"}, 5),
    ("tabletop_quarto", {"attributes": "top"}, 3),
    ("tabletop_connect4", {}, 5),
    ("tabletop_connect4", {"columns": 5, "rows": 4, "connect": 3}, 3),
    ("tabletop_quartino", {"players": 2}, 1),
    ("tabletop_quartino", {"players": 3, "max_turns": 40, "mirror": True}, 2),
    ("tabletop_quartino", {"players": 4, "max_turns": 40, "start": "lot"}, 2),
    ("tabletop_ctverak", {"players": 2}, 2),
    ("tabletop_ctverak", {"players": 6, "stall_limit": 2}, 1),
    ("tabletop_ctverak", {"players": 3, "deck": "half", "reshuffle": True}, 1),
    ("tabletop_ctverak", {"players": 3, "scoring": "extended", "reward": "score"}, 1),
]


def test_every_installed_game_is_registered() -> None:
    assert set(NAMES) == {f"tabletop_{gid}" for gid in registry().ids()}
    assert set(NAMES) <= set(pyspiel.registered_names())
    assert openspiel.register() == NAMES  # a second call registers nothing twice


@pytest.mark.parametrize(
    ("name", "params", "sims"),
    SIMS,
    ids=[f"{n}-{json.dumps(p, sort_keys=True)}" for n, p, _ in SIMS],
)
def test_random_sim_test_with_serialization(name: str, params: dict[str, Any], sims: int) -> None:
    game = pyspiel.load_game(name, params)
    pyspiel.random_sim_test(game, num_sims=sims, serialize=True, verbose=False)


def test_dynamics_and_information_are_declared_truthfully() -> None:
    def kind(name: str, params: dict[str, Any]) -> tuple[str, str, str]:
        t = pyspiel.load_game(name, params).get_type()
        return (t.chance_mode.name, t.information.name, t.utility.name)

    perfect = ("DETERMINISTIC", "PERFECT_INFORMATION", "ZERO_SUM")
    assert kind("tabletop_quarto", {}) == perfect
    assert kind("tabletop_connect4", {}) == perfect
    # issue 36: the chance nodes are the game's own chance steps: Quartino's and Čtverák's
    # deals (and Čtverák's stock draws) are chance steps
    hidden = ("EXPLICIT_STOCHASTIC", "IMPERFECT_INFORMATION")
    assert kind("tabletop_quartino", {"players": 2}) == (*hidden, "ZERO_SUM")
    assert kind("tabletop_ctverak", {"players": 5}) == (*hidden, "GENERAL_SUM")
    assert kind("tabletop_pig", {}) == ("EXPLICIT_STOCHASTIC", "PERFECT_INFORMATION", "ZERO_SUM")
    assert kind("tabletop_quartino", {"players": 3, "reward": "win_loss"})[2] == "ZERO_SUM"
    assert kind("tabletop_quartino", {"players": 3})[2] == "GENERAL_SUM"


def test_a_game_without_chance_steps_has_no_chance_node_and_deals_its_seed() -> None:
    connect4 = registry().get("connect4")
    for seed in (0, 1234):
        game = pyspiel.load_game("tabletop_connect4", {"seed": seed})
        state = game.new_initial_state()
        assert not state.is_chance_node() and state.current_player() == 0
        assert game.max_chance_outcomes() == 0
        assert state.tabletop == connect4.new(2, connect4.info.options(), seed)


def test_a_deal_of_chance_steps_is_a_chance_node_and_takes_no_seed() -> None:
    quartino = registry().get("quartino")
    game = pyspiel.load_game("tabletop_quartino", {"players": 3})
    assert "seed" not in game.get_parameters()
    with pytest.raises(pyspiel.SpielError, match="seed"):
        pyspiel.load_game("tabletop_quartino", {"players": 3, "seed": 1})
    state = game.new_initial_state()
    assert state.is_chance_node() and game.max_chance_outcomes() > 0
    exact = quartino.chance_outcomes(state.tabletop)
    outcomes = state.chance_outcomes()
    assert len(outcomes) == len(exact) and sum(p for _, p in outcomes) == pytest.approx(1.0)
    assert sorted(p for _, p in outcomes) == pytest.approx(sorted(float(p) for _, p in exact))


def test_observation_tensor_is_the_views_encoding() -> None:
    game = pyspiel.load_game("tabletop_ctverak", {"players": 3})
    state = game.new_initial_state()
    tabletop = registry().get("ctverak")
    options = tabletop.info.options()
    for player in range(3):
        view = tabletop.view(state.tabletop, player + 1)
        expected = ctverak_encoding.observation(view, player + 1, 3, options)
        assert state.observation_tensor(player) == pytest.approx(expected)
        assert json.loads(state.observation_string(player)) == view


@pytest.mark.parametrize(
    ("name", "params"),
    [
        ("tabletop_quarto", {}),
        ("tabletop_connect4", {}),
        ("tabletop_quartino", {"players": 3, "max_turns": 6}),
        ("tabletop_ctverak", {"players": 2, "stall_limit": 2}),
    ],
)
def test_mcts_bot_plays_through_the_bridge_to_the_end(name: str, params: dict[str, Any]) -> None:
    game = pyspiel.load_game(name, params)
    rng = np.random.RandomState(3)
    rollout = mcts.RandomRolloutEvaluator(1, rng)
    bots = [
        mcts.MCTSBot(game, 2.0, 20, rollout, solve=True, random_state=rng)
        for _ in range(game.num_players())
    ]
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, rng)
    assert len(returns) == game.num_players()
    assert set(returns) <= {-1.0, 0.0, 1.0}
    assert sum(r > 0 for r in returns) <= 1 or name == "tabletop_ctverak"


def _arena(agents: str) -> dict[str, Any]:
    result = CliRunner().invoke(
        app, ["arena", "connect4", "--agents", agents, "--games", "2", "--seed", "4", "--json"]
    )
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.output)
    return data


def test_arena_takes_openspiel_mcts_reproducibly() -> None:
    first, again = _arena("openspiel-mcts:30,2"), _arena("openspiel-mcts:30,2")
    assert [row["agent"] for row in first["agents"]] == ["openspiel-mcts:30", "2"]
    keep = ("wins", "draws", "losses")
    assert [{k: r[k] for k in keep} for r in first["agents"]] == [
        {k: r[k] for k in keep} for r in again["agents"]
    ]


def test_a_bad_or_missing_openspiel_agent_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    game = registry().get("quarto")
    with pytest.raises(UsageError, match="write openspiel-mcts:N"):
        make_seat(game, "openspiel-mcts:lots")
    monkeypatch.setitem(sys.modules, "pyspiel", None)
    with pytest.raises(UsageError, match=r"pip install 'tabletop\[research\]'"):
        make_seat(game, "openspiel-mcts:10")


def test_the_agent_picks_a_legal_action_from_the_view() -> None:
    seat = make_seat(registry().get("ctverak"), "openspiel-mcts:10")
    game = registry().get("ctverak")
    options = game.info.options()
    state, _ = settle(game, game.new(2, options, 9), 9, 0)  # the deal's chance steps
    assert game.to_act(state) == 1
    action = seat.choose(game, state, 1, 2, options, random.Random(1))
    assert action in game.legal(state)


def test_score_returns_are_the_points_minus_the_others_mean() -> None:
    game = pyspiel.load_game(
        "tabletop_ctverak", {"players": 3, "scoring": "extended", "reward": "score"}
    )
    assert game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    tabletop = registry().get("ctverak")
    nonzero = 0
    for seed in range(6):
        rng = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply_action(rng.choice(legal))
        points = tabletop.scores(state.tabletop)
        assert points is not None
        expected = [points[p] - sum(points[q] for q in (1, 2, 3) if q != p) / 2 for p in (1, 2, 3)]
        assert state.returns() == pytest.approx(expected)
        nonzero += any(expected)
    assert nonzero
    with pytest.raises(UsageError, match="reward='score' needs a game that keeps points"):
        pyspiel.load_game("tabletop_quartino", {"reward": "score"})

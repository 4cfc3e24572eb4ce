"""Issue 41, item 6: Quarto's exact values and best actions from the bridges
(:func:`tabletop.bridges.solver.solve_state`) agree with OpenSpiel's own alpha-beta, and
the endgame data set command writes what it says."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import minimax  # noqa: E402

from tabletop.agents.facet import players_of  # noqa: E402
from tabletop.bridges import openspiel  # noqa: E402
from tabletop.bridges.facet import encoding_of  # noqa: E402
from tabletop.bridges.solver import solve_state  # noqa: E402
from tabletop.core.registry import registry  # noqa: E402

openspiel.register()


def _endgame(seed: int, empty: int) -> Any:
    """A Quarto pyspiel state with ``empty`` squares left, by random play."""
    game = pyspiel.load_game("tabletop_quarto")
    rng = random.Random(seed)
    while True:
        state = game.new_initial_state()
        while not state.is_terminal():
            board = json.loads(str(state))["board"]
            if 16 - len(board) == empty and rng.random() < 0.5:
                return state
            if 16 - len(board) < empty:
                break
            state.apply_action(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("seed", range(6))
def test_the_exact_value_agrees_with_openspiels_alpha_beta(seed: int) -> None:
    state = _endgame(seed, 4)
    player = state.current_player()
    solved = solve_state(state)
    assert solved is not None and solved.exact and solved.value is not None
    value, _ = minimax.alpha_beta_search(
        state.get_game(), state=state.clone(), maximizing_player_id=player
    )
    assert solved.value == round(value)
    assert solved.values[player] == solved.value and sum(solved.values) == 0
    assert solved.best in state.legal_actions()
    child = state.child(solved.best)  # the best action keeps the value
    if child.is_terminal():
        assert child.returns()[player] == solved.value
    else:
        after = solve_state(child)
        assert after is not None and after.values[player] == solved.value


def test_a_game_without_a_solver_and_an_end_give_none() -> None:
    ctverak = pyspiel.load_game("tabletop_ctverak(players=2,deck=half)")
    state = ctverak.new_initial_state()
    while state.is_chance_node():  # a deal: one of its outcomes
        state.apply_action(state.chance_outcomes()[0][0])
    assert solve_state(state) is None
    end = _endgame(1, 3)
    while not end.is_terminal():
        end.apply_action(end.legal_actions()[0])
    assert solve_state(end) is None


def _command(*args: str, lang: str = "C.UTF-8") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "LANG": lang, "LC_ALL": lang, "LANGUAGE": ""}
    return subprocess.run(
        [sys.executable, "-m", "tabletop.bridges.solver", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )


def test_the_command_writes_an_endgame_data_set_of_the_size_asked(tmp_path: Path) -> None:
    out = tmp_path / "endgames.jsonl"
    done = _command("quarto", "--positions", "7", "--empty", "6", "--seed", "3", "--out", str(out))
    assert done.returncode == 0, done.stderr
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(records) == 7
    assert len({json.dumps(r["position"], sort_keys=True) for r in records}) == 7
    quarto = registry().get("quarto")
    options = quarto.info.options()
    for record in records:
        position = quarto.from_json(record["position"], 2, options, 0)
        assert 16 - len(record["position"]["board"]) == 6
        assert quarto.to_act(position) == record["player"]
        encoding = encoding_of(quarto)
        assert encoding is not None
        assert record["best_id"] in record["legal_ids"]
        assert (
            encoding.action_id(position, quarto.parse(position, record["best"]))
            == (record["best_id"])
        )
        answer = players_of(quarto).solve(position, None)
        assert answer is not None and answer["value"] == record["value"]
        assert len(record["observation"]) == 318
    assert {r["value"] for r in records} <= {"win", "draw", "loss"}


def test_the_command_refuses_bad_input_in_one_line_in_the_readers_language() -> None:
    done = _command("ctverak", "--positions", "2")
    assert done.returncode == 2
    assert done.stderr == "ctverak has no solver (Game.solve), so it has no exact values\n"
    done = _command("quarto", "--positions", "0", lang="cs_CZ.UTF-8")
    assert done.returncode == 2
    assert done.stderr == "zadejte --positions 1-10000000 a --empty 1-16\n"
    assert done.stdout == ""

"""The game from tabletop's command line, as a user runs it (needs ``pip install -e .``)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path


def tabletop(*args: str, stdin: str = "", cwd: Path | None = None) -> tuple[int, str, str]:
    done = subprocess.run(
        [sys.executable, "-m", "tabletop", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        cwd=cwd,
    )
    return done.returncode, done.stdout, done.stderr


def test_tabletop_games_lists_connect4() -> None:
    code, out, err = tabletop("games", "--json")
    assert code == 0, err
    games = {row["id"]: row for row in json.loads(out)}
    row = games["connect4"]
    assert (row["name"], row["min_players"], row["max_players"]) == ("Connect Four", 2, 2)
    assert [o["name"] for o in row["options"]] == ["columns", "rows", "connect"]
    assert {"1", "2", "3", "4", "5", "mcts"} <= {level["name"] for level in row["ai_levels"]}


def test_play_against_the_generic_levels(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    moves = "drop 4\nhint\n9\nhelp\n4\nundo\n3\nquit\n"
    code, out, err = tabletop("play", "connect4", "--ai", "2:2", "--save", str(save), stdin=moves)
    assert code == 0, err
    assert "player 2 (computer, 2): drop" in out
    assert "there is no column 9: columns are 1-7 (C1.1)" in out
    assert "legal: drop 1, drop 2" in out
    assert "took back 2 action(s)" in out
    actions = json.loads(save.read_text())["actions"]
    assert len(actions) == 4 and actions[0] == "drop 4" and actions[2] == "drop 3"


def test_computer_levels_play_a_whole_game() -> None:
    code, out, err = tabletop("play", "connect4", "--ai", "1:3", "--ai", "2:4", "--seed", "5")
    assert code == 0, err
    assert "Game over" in out and "player 2 (computer, 4)" in out


def test_rules_run_test_and_check() -> None:
    code, out, _ = tabletop("rules", "connect4")
    assert code == 0 and "drop 4" in out and "-o columns" in out
    code, out, err = tabletop(
        "run", "connect4", "-o", "connect=3", "--actions", "-", "--json", stdin="1\n1\n2\n2\n3\n"
    )
    assert code == 0, err
    summary = json.loads(out)
    assert summary["winners"] == [1] and summary["view"]["line"] == [[1, 1], [2, 1], [3, 1]]
    code, out, _ = tabletop("test", "--game", "connect4", "--coverage")
    assert code == 0 and "0 failed, 0 errors" in out
    code, out, _ = tabletop("check", "connect4", "--games", "5")
    assert code == 0 and "FAILED" not in out

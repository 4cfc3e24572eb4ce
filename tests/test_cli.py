"""The CLI contract: games, run, play, replay and every error path (through typer's runner)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tabletop.cli.app import app
from tabletop.core.records import load

runner = CliRunner()

# Player 2 completes rank 1 with four light pieces (LSRF LTRF LSQF LTQF share "light").
WIN = [
    "give LSRF",
    "place a1",
    "give LTRF",
    "place b1",
    "give LSQF",
    "place c1",
    "give DSRF",
    "place a4",
    "give LTQF",
    "place d1",
]


def run(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args), input=stdin)
    return result.exit_code, result.stdout, result.stderr


def test_games_json_lists_quarto_with_options() -> None:
    code, out, _ = run("games", "--json")
    assert code == 0
    games = {g["id"]: g for g in json.loads(out)}
    quarto = games["quarto"]
    assert quarto["min_players"] == quarto["max_players"] == 2
    assert quarto["version"]
    options = {o["name"]: o for o in quarto["options"]}
    assert set(options) == {"squares", "attributes", "claim"}
    assert options["claim"]["default"] == "auto"
    assert options["claim"]["allowed"] == ["auto", "manual"]
    assert all(o["help"] for o in options.values())
    levels = {level["name"] for level in quarto["ai_levels"]}
    assert {"1", "2", "3", "4", "5", "random", "basic"} <= levels


def test_rules_prints_notation() -> None:
    code, out, _ = run("rules", "quarto")
    assert code == 0 and "DTRH" in out and "place" in out


def test_run_a_whole_game_json() -> None:
    code, out, _ = run(
        "run",
        "quarto",
        "--actions",
        "-",
        "--json",
        "--reveal",
        stdin="\n".join(["# a comment", "", *WIN]) + "\n",
    )
    assert code == 0
    data = json.loads(out)
    assert data["status"] == "over" and data["winners"] == [2] and data["to_act"] is None
    assert data["legal"] == []
    assert set(data) >= {
        "game",
        "options",
        "players",
        "status",
        "winners",
        "to_act",
        "legal",
        "scores",
        "view",
        "state",
    }
    assert data["state"]["board"]["d1"] == "LTQF"


def test_trace_prints_a_line_per_action() -> None:
    code, out, _ = run("run", "quarto", "--actions", "-", "--trace", stdin="\n".join(WIN[:4]))
    lines = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    assert code == 0
    assert [line["action"] for line in lines] == WIN[:4]
    assert lines[-1]["to_act"] == 1 and lines[-1]["legal"][0].startswith("give")


def test_illegal_action_exit_1_one_line_and_position_before() -> None:
    code, out, err = run(
        "run",
        "quarto",
        "--actions",
        "-",
        "--json",
        stdin="give DTRH\nplace b2\ngive LSRF\nplace b2\n",
    )
    assert code == 1
    assert err.count("\n") == 1 and "Traceback" not in err
    assert "action 4 'place b2'" in err and "Q3.3" in err and "allowed:" in err
    data = json.loads(out)
    assert data["error"] and data["state" if "state" in data else "view"]["in_hand"] == "LSRF"
    assert data["view"]["board"] == {"b2": "DTRH"}


@pytest.mark.parametrize(
    ("args", "fragment", "status"),
    [
        (["run", "chess"], "unknown game 'chess'; installed games:", 2),
        (["run", "quarto", "-o", "colour=1"], "unknown option 'colour'", 2),
        (["run", "quarto", "-o", "claim=sometimes"], "allowed: auto, manual", 2),
        (["run", "quarto", "-o", "squares"], "KEY=VALUE", 2),
        (["run", "quarto", "--actions", "/no/such/file"], "no such actions file", 2),
        (["run", "quarto", "--from", "/no/such/file"], "no such position file", 2),
        (["play", "quarto", "--load", "/no/such/save"], "no such save file", 1),
        (["run", "quarto", "--players", "3"], "for 2 players", 2),
        (["play", "quarto", "--ai", "3"], "seat", 2),
        (["play", "quarto", "--ai", "2:grandmaster"], "unknown AI level", 2),
    ],
)
def test_error_paths_one_line_no_traceback(args: list[str], fragment: str, status: int) -> None:
    code, _, err = run(*args)
    assert code == status
    assert fragment in err and err.count("\n") == 1 and "Traceback" not in err


def test_typo_in_an_action_names_the_forms() -> None:
    code, _, err = run("run", "quarto", "--actions", "-", stdin="giv DTRH\n")
    assert code == 1 and "action 1 'giv DTRH'" in err and "give <piece>" in err


def test_from_impossible_position(tmp_path: Path) -> None:
    position = tmp_path / "pos.json"
    position.write_text(json.dumps({"board": {"a1": "DTRH", "b2": "DTRH"}, "to_act": 1}))
    code, _, err = run("run", "quarto", "--from", str(position))
    assert code == 1 and "DTRH is on both a1 and b2" in err
    position.write_text("{broken")
    code, _, err = run("run", "quarto", "--from", str(position))
    assert code == 1 and "not JSON" in err


def test_from_position_then_actions(tmp_path: Path) -> None:
    position = tmp_path / "pos.json"
    position.write_text(
        json.dumps(
            {
                "board": {"a2": "LTRF", "b2": "DTRF", "c2": "LTQH"},
                "in_hand": "DTQH",
                "to_act": 1,
                "last_placed": "c2",
            }
        )
    )
    code, out, _ = run(
        "run", "quarto", "--from", str(position), "--actions", "-", "--json", stdin="place d2\n"
    )
    data = json.loads(out)
    assert code == 0 and data["winners"] == [1]  # Q7.1: four tall on rank 2


def test_play_hot_seat_from_stdin_with_help_undo_and_save(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    words = [
        "help",
        "give DTRH",
        "place b2",
        "give LSRF",
        "undo",
        "give LTRF",
        "place c3",
        "save",
        "quit",
    ]
    code, out, _ = run(
        "play", "quarto", "--seed", "7", "--save", str(save), stdin="\n".join(words) + "\n"
    )
    assert code == 0
    assert "legal: give LSRF" in out
    assert "took back 1 action" in out
    assert load(save).actions == ["give DTRH", "place b2", "give LTRF", "place c3"]
    code, out, _ = run("play", "quarto", "--load", str(save), stdin="give LSRF\nquit\n")
    assert code == 0
    assert load(save).actions[-1] == "give LSRF"
    code, out, _ = run("replay", str(save))
    assert code == 0 and "5. player 1: give LSRF" in out


def test_play_against_the_computer_and_undo_takes_its_reply(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    code, out, _ = run(
        "play", "quarto", "--ai", "2:basic", "--save", str(save), stdin="give DTRH\nundo\nquit\n"
    )
    assert code == 0 and "(computer, basic)" in out
    assert "took back 3 action(s)" in out
    assert load(save).actions == []
    assert load(save).seats == {"2": "basic"}


def test_play_refused_action_keeps_the_game(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    code, out, _ = run(
        "play",
        "quarto",
        "--save",
        str(save),
        stdin="give DTRH\nplace z9\ngive LSRF\nplace a1\nquit\n",
    )
    assert code == 0 and "not a square" in out
    assert load(save).actions == ["give DTRH", "place a1"]


def test_computer_against_computer_finishes() -> None:
    code, out, _ = run("play", "quarto", "--ai", "1:random", "--ai", "2:basic", "--seed", "3")
    assert code == 0 and "Game over" in out


@pytest.mark.parametrize("damage", ["truncate", "edit", "garbage", "other-game"])
def test_damaged_save_is_refused(tmp_path: Path, damage: str) -> None:
    save = tmp_path / "game.json"
    run("play", "quarto", "--save", str(save), stdin="give DTRH\nplace b2\nquit\n")
    text = save.read_text()
    if damage == "truncate":
        save.write_text(text[: len(text) // 2])
    elif damage == "edit":
        save.write_text(text.replace("place b2", "place c3"))
    elif damage == "garbage":
        save.write_bytes(b"\x00\xff" * 10)
    else:
        save.write_text(text.replace('"game": "quarto"', '"game": "nothing"'))
    code, _, err = run("play", "quarto", "--load", str(save))
    assert code == 1 and err.count("\n") == 1 and "Traceback" not in err
    assert str(save) in err


def test_series_rotates_the_deal_and_totals() -> None:
    code, out, _ = run(
        "play", "quarto", "--ai", "1:1", "--ai", "2:2", "--games", "4", "--seed", "11"
    )
    assert code == 0
    assert "game 2 of 4: seat 2 starts" in out and "final table" in out


def test_solve_a_position_and_refuse_too_deep(tmp_path: Path) -> None:
    position = tmp_path / "pos.json"
    position.write_text(json.dumps({
        "board": {"a1": "LSRF", "b2": "DTQH", "c3": "LTQF", "a2": "DSRH", "d1": "LTRF",
                  "c1": "DSQF"},
        "in_hand": "DTRF", "to_act": 1,
    }))  # fmt: skip
    code, out, _ = run("solve", "quarto", "--from", str(position), "--json")
    data = json.loads(out)
    assert code == 0 and data["value"] == "win" and data["placements"] == 1
    assert data["best"] == "place b1" and data["exact"] is True
    code, out, _ = run("solve", "quarto", "--seconds", "0.2")
    assert code == 0 and "too deep for the budget" in out


def test_ai_seat_by_lot_is_seeded_and_saved(tmp_path: Path) -> None:
    """Q3.1: who is player 1 may be decided by lot; the lot follows the seed."""
    from tabletop.core.setup import ai_by_seat

    drawn = {next(iter(ai_by_seat(["lot:1"], 2, seed))) for seed in range(40)}
    assert drawn == {1, 2}
    assert ai_by_seat(["lot:1"], 2, 5) == ai_by_seat(["lot:1"], 2, 5)
    assert ai_by_seat(["1:2", "lot"], 2, 5) == {1: "2", 2: None}
    save = tmp_path / "game.json"
    code, out, _ = run(
        "play", "quarto", "--ai", "lot:1", "--seed", "11", "--save", str(save), stdin="quit\n"
    )
    seat = next(iter(ai_by_seat(["lot:1"], 2, 11)))
    assert code == 0 and f"drawn by lot: the computer plays player {seat} (1)" in out
    assert load(save).seats == {str(seat): "1"}
    code, _, err = run("play", "quarto", "--ai", "1", "--ai", "2", "--ai", "lot")
    assert code == 2 and "every seat is taken" in err


def test_a_save_from_other_rules_names_both_versions() -> None:
    """A record that no longer replays says which rules version wrote it (plugins.md §16)."""
    from tabletop.core.errors import RecordError
    from tabletop.core.match import Match
    from tabletop.core.records import Record
    from tests.quarto_helpers import quarto

    record = Record(
        game="quarto",
        game_version="0.9.0",
        players=2,
        options={},
        seed=0,
        actions=["give DTRH", "place z9"],
    )
    with pytest.raises(RecordError, match=r"saved with quarto 0\.9\.0, installed .*z9"):
        Match.from_record(quarto(), record, "save file old.json")
    odd = record.model_copy(update={"options": {"colour": "true"}, "actions": []})
    with pytest.raises(RecordError, match=r"save file old\.json has options this game refuses"):
        Match.from_record(quarto(), odd, "save file old.json")


def test_solve_with_no_limit_and_a_bad_budget(tmp_path: Path) -> None:
    """`--seconds 0` solves to the end (an exact value however long it takes); a negative
    budget is a usage error, one line, exit 2."""
    import random

    from tabletop_quarto.pieces import ATTRIBUTES
    from tabletop_quarto.position import to_json
    from tabletop_quarto.rules import PLACE, make_rules
    from tests.test_quarto_solver import random_position

    rng = random.Random(4)
    state = random_position(make_rules(False, frozenset(ATTRIBUTES), False), 9, PLACE, rng)
    position = tmp_path / "pos.json"
    position.write_text(json.dumps(to_json(state)))
    code, out, _ = run("solve", "quarto", "--from", str(position), "--seconds", "0", "--json")
    data = json.loads(out)
    assert code == 0 and data["exact"] is True and data["value"] in ("win", "draw", "loss")
    code, out, err = run("solve", "quarto", "--seconds", "-1")
    assert (
        code == 2
        and out == ""
        and err == "tabletop: --seconds must be 0 (no limit) or more, not -1\n"
    )

"""``resign`` and ``draw`` typed at the prompt of ``tabletop play``: confirmed, answered by
the other person at once or by the computer, saved, and shown again by ``--load``."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from tabletop.cli.app import app
from tabletop.core.records import Forfeit, load

runner = CliRunner()


def play(*args: str, typed: list[str]) -> str:
    result = runner.invoke(app, ["play", *args], input="\n".join(typed) + "\n")
    assert result.exit_code == 0, result.output
    return result.stdout


def test_resign_asks_first_and_then_ends_the_game_for_the_other_player(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    out = play("quarto", "--seed", "7", "--save", str(save),
               typed=["give DTRH", "resign", "n", "resign", "yes"])  # fmt: skip
    assert "really resign? (y/n)" in out and "not resigned; play on" in out
    assert "Game over: player 1 won. player 2 resigned" in out
    assert "rules, resign, draw," in out  # the help line names them
    record = load(save)
    assert record.forfeit == Forfeit(player=2, reason="resigned")
    assert record.actions == ["give DTRH"]
    again = play("quarto", "--load", str(save), typed=[])
    assert "Game over: player 1 won. player 2 resigned" in again


def test_a_draw_is_asked_of_the_other_person_at_once(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    out = play("quarto", "--seed", "7", "--save", str(save),
               typed=["give DTRH", "draw", "n", "draw", "place a1", "draw", "y"])  # fmt: skip
    assert "player 2 offers a draw. player 1, do you accept? (y/n)" in out
    assert "player 1 declines the draw; play on" in out
    assert "cannot offer a draw: your offer was declined; offer again after the next" in out
    assert "Game over: a draw. the players agreed to a draw" in out
    record = load(save)
    assert record.forfeit == Forfeit(player=2, reason="agreed-draw")  # place, then give (Q3)
    assert record.actions == ["give DTRH", "place a1"]


def test_the_computer_declines_and_the_game_goes_on(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    out = play("quarto", "--ai", "2:1", "--save", str(save), typed=["draw", "give DTRH", "quit"])
    assert "player 2 (computer) declines the draw; play on" in out
    assert load(save).forfeit is None and load(save).actions[0] == "give DTRH"


def test_a_games_own_draw_action_is_still_an_action(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    out = play("ctverak", "--seed", "3", "--save", str(save), typed=["", "draw stock", "quit"])
    assert "offers a draw" not in out and "cannot offer" not in out  # after Enter (the pass)
    assert "no draw now (K4.1)" in out  # the game's own refusal of its action


def test_with_hidden_hands_the_screen_is_passed_for_the_answer_and_back_in_czech() -> None:
    out = play("ctverak", "--seed", "3", "--lang", "cs",
               typed=["", "remíza", "", "n", "", "vzdát", "a"])  # fmt: skip
    asked = out.index("hráč 1 nabízí remízu. hráč 2, přijímáte? (a/n)")
    assert out.rindex("Předejte hráči: hráč 2 a stiskněte Enter", 0, asked) >= 0
    back = out.index("Předejte hráči: hráč 1 a stiskněte Enter", asked)
    assert out.index("hráč 2 remízu odmítá; hraje se dál") > back  # told after the pass
    assert "opravdu se vzdát? (a/n)" in out and "hráč 1 se vzdal" in out

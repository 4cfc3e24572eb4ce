"""Quartino through the command line: hidden information (N7) in every output, hot-seat
play, the computer players and the error paths (typer's runner on ``tabletop.cli.app``).

The rule tested throughout: while the game runs, an output meant for player P (``run
--json`` shows the view of the player to act; ``play`` shows the player whose turn it is)
carries no card of another player's stand and no card out of play; ``--reveal`` carries
everything; once the game is over everything may be shown. Games are played by the basic
agent through the game API (it never makes a false claim, so no hidden card is ever named
in an action) and fed to the CLI; the API's states say which cards are hidden when.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from tabletop.agents.base import Turn
from tabletop.agents.facet import players_of
from tabletop.cli.app import app
from tabletop.core.match import Match
from tabletop.core.records import load
from tabletop_quartino.cards import deck
from tabletop_quartino.game import QuartinoGame
from tabletop_quartino.position import codes, out_of_play
from tabletop_quartino.rules import QuartinoOptions, State

GAME = QuartinoGame()
runner = CliRunner()
CARD = re.compile(r"[YBGP]\|[YBGP]{3}")
PASS = re.compile(r"Pass to player (\d) and press Enter")


def run(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args), input=stdin)
    return result.exit_code, result.stdout, result.stderr


def agent_game(players: int, seed: int, **options: Any) -> tuple[list[str], list[State]]:
    """A whole game of basic agents: the action texts and the states (initial first)."""
    opts = QuartinoOptions(**options)
    agent = players_of(GAME).agents()["basic"]()
    rng = random.Random(seed)
    state = Match(GAME, players, opts, seed).state  # the deal as `run --seed` draws it
    texts: list[str] = []
    states = [state]
    while (player := GAME.to_act(state)) is not None:
        turn = Turn(GAME, player, players, opts, GAME.view(state, player), GAME.legal(state), rng)
        action = agent.act(turn)
        texts.append(GAME.format(state, action))
        state = GAME.apply(state, action)
        states.append(state)
    return texts, states


def stand(state: State, player: int) -> set[str]:
    return set(codes(state.stands[player - 1]))


def hidden_from(state: State, player: int | None) -> set[str]:
    """The cards ``player`` may not see now: the others' stands and the cards out of play."""
    others = {c for p in range(1, len(state.stands) + 1) if p != player for c in stand(state, p)}
    return others | set(codes(out_of_play(state)))


COLOUR_WORDS = {"Y": "yellow", "B": "blue", "G": "green", "P": "pink"}


def in_words(code: str) -> str:
    """A card as the log's words name it in English: ``pink | yellow blue green``."""
    centre, ring = code.split("|")
    return f"{COLOUR_WORDS[centre]} | {' '.join(COLOUR_WORDS[c] for c in ring)}"


def leaked(text: str, hidden: set[str]) -> set[str]:
    """The hidden cards that appear in ``text`` (each code searched in the raw text, in
    notation and in words)."""
    return {code for code in hidden if code in text or in_words(code) in text}


def stdin_of(lines: list[str]) -> str:
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------- run --json, --reveal


@pytest.mark.parametrize("players", [2, 3, 4])
def test_run_json_without_reveal_carries_no_other_players_cards(players: int) -> None:
    texts, states = agent_game(players, seed=players)
    for cut in (0, len(texts) // 3, len(texts) // 2, len(texts) - 1):  # all before the end
        state = states[cut]
        to_act = state.to_act
        assert to_act, "the game must still be running"
        code, out, err = run(
            "run",
            "quartino",
            "-p",
            str(players),
            "--seed",
            str(players),
            "--actions",
            "-",
            "--json",
            stdin=stdin_of(texts[:cut]),
        )
        assert code == 0, err
        assert leaked(out, hidden_from(state, to_act)) == set()
        data = json.loads(out)
        assert data["to_act"] == to_act and "state" not in data
        assert set(data["view"]["stand"]) == stand(state, to_act)
        assert data["view"]["stand_size"] == {
            str(p): len(state.stands[p - 1]) for p in range(1, players + 1)
        }
        assert "stands" not in data["view"] and "out_of_play" not in data["view"]


@pytest.mark.parametrize("players", [2, 4])
def test_run_json_with_reveal_carries_every_card(players: int) -> None:
    texts, states = agent_game(players, seed=10 + players)
    cut = len(texts) // 2
    state = states[cut]
    code, out, _ = run(
        "run",
        "quartino",
        "-p",
        str(players),
        "--seed",
        str(10 + players),
        "--actions",
        "-",
        "--json",
        "--reveal",
        stdin=stdin_of(texts[:cut]),
    )
    assert code == 0
    for code_ in hidden_from(state, state.to_act):
        assert code_ in out
    data = json.loads(out)
    assert data["state"] == GAME.to_json(state)
    assert data["state"]["out_of_play"] == codes(out_of_play(state))
    assert len(data["state"]["out_of_play"]) == 24 - 4 * players


@pytest.mark.parametrize("players", [2, 3, 4])
def test_trace_lines_show_only_the_acting_players_stand_until_the_end(players: int) -> None:
    texts, states = agent_game(players, seed=20 + players)
    code, out, err = run(
        "run",
        "quartino",
        "-p",
        str(players),
        "--seed",
        str(20 + players),
        "--actions",
        "-",
        "--json",
        "--trace",
        stdin=stdin_of(texts),
    )
    assert code == 0, err
    lines = out.splitlines()
    assert len(lines) == len(texts) + 1  # a line per action, then the summary
    dealt = 4 * players  # the deal's chance steps are actions 1-dealt (issue 35), no lines
    for number, line in enumerate(lines[:-2], start=1):  # every line before the game is over
        state = states[number]
        step = json.loads(line)
        assert step["number"] == dealt + number and step["action"] == texts[number - 1]
        assert step["to_act"] == state.to_act and "state" not in step
        assert leaked(line, hidden_from(state, state.to_act)) == set(), (number, line)
    # The last action ends the game: the spectator's view shows every stand and the
    # cards out of play (N7: all may be revealed once it is over).
    end = states[-1]
    last = json.loads(lines[-1])
    assert last["status"] == "over" and last["winners"] == [end.winner]
    assert hidden_from(end, None) <= set(CARD.findall(lines[-1]))
    assert last["view"]["out_of_play"] == codes(out_of_play(end))


def test_cards_out_of_play_never_appear_before_the_end_in_any_run_output() -> None:
    texts, states = agent_game(3, seed=5)
    unseen = set(codes(out_of_play(states[0])))
    assert len(unseen) == 12
    outputs = []
    for extra in ([], ["--json"], ["--json", "--trace"], ["--trace"]):
        code, out, err = run(
            "run",
            "quartino",
            "-p",
            "3",
            "--seed",
            "5",
            "--actions",
            "-",
            *extra,
            stdin=stdin_of(texts[:-1]),
        )
        assert code == 0, err
        outputs.append(out + err)
    for out in outputs:
        assert leaked(out, unseen) == set()
    # The text form draws the acting player's stand and nobody else's.
    state = states[-2]
    assert stand(state, state.to_act) <= set(CARD.findall(outputs[0]))
    assert leaked(outputs[0], hidden_from(state, state.to_act)) == set()


# ---------------------------------------------------------------- errors tell nothing hidden


def _position_file(tmp_path: Path) -> Path:
    """Player 1 to act, nothing owed: P|YBG shows at k=5 (N8.1)."""
    path = tmp_path / "position.json"
    path.write_text(
        json.dumps(
            {
                "board": {"c": ["P"], "r5": ["Y"], "r6": ["B"], "r7": ["G"]},
                "supply": {"Y": 6, "B": 6, "G": 6, "P": 6},
                "stands": {"1": ["P|YBG", "Y|BGP"], "2": ["B|YGP", "G|YBP"]},
                "done": {"1": [], "2": []},
                "to_act": 1,
                "owed": 0,
            }
        )
    )
    return path


def test_refusing_a_card_not_held_says_the_same_for_a_rival_card_and_an_unseen_one(
    tmp_path: Path,
) -> None:
    position = _position_file(tmp_path)
    answers = []
    for card in ("B|YGP", "G|YPB"):  # player 2 holds B|YGP; G|YPB is out of play
        code, out, err = run(
            "run",
            "quartino",
            "--from",
            str(position),
            "--actions",
            "-",
            "--json",
            stdin=f"claim {card} 3\n",
        )
        assert code == 1 and err.count("\n") == 1 and "Traceback" not in err
        assert f"{card} is not on your stand; you may claim only your own cards (N4.4)" in err
        # Besides the card typed, the message names only player 1's own cards.
        assert set(CARD.findall(err)) - {card} <= {"P|YBG", "Y|BGP"}
        assert leaked(out, {"B|YGP", "G|YBP", "G|YPB"} - {card}) == set()
        answers.append(err.replace(card, "CARD"))
    assert answers[0] == answers[1]


def test_a_false_claim_through_the_cli_passes_the_turn_and_hides_the_stand(
    tmp_path: Path,
) -> None:
    code, out, err = run(
        "run",
        "quartino",
        "--from",
        str(_position_file(tmp_path)),
        "--actions",
        "-",
        "--json",
        stdin="claim P|YBG 4\n",
    )
    assert code == 0, err
    data = json.loads(out)
    assert data["to_act"] == 2 and data["view"]["stand"] == ["B|YGP", "G|YBP"]
    assert data["view"]["stand_size"] == {"1": 2, "2": 2}
    assert "Y|BGP" not in out  # player 1's other card stays secret
    assert data["view"]["check"]["text"] == "no situation; 1 placement owed"


def test_the_end_of_a_game_reveals_every_stand(tmp_path: Path) -> None:
    path = tmp_path / "last.json"
    path.write_text(
        json.dumps(
            {
                "board": {"c": ["P"], "r5": ["Y"], "r6": ["B"], "r7": ["G"]},
                "supply": {"Y": 6, "B": 6, "G": 6, "P": 6},
                "stands": {"1": ["P|YBG"], "2": ["B|YGP", "G|YBP"]},
                "done": {"1": ["Y|PGB", "B|GPY", "G|BYP"], "2": []},
                "to_act": 1,
                "owed": 0,
            }
        )
    )
    code, out, _ = run("run", "quartino", "--from", str(path), "--json")
    assert code == 0 and "B|YGP" not in out and "G|YBP" not in out
    code, out, _ = run(
        "run",
        "quartino",
        "--from",
        str(path),
        "--actions",
        "-",
        "--json",
        stdin="claim P|YBG 5\n",
    )
    data = json.loads(out)
    assert code == 0 and data["status"] == "over" and data["winners"] == [1]
    assert data["view"]["stands"] == {"1": [], "2": ["B|YGP", "G|YBP"]}
    assert len(data["view"]["out_of_play"]) == 24 - 6


# ---------------------------------------------------------------- hot-seat play


def _hot_seat_input(texts: list[str], states: list[State]) -> tuple[list[str], list[int]]:
    """The lines two or more humans type: Enter at each "pass to" prompt, then the turn's
    actions (with ``hint`` and ``help`` now and then). Also the players in turn order."""
    lines: list[str] = []
    turns: list[int] = []
    for number, text in enumerate(texts):
        player = states[number].to_act
        if not turns or states[number - 1].to_act != player:
            lines.append("")
            turns.append(player)
            if len(turns) % 3 == 0:
                lines.extend(["hint", "help"])
        lines.append(text)
    return lines, turns


def _segments(out: str) -> list[tuple[int, str]]:
    """The output split at the "pass to player N" prompts: (N, what was shown after it)."""
    marks = list(PASS.finditer(out))
    ends = [mark.start() for mark in marks[1:]] + [len(out)]
    return [
        (int(mark.group(1)), out[mark.end() : end]) for mark, end in zip(marks, ends, strict=True)
    ]


def assert_each_turn_private(out: str, texts: list[str], states: list[State]) -> list[int]:
    """Between two "pass to" prompts only the player whose turn it is sees their stand:
    no card of another stand, none out of play. Returns the players prompted, in order."""
    first = PASS.search(out)
    assert first is not None, out[:500]
    assert CARD.findall(out[: first.start()]) == []  # nothing drawn before the first prompt
    segments = _segments(out)
    number = 0  # the first action of the turn shown in the segment
    for index, (player, shown) in enumerate(segments):
        state = states[number]
        assert state.to_act == player, (index, player)
        if index == len(segments) - 1:
            shown = shown[: shown.rindex("›")]  # after the last prompt: the end of the game
        assert leaked(shown, hidden_from(state, player)) == set(), (index, player)
        assert stand(state, player) <= set(CARD.findall(shown)), (index, player)
        assert f"player {player} — " in shown
        others = [f"player {p} — " for p in range(1, len(state.stands) + 1) if p != player]
        assert not any(prompt in shown for prompt in others), (index, player)
        while number < len(texts) and states[number].to_act == player:
            number += 1
    assert number == len(texts)
    return [player for player, _ in segments]


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2)])
def test_hot_seat_passes_the_screen_and_shows_each_player_only_their_stand(
    players: int, seed: int
) -> None:
    texts, states = agent_game(players, seed)
    lines, turns = _hot_seat_input(texts, states)
    code, out, err = run(
        "play", "quartino", "-p", str(players), "--seed", str(seed), stdin=stdin_of(lines)
    )
    assert code == 0, err
    assert assert_each_turn_private(out, texts, states) == turns  # a prompt before each turn
    end = out[out.rindex("›") :]
    assert f"Game over: player {states[-1].winner} won." in end
    assert hidden_from(states[-1], None) <= set(CARD.findall(end))  # revealed at the end
    assert "closest:" in out or "matches at k=" in out  # the hint answered
    assert "legal: " in out  # and help


def test_hot_seat_quit_mid_game_shows_no_other_stand() -> None:
    texts, states = agent_game(2, seed=8)
    lines, turns = _hot_seat_input(texts[:12], states)
    code, out, _ = run("play", "quartino", "--seed", "8", stdin=stdin_of([*lines, "", "quit"]))
    assert code == 0 and "bye" in out
    prompted = assert_each_turn_private(out, texts[:12], states[:13])
    assert prompted[: len(turns)] == turns


# ---------------------------------------------------------------- computer players


def test_play_against_basic_shows_none_of_its_cards(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    round_ = ["place Y c", "place B r1", "place G r2", "place P r3", "end"]
    code, out, err = run(
        "play",
        "quartino",
        "--ai",
        "2:basic",
        "--seed",
        "4",
        "--save",
        str(save),
        stdin=stdin_of(["hint", *round_ * 5]),
    )
    assert code == 0, err
    assert "player 2 (computer, basic): place" in out
    assert "Pass to player" not in out  # one human: nothing to hide between turns
    record = load(save)
    assert record.seats == {"2": "basic"}
    state = GAME.new(2, QuartinoOptions(), 4)
    for text in record.actions:  # the deal first: the record states it
        state = GAME.apply(state, GAME.parse(state, text))
    assert GAME.outcome(state) is None and state.turns >= 8
    # Only cards the computer has shown by a true claim (done) may appear.
    assert leaked(out, hidden_from(state, 1)) == set()
    assert stand(state, 1) <= set(CARD.findall(out))
    # Refused words are answered with a rule, and the game goes on.
    assert "no placement is owed now; claim a card of yours or end the turn (N4.2)" in out


def test_a_computers_false_claim_is_a_hidden_action_on_the_screen(tmp_path: Path) -> None:
    """N4.4: a false claim names a card of the computer's own stand; the screen, and the
    replay of the unfinished game, say a hidden action was played, never the claim's text
    (the record keeps it)."""
    save = tmp_path / "game.json"
    turns = ["place Y c", "end", "place B r1", "end", "place G r2", "end", "place P r3", "end"]
    code, out, err = run(
        "play", "quartino", "--ai", "2:1", "--seed", "4", "--save", str(save),
        stdin=stdin_of([*turns, "quit"]),
    )  # fmt: skip
    assert code == 0, err
    assert "player 2 (computer, 1): a hidden action" in out
    state = GAME.new(2, QuartinoOptions(), 4)
    false_claims = []
    for text in load(save).actions:
        action = GAME.parse(state, text)
        if GAME.to_act(state) == 2 and GAME.hides(state, action):
            false_claims.append(text)
        state = GAME.apply(state, action)
    assert false_claims, "seed 4's random computer makes a false claim"
    assert all(f": {text}" not in out for text in false_claims)
    code, shown, err = run("replay", str(save))
    assert code == 0, err
    assert "player 2: a hidden action" in shown and "player 1: place yellow on c" in shown
    assert all(text not in shown for text in false_claims)


@pytest.mark.parametrize("seats", [["1:basic", "2:basic"], ["1:random", "2:basic", "3:basic"]])
def test_computer_players_finish_a_game(seats: list[str]) -> None:
    args = [item for seat in seats for item in ("--ai", seat)]
    code, out, err = run("play", "quartino", "-p", str(len(seats)), "--seed", "2", *args)
    assert code == 0, err
    assert "(computer, basic): claim" in out
    assert "Game over" in out


def test_replay_of_an_unfinished_game_shows_no_stand(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    texts, states = agent_game(2, seed=6)
    lines, _ = _hot_seat_input(texts[:20], states)
    run("play", "quartino", "--seed", "6", "--save", str(save), stdin=stdin_of([*lines, "quit"]))
    actions = load(save).actions  # the deal first: 8 chance outcomes (issue 35)
    assert [a.split()[0] for a in actions[:8]] == ["deal"] * 8 and actions[8:] == texts[:20]
    code, out, _ = run("replay", str(save))
    assert code == 0 and "not finished" in out
    done = {c for cards in states[20].done for c in codes(cards)}
    assert set(CARD.findall(out)) <= done


# ---------------------------------------------------------------- catalogue and errors


def test_games_json_lists_quartino_options_with_defaults_and_help() -> None:
    code, out, _ = run("games", "--json")
    assert code == 0
    quartino = {g["id"]: g for g in json.loads(out)}["quartino"]
    assert (quartino["min_players"], quartino["max_players"]) == (2, 4)
    options = {o["name"]: o for o in quartino["options"]}
    names: tuple[str, ...] = ("situations", "mirror", "max_turns", "start")
    names += ("hand", "cards", "ring", "pawns", "setup")
    assert set(options) == set(names)
    # the research variants' defaults are the printed rules' (issue 36)
    assert [options[n]["default"] for n in names] == [
        True,
        False,
        400,
        "first",
        4,
        24,
        8,
        7,
        "empty",
    ]
    assert all(o["help"] for o in options.values())
    assert {"random", "basic"} <= {level["name"] for level in quartino["ai_levels"]}


def test_rules_show_the_notation() -> None:
    code, out, _ = run("rules", "quartino")
    assert code == 0 and "claim P|YBG 5" in out and "place Y r3" in out


BAD = [
    (["run", "quartino", "-o", "max_turns=0"], "max_turns", 2),
    (["run", "quartino", "-o", "max_turns=many"], "max_turns", 2),
    (["run", "quartino", "-o", "mirror=perhaps"], "mirror", 2),
    (["run", "quartino", "-o", "start=youngest"], "first, lot", 2),
    (["run", "quartino", "-o", "colours=3"], "unknown option 'colours'", 2),
    (["run", "quartino", "-p", "5"], "2-4 players", 2),
    (["play", "quartino", "-p", "1"], "2-4 players", 2),
    (["play", "quartino", "--ai", "3:basic"], "seat must be a player number 1-2", 2),
    (["play", "quartino", "--ai", "2:grandmaster"], "unknown AI level", 2),
    (["check", "quartino", "-p", "5", "--games", "1"], "Quartino is for 2-4 players, not 5", 2),
]


@pytest.mark.parametrize(("args", "fragment", "status"), BAD)
def test_error_paths_one_line(args: list[str], fragment: str, status: int) -> None:
    code, out, err = run(*args, stdin="")
    assert code == status, (out, err)
    assert err.count("\n") == 1 and err.startswith("tabletop: ") and fragment in err
    assert "Traceback" not in err and CARD.findall(out + err) == []


IMPOSSIBLE = [
    ({"board": {"r0": ["Y"] * 8}, "supply": {"Y": 0, "B": 7, "G": 7, "P": 7}}, "8 yellow pawns"),
    ({"stands": {"1": ["P|YBG"], "2": ["P|YBG"]}}, "held twice"),
    ({"stands": {"1": ["P|YBG", "Y|BGP", "B|YGP", "G|YBP", "Y|PGB"], "2": []}}, "at most 4"),
    ({"board": {"r9": ["Y"]}}, "unknown field"),
]


@pytest.mark.parametrize(("change", "fragment"), IMPOSSIBLE)
def test_from_an_impossible_position_one_line(
    tmp_path: Path, change: dict[str, Any], fragment: str
) -> None:
    data = json.loads(_position_file(tmp_path).read_text())
    data.update(change)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    code, _, err = run("run", "quartino", "--from", str(path))
    assert code == 1 and err.count("\n") == 1 and fragment in err and "Traceback" not in err


def test_illegal_action_exit_1_and_position_before() -> None:
    code, out, err = run(
        "run", "quartino", "--actions", "-", "--json", stdin="place Y c\nplace B c\n"
    )
    assert code == 1 and err.count("\n") == 1
    # action 10: the deal's 8 chance outcomes are actions 1-8 (issue 35)
    assert "action 10 'place B c' refused: no placement is owed now;" in err and "(N4.2)" in err
    data = json.loads(out)
    assert data["view"]["board"]["c"] == ["Y"] and data["to_act"] == 1
    assert "N4.2" in data["error"]
    assert len(deck()) == 24


def test_the_kit_passes_over_every_player_count_and_option_combination() -> None:
    """``tabletop check quartino`` plays a pairwise sample of the player counts and option
    values (the research variants of issue 36 make 1,536 combinations): every pair of two
    values is played together in some game, except the decks the game refuses (N2.1)."""
    from tabletop.testing import check_game

    report = check_game("quartino", games=1, seed=0, max_configs=48)
    assert report.ok, report.text()
    assert len(set(report.configs)) >= 12
    assert all(stats.runs > 0 for stats in report.checks.values()), report.text()
    assert all("cards=3" in line for line in report.refused), report.refused

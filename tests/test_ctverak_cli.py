"""Čtverák through the command line: what `run` and `play` may show (K8), and errors.

Hands, the stock's order and the bases are secret (K8): `run --json` and every `--trace`
line carry the view of the player to act only, `--reveal` adds the full position (K10),
hot-seat `play` asks for the next player before showing a hand, a computer player's draw
from the stock shows no card, and the bases appear once the game is over (K2.2).

The half deck (K1.1) holds every natural card once, so a card code (``QH``) or a drawn
card face (``Q♥``) in the output can only be that one card: the tests collect every card
the output names and compare it with what the player may see, taken from the game's own
state (replayed through :class:`~tabletop.core.match.Match`). Jokers (two alike) are left out.
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
from tabletop.cli.app import app
from tabletop.core.match import Match
from tabletop.core.records import load
from tabletop.game import CHANCE
from tabletop_ctverak.agents import BasicAgent
from tabletop_ctverak.cards import JOKER, card_code
from tabletop_ctverak.game import CtverakGame
from tabletop_ctverak.rules import CtverakOptions, State

runner = CliRunner()
GAME = CtverakGame()
HALF = CtverakOptions(deck="half")

CODE = re.compile(r"(?<![0-9A-Za-z#])([A2-9TJQK][SHDC])(?![0-9A-Za-z])")
FACE = re.compile(r"(10|[A2-9JQK])([♠♥♦♣])")
SUIT = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}
PASS = re.compile(r"Pass to player (\d) and press Enter ")


def run(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args), input=stdin)
    return result.exit_code, result.stdout, result.stderr


def named(text: str) -> set[str]:
    """Every natural card the text names: codes (``QH``) and drawn faces (``Q♥``)."""
    found = set(CODE.findall(text))
    found |= {("T" if rank == "10" else rank) + SUIT[suit] for rank, suit in FACE.findall(text)}
    return found


def codes(cards: tuple[int, ...]) -> set[str]:
    return {card_code(c) for c in cards if c != JOKER}


def visible(state: State, player: int) -> set[str]:
    """What ``player`` may see while the game runs (K8): own hand, every meld and pile."""
    seen = codes(state.hands[player - 1])
    for mine in state.melds:
        for meld in mine:
            seen |= codes(meld)
    for pile in state.piles:
        seen |= codes(pile)
    return seen


def secret(state: State, player: int) -> set[str]:
    """What ``player`` may not see: the others' hands, the stock, the bases."""
    hidden = codes(state.stock) | codes(state.bases)
    for p, hand in enumerate(state.hands, 1):
        if p != player:
            hidden |= codes(hand)
    return hidden


def played(players: int, seed: int, count: int, options: CtverakOptions = HALF) -> Match:
    """A match after ``count`` seeded random actions (fewer if the game ends)."""
    match = Match(GAME, players, options, seed)
    rng = random.Random(seed * 7 + players)
    while len(match.actions) < count and match.player() is not None:
        legal = GAME.legal(match.state)
        match.push(legal[rng.randrange(len(legal))])
    return match


def run_args(match: Match, *extra: str) -> list[str]:
    deck = "half" if match.state.cfg.half else "full"
    return [
        "run", "ctverak", "-p", str(match.players), "-o", f"deck={deck}",
        "--seed", str(match.seed), "--actions", "-", *extra,
    ]  # fmt: skip


def stdin_of(match: Match) -> str:
    """The players' actions: `run` draws the chance steps from the seed as the match did."""
    return "".join(
        text + "\n"
        for text, actor in zip(match.texts, match.actors, strict=True)
        if actor != CHANCE
    )


def test_the_regexes_find_codes_and_faces() -> None:
    text = '"hand": ["QH", "TS"], #1  10♥  #2   7♣ K4.3 AS X 9Dx'
    assert named(text) == {"QH", "TS", "TH", "7C", "AS"}


# ---------------------------------------------------------------- run --json / --reveal


@pytest.mark.parametrize(
    ("players", "seed", "count"), [(2, 1, 0), (3, 2, 9), (3, 3, 40), (2, 1, 150)]
)
def test_run_json_carries_only_the_acting_players_hand(players: int, seed: int, count: int) -> None:
    match = played(players, seed, count)
    state, me = match.state, match.player()
    assert me is not None, "the game must still run"
    code, out, err = run(*run_args(match, "--json"), stdin=stdin_of(match))
    assert code == 0, err
    data = json.loads(out)
    assert data["to_act"] == me and "state" not in data
    view = data["view"]
    assert view["hand"] == [card_code(c) for c in state.hands[me - 1]]
    assert "hands" not in view and "bases" not in view and view["stock"] == len(state.stock)
    shown = named(out)
    assert shown <= visible(state, me), shown - visible(state, me)
    assert not shown & secret(state, me)
    assert secret(state, me), "the check must have something to find"


@pytest.mark.parametrize(("players", "seed", "count"), [(2, 1, 0), (3, 3, 40)])
def test_run_json_reveal_carries_every_hidden_card(players: int, seed: int, count: int) -> None:
    match = played(players, seed, count)
    state = match.state
    code, out, _ = run(*run_args(match, "--json", "--reveal"), stdin=stdin_of(match))
    assert code == 0
    data = json.loads(out)
    assert named(out) >= secret(state, 1) | secret(state, 2)
    full = data["state"]
    assert full["bases"] == [card_code(c) for c in state.bases]
    assert full["stock"] == [card_code(c) for c in state.stock]  # the stock's order (K10)
    assert full["hands"] == {
        str(p): [card_code(c) for c in hand] for p, hand in enumerate(state.hands, 1)
    }
    assert "hands" not in data["view"]  # the view stays the player's own


def test_run_text_summary_shows_only_the_acting_players_hand() -> None:
    match = played(3, 5, 25)
    state, me = match.state, match.player()
    assert me is not None
    code, out, _ = run(*run_args(match), stdin=stdin_of(match))
    assert code == 0 and f"you are player {me}" in out and "your hand:" in out
    shown = named(out)
    assert shown <= visible(state, me) and not shown & secret(state, me)


def test_trace_lines_show_each_time_only_the_player_to_act() -> None:
    match = played(3, 6, 60)
    assert match.player() is not None
    code, out, _ = run(*run_args(match, "--trace"), stdin=stdin_of(match))
    assert code == 0
    lines = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    assert len(lines) == sum(actor != CHANCE for actor in match.actors)  # a line per action
    for line in lines:
        state = match.states[line["number"]]
        me = GAME.to_act(state)
        assert isinstance(me, int) and me > 0 and line["to_act"] == me  # never a chance step
        shown = named(json.dumps(line, ensure_ascii=False))
        assert shown <= visible(state, me), (line["number"], shown - visible(state, me))
        assert "state" not in line and "hands" not in line["view"]
    tail = out[out.rindex("}") + 1 :]  # the text summary after the last trace line
    assert named(tail) <= visible(match.state, match.player() or 0)


def test_trace_with_reveal_carries_the_position_after_each_action() -> None:
    match = played(2, 7, 12)
    code, out, _ = run(*run_args(match, "--trace", "--reveal"), stdin=stdin_of(match))
    assert code == 0
    lines = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    assert len(lines) == sum(actor != CHANCE for actor in match.actors)
    for line in lines:
        assert line["state"] == GAME.to_json(match.states[line["number"]])


def test_stock_and_bases_stay_unseen_until_the_end_then_the_bases_show() -> None:
    match = played(2, 8, 10_000)  # a whole random game
    final = match.state
    assert match.player() is None
    code, out, _ = run(*run_args(match, "--trace", "--json"), stdin=stdin_of(match))
    assert code == 0
    rows = out.splitlines()
    lines = [json.loads(row) for row in rows[:-1]]
    ongoing = [line for line in lines if line["status"] == "ongoing"]
    assert len(ongoing) == len(lines) - 1 and lines[-1]["status"] == "over"
    bases = codes(final.bases)
    never = codes(final.stock)  # cards never drawn: nobody ever saw them
    assert never and bases
    for line in ongoing:
        shown = named(json.dumps(line, ensure_ascii=False))
        assert not shown & bases, line["number"]
        assert not shown & never, line["number"]
    summary = json.loads(rows[-1])
    assert summary["status"] == "over"
    assert summary["view"]["bases"] == [card_code(c) for c in final.bases]  # revealed at the end
    assert summary["view"]["hands"] == {
        str(p): [card_code(c) for c in hand] for p, hand in enumerate(final.hands, 1)
    }
    assert not named(out) & never  # the stock's order is never printed


def test_a_refusal_names_no_hidden_card() -> None:
    """Discarding a card player 2 holds and one in the stock give the same message."""
    match = played(2, 9, 0)
    state = match.state
    theirs = card_code(state.hands[1][0])
    stocked = next(card_code(c) for c in state.stock if c != JOKER)
    answers = []
    for card in (theirs, stocked):
        code, out, err = run(*run_args(match, "--json"), stdin=f"discard {card} 1\n")
        assert code == 1 and err.count("\n") == 1 and "you do not hold" in err and "(K4.3)" in err
        answers.append(err.replace(card, "??"))
        assert named(out + err) - {card} <= visible(state, 1)
    assert answers[0] == answers[1]


# ---------------------------------------------------------------- hot-seat play


def basic_turns(players: int, seed: int, turns: int) -> tuple[Match, list[list[str]]]:
    """``turns`` whole turns played by the basic agent, as text per turn (the players'
    actions: the match draws the chance steps after them from its seed)."""
    match = Match(GAME, players, HALF, seed)
    rng = random.Random(seed)
    per_turn: list[list[str]] = []
    while len(per_turn) < turns:
        me = match.player()
        assert me is not None
        actions: list[str] = []
        while match.player() == me:
            state = match.state
            turn = Turn(GAME, me, players, HALF, GAME.view(state, me), GAME.legal(state), rng)
            action = BasicAgent().act(turn)
            actions.append(GAME.format(state, action))
            match.push(action)
        per_turn.append(actions)
    return match, per_turn


def turn_spans(match: Match) -> list[tuple[int, int]]:
    """Each turn's first and last state index in ``match.states`` (its actions, with the
    chance steps they led to), from the first player's turn on."""
    spans: list[tuple[int, int]] = []
    first = match.actors.index(1)  # after the deal
    for i in range(first, len(match.actions)):
        actor = match.actors[i]
        if actor == CHANCE:
            continue
        if spans and GAME.to_act(match.states[spans[-1][0]]) == actor:
            spans[-1] = (spans[-1][0], i + 1)
        else:
            spans.append((i, i + 1))
    return spans


@pytest.mark.parametrize("players", [2, 3])
def test_hot_seat_asks_for_the_next_player_and_shows_no_other_hand(players: int) -> None:
    turns = 8
    match, per_turn = basic_turns(players, 11, turns)
    assert match.player() is not None
    stdin = "".join("\n" + ("help\nhint\n" if i < players else "") + "\n".join(t) + "\n"
                    for i, t in enumerate(per_turn))  # fmt: skip
    code, out, _ = run(
        "play", "ctverak", "-p", str(players), "-o", "deck=half", "--seed", "11",
        stdin=stdin + "\nquit\n",
    )  # fmt: skip
    assert code == 0
    parts = PASS.split(out)
    head, segments = parts[0], list(zip(parts[1::2], parts[2::2], strict=True))
    assert not named(head) and "your hand" not in head  # nothing before the first prompt
    assert len(segments) == turns + 1  # a prompt before every turn, and the last one
    spans = [*turn_spans(match), (len(match.actions), len(match.actions))]
    for number, (who, text) in enumerate(segments):
        player = int(who)
        start, end = spans[number]  # the states of turn k, chance steps included
        states = match.states[start : end + 1]
        while GAME.to_act(states[-1]) == CHANCE:  # and the cards its last draw brought
            end += 1
            states = match.states[start : end + 1]
        assert GAME.to_act(states[0]) == player
        assert f"you are player {player}" in text and "your hand:" in text
        assert all(f"you are player {p}" not in text for p in range(1, players + 1) if p != player)
        may_see = set().union(*(visible(s, player) for s in states))
        shown = named(text)
        assert shown <= may_see, (number, player, shown - may_see)
    assert "legal:" in out  # help and hint were answered inside the turns


def test_play_against_the_basic_ai_never_shows_its_cards(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    turn = "s\ns\ns\ns\nd #1 1\n"  # refill from the stock, then discard the first card
    code, out, err = run(
        "play", "ctverak", "-o", "deck=half", "--ai", "2:basic", "--seed", "13",
        "--save", str(save), stdin=turn * 6 + "quit\n",
    )  # fmt: skip
    assert code == 0, err
    assert "Pass to player" not in out  # one human: nothing to hide between turns
    said = re.findall(r"player 2 \(computer, basic\): ([^\n]+)", out)
    assert said and "draw from the stock" in said  # a stock draw is shown as that, no card
    record = load(save)
    assert record.seats == {"2": "basic"} and len(record.actions) > 12
    match = Match.from_record(GAME, record)
    assert match.player() is not None
    may_see = set().union(*(visible(s, 1) for s in match.states))
    shown = named(out)
    assert shown <= may_see, shown - may_see
    ai_only = set().union(*(codes(s.hands[1]) for s in match.states)) - may_see
    assert ai_only and not shown & ai_only


def test_undo_does_not_let_a_player_peek_at_the_stock(tmp_path: Path) -> None:
    """A draw from the stock showed the player a hidden card: undo refuses to take it back."""
    save = tmp_path / "game.json"
    code, out, _ = run(
        "play", "ctverak", "-o", "deck=half", "--ai", "2:basic", "--seed", "4",
        "--save", str(save), stdin="d #1 1\ns\nundo\nquit\n",
    )  # fmt: skip
    assert code == 0
    # the card chance drew stands (K4.1), said as the player was told it
    assert "cannot undo: chance acted after it (the stock gave " in out
    saved = load(save).actions
    assert saved[-2] == "draw stock" and saved[-1].startswith("draw ") and saved[-1] != "draw 1"


def test_undo_of_a_draw_from_a_pile_is_allowed(tmp_path: Path) -> None:
    """Taking back an action that showed nothing hidden (a face-up pile card) is fine."""
    save = tmp_path / "game.json"
    code, out, _ = run(
        "play", "ctverak", "-o", "deck=half", "--ai", "2:basic", "--seed", "4",
        "--save", str(save), stdin="d #1 1\n1\nundo\nquit\n",
    )  # fmt: skip
    assert code == 0 and "took back" in out
    assert load(save).actions[-1] != "draw 1"


def test_replay_of_an_unfinished_game_shows_public_cards_only(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    match, per_turn = basic_turns(2, 12, 6)
    stdin = "".join("\n" + "\n".join(actions) + "\n" for actions in per_turn)
    code, _, _ = run(
        "play", "ctverak", "-o", "deck=half", "--seed", "12", "--save", str(save),
        stdin=stdin + "\nquit\n",
    )  # fmt: skip
    assert code == 0 and load(save).actions == match.texts
    code, out, _ = run("replay", str(save))
    assert code == 0 and "not finished" in out
    public = set().union(*(visible(s, 1) - codes(s.hands[0]) for s in match.states))
    shown = named(out)
    assert shown and shown <= public, shown - public
    assert "your hand" not in out


def test_a_series_of_games_rotates_the_deal_and_keeps_a_final_table() -> None:
    code, out, _ = run(
        "play", "ctverak", "--ai", "1:basic", "--ai", "2:random", "--games", "2",
        "--seed", "3", "-o", "scoring=extended",
    )  # fmt: skip
    assert code == 0
    assert "game 1 of 2: seat 1 starts" in out and "game 2 of 2: seat 2 starts" in out
    assert "final table" in out and out.count("Game over") == 2


# ---------------------------------------------------------------- errors


@pytest.mark.parametrize(
    ("args", "fragment", "status"),
    [
        (["run", "ctverak", "-p", "4", "-o", "deck=half"], "not 4; use -o deck=full (K1.1)", 2),
        (["play", "ctverak", "-p", "5", "-o", "deck=half"], "is for 2-3 players, not 5", 2),
        (["run", "ctverak", "-o", "deck=quarter"], "allowed: full, half", 2),
        (["run", "ctverak", "-o", "scoring=golf"], "scoring", 2),
        (["run", "ctverak", "-o", "reshuffle=maybe"], "reshuffle", 2),
        (["run", "ctverak", "-o", "min_natural=5"], "min_natural", 2),
        (["run", "ctverak", "-o", "stall_limit=1"], "stall_limit", 2),
        (["run", "ctverak", "-o", "jokers=6"], "unknown option 'jokers'", 2),
        (["run", "ctverak", "-p", "7"], "for 2-6 players", 2),
        (["play", "ctverak", "--ai", "3:basic"], "seat", 2),
    ],
)
def test_bad_options_are_one_line(args: list[str], fragment: str, status: int) -> None:
    code, _, err = run(*args)
    assert code == status, (code, err)
    assert fragment in err and err.count("\n") == 1 and "Traceback" not in err


def test_a_refused_action_is_one_line_citing_the_rule() -> None:
    code, out, err = run("run", "ctverak", "--seed", "4", "--actions", "-", "--json",
                         stdin="end\n")  # fmt: skip
    assert code == 1 and err.count("\n") == 1 and "Traceback" not in err
    assert re.search(r"action \d+ 'end' refused: a discard is owed:", err) and "(K4.3)" in err
    assert "allowed:" in err
    assert json.loads(out)["error"]


def test_an_impossible_position_is_named(tmp_path: Path) -> None:
    position: dict[str, Any] = {
        "hands": {"1": ["7S"], "2": ["8S"]},
        "melds": {"1": [["9S", "9H", "9D", "9C", "X"]]},
        "piles": [[], [], [], []],
        "bases": ["AS", "AH", "AD", "AC"],
        "stock": [],
        "stock_rest": True,
        "to_act": 1,
    }
    path = tmp_path / "pos.json"
    path.write_text(json.dumps(position))
    code, _, err = run("run", "ctverak", "--from", str(path))
    assert code == 1 and err.count("\n") == 1
    assert "meld 1 has 5 cards; a meld never exceeds 4 (K3.2)" in err

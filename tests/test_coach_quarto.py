"""Quarto's coach (issue 28): exact hints against the solver, a losing give reviewed as a
blunder with its refutation named, and perfect play reviewed without a mistake."""

from __future__ import annotations

import json
import random
from pathlib import Path

from typer.testing import CliRunner

from tabletop.agents.base import Budget, Turn
from tabletop.agents.facet import players_of
from tabletop.cli.app import app
from tabletop.coach.base import DRAW, LOSS, WIN
from tabletop.coach.choose import turn_for
from tabletop.coach.hints import GROUPS, hint_text
from tabletop.coach.review import review
from tabletop.core import records
from tabletop.core.match import Match
from tabletop.core.setup import resolve
from tabletop_quarto.agents import winning_squares
from tabletop_quarto.agents.perfect import PerfectAgent
from tabletop_quarto.coach import QuartoCoach, completed
from tabletop_quarto.notation import format_action
from tabletop_quarto.pieces import CODES
from tabletop_quarto.rules import GIVE, OVER, PLACE, State

GAME = resolve("quarto")
OPTIONS = GAME.info.options()
NODES = 400_000  # every action of these positions settles well within it
BUDGET = Budget(iterations=200)  # no clock: the same answer on any machine
OPENING_NODES = 100_000  # the solver settles nothing in the first moves with these
OPENING_PLAYOUTS = 300


def random_position(seed: int, empties: int, phase: int) -> State:
    """A seeded random game, not over, with ``empties`` empty squares, in ``phase``."""
    rng = random.Random(seed)
    while True:
        state: State = GAME.new(2, OPTIONS, 0)
        while GAME.to_act(state) is not None:
            if 16 - state.occupied.bit_count() == empties and state.phase == phase:
                return state
            moves = [a for a in GAME.legal(state) if GAME.outcome(GAME.apply(state, a)) is None]
            if not moves:
                break
            state = GAME.apply(state, rng.choice(moves))


def solved_values(state: State) -> dict[str, str]:
    """Each legal action's value for the player to act, by ``Game.solve`` (tabletop solve)."""
    out = {}
    for action in GAME.legal(state):
        after = GAME.apply(state, action)
        text = format_action(action)
        if after.phase == OVER:
            out[text] = WIN if after.player == state.player else DRAW
            continue
        solved = players_of(GAME).solve(after, None)
        assert solved is not None and solved["exact"]
        value = solved["value"]
        if after.player != state.player:
            value = {WIN: LOSS, LOSS: WIN, DRAW: DRAW}[value]
        out[text] = value
    return out


def hint_groups(text: str) -> dict[str, set[str]]:
    """The actions a hint lists under each value's heading."""
    heading = {v: k for k, v in GROUPS.items()}
    found: dict[str, set[str]] = {}
    current = None
    for line in text.splitlines():
        if line in heading:
            current = heading[line]
            found[current] = set()
        elif line.startswith("  ") and current is not None:
            found[current].add(line.strip().split(":")[0])
        else:
            current = None
    return found


def test_hints_name_exactly_the_winning_and_losing_actions_of_the_solver() -> None:
    coach = QuartoCoach(nodes=NODES)
    for seed, phase in [(1, GIVE), (2, PLACE), (3, GIVE), (4, PLACE)]:
        state = random_position(seed, 9, phase)
        expected = solved_values(state)
        assessment = coach.assess(turn_for(GAME, state, 2, OPTIONS, BUDGET))
        assert assessment.exact
        assert {j.text: j.value for j in assessment.judgements} == expected
        groups = hint_groups(hint_text(assessment))
        for value in (WIN, DRAW, LOSS):
            named = {t for t, v in expected.items() if v == value}
            assert groups.get(value, set()) == named, (seed, value)
        # best first: a winning action when there is one, and never a loss before a draw
        order = [[WIN, DRAW, LOSS].index(j.value or "") for j in assessment.judgements]
        assert order == sorted(order)


def loses_at_once(state: State, give: int) -> bool:
    return bool(winning_squares(state.board, state.occupied, give, state))


def losing_give_game() -> tuple[Match, str, str]:
    """A seeded game that ends by a give the opponent completes a line with, given in a
    position not lost with best play; that give's text and the square it loses on."""
    rng = random.Random(7)
    for attempt in range(200):
        start = random_position(attempt, 11, GIVE)  # short: the whole review is exact
        match = Match(GAME, 2, OPTIONS, 0, GAME.to_json(start))
        while match.player() is not None:
            state = match.state
            legal = list(GAME.legal(state))
            if state.phase == GIVE and 16 - state.occupied.bit_count() <= 10:
                losing = [a for a in legal if loses_at_once(state, a)]
                solved = (
                    players_of(GAME).solve(state, None)
                    if losing and len(losing) < len(legal)
                    else None
                )
                if solved is not None and solved["value"] != LOSS:
                    give = losing[0]
                    match.push(give)
                    square = winning_squares(state.board, state.occupied, give, state)[0]
                    match.push(16 + square)
                    return match, format_action(give), f"on {format_action(16 + square)[6:]}"
            safe = [a for a in legal if GAME.outcome(GAME.apply(state, a)) is None]
            if state.phase == GIVE:
                safe = [a for a in safe if not loses_at_once(state, a)]
            if not safe:
                break
            match.push(rng.choice(safe))
    raise AssertionError("no such game in 200 tries")


def test_a_give_that_completes_a_line_is_a_blunder_with_its_refutation(tmp_path: Path) -> None:
    match, give, square = losing_give_game()
    entries = review(match, QuartoCoach(nodes=NODES), BUDGET)
    blunder = entries[-2]
    assert blunder.action == give and blunder.verdict == "blunder" and blunder.exact
    assert blunder.after == 0.0 and blunder.before > 0.0
    piece = give.split()[1]
    assert blunder.why.startswith(f"giving {piece} loses: they place it {square}, completing the")
    # the same through the command, in text and in JSON
    path = tmp_path / "game.json"
    records.save(match.record(), path)
    runner = CliRunner()
    shown = runner.invoke(app, ["review", str(path)])
    assert shown.exit_code == 0, shown.output
    assert f"giving {piece} loses: they place it {square}" in shown.output
    data = json.loads(runner.invoke(app, ["review", str(path), "--json"]).output)
    assert list(data) == ["game", "players", "reader", "actions", "summary"]
    assert data["reader"] is None  # saved with no computer seat: a spectator, who sees all
    entry = data["actions"][-2]
    keys = ["number", "player", "action", "best", "before", "after", "verdict", "exact"]
    keys += ["forced", "margin"]
    assert list(entry) == keys
    assert entry["verdict"] == "blunder" and entry["action"] == give and entry["exact"] is True
    assert data["summary"][str(blunder.player)]["blunder"] >= 1


def test_two_perfect_players_make_no_mistake() -> None:
    start = random_position(11, 10, GIVE)
    match = Match(GAME, 2, OPTIONS, 0, GAME.to_json(start))
    agent = PerfectAgent(seconds=None, nodes=NODES)
    rng = random.Random(0)
    while match.player() is not None:
        state = match.state
        turn = Turn(GAME, state.player, 2, OPTIONS, GAME.view(state, state.player),
                    list(GAME.legal(state)), rng, Budget())  # fmt: skip
        match.push(agent.act(turn))
    entries = review(match, QuartoCoach(nodes=NODES), BUDGET)
    assert len(entries) >= 4 and all(e.exact for e in entries)
    assert {e.verdict for e in entries} <= {"best", "good"}, [
        (e.number, e.action, e.verdict) for e in entries
    ]


def test_the_refutation_names_the_pattern_and_its_shared_values() -> None:
    state = random_position(5, 8, GIVE)
    for piece in range(16):
        if not state.pool >> piece & 1:
            continue
        for square in winning_squares(state.board, state.occupied, piece, state):
            code = piece | ((~piece & 15) << 4)
            found = completed(state.board | code << (8 * square), state.occupied | 1 << square,
                              square, state.rules)  # fmt: skip
            assert found is not None and CODES[piece]
            pattern, values = found
            assert " ".join(pattern.split()[:2]) in ("in row", "in column", "on the", "in the")
            assert values


def test_perfect_play_from_the_first_move_is_never_a_mistake() -> None:
    """Issue 38, item 2: from the empty board, where the solver settles nothing within its
    budget and the coach estimates, a perfect player's action is never called worse than
    good, both seats; every verdict either exact or an estimate with its margin."""
    match = Match(GAME, 2, OPTIONS, 0)
    agent = PerfectAgent(seconds=None, nodes=OPENING_NODES, playouts=OPENING_PLAYOUTS)
    rng = random.Random(0)
    while match.to_act() is not None:
        state = match.state
        turn = Turn(GAME, state.player, 2, OPTIONS, GAME.view(state, state.player),
                    list(GAME.legal(state)), rng, Budget())  # fmt: skip
        match.push(agent.act(turn))
    entries = review(match, QuartoCoach(nodes=OPENING_NODES), Budget(OPENING_PLAYOUTS))
    assert {e.player for e in entries} == {1, 2} and len(entries) >= 16
    assert not all(e.exact for e in entries)  # the opening was estimated, not settled
    assert entries[-1].exact
    bad = [(e.number, e.action, e.verdict) for e in entries if e.verdict not in ("best", "good")]
    assert bad == []
    for entry in entries:
        assert entry.exact or entry.json()["margin"] is not None

"""The coach (issue 28): the generic coach from the search, the verdicts and their
thresholds, ``tabletop review`` (text, JSON, errors) and ``hint`` in ``tabletop play``."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tabletop.agents.base import Budget
from tabletop.cli.app import app
from tabletop.coach.base import DRAW, LOSS, WIN, Assessment, Judgement
from tabletop.coach.choose import coach_for, turn_for
from tabletop.coach.hints import hint_text
from tabletop.coach.review import GOOD, INACCURACY, MISTAKE, VERDICTS, review, summary, verdict
from tabletop.coach.search import SearchCoach
from tabletop.core import records
from tabletop.core.match import Match
from tabletop.core.setup import resolve

runner = CliRunner()
C4 = resolve("connect4")
OPTIONS = C4.info.options()


def estimated(chances: list[float], margin: float = 0.0) -> Assessment:
    """Estimates of a given margin (0: as sure as estimates get, the thresholds alone)."""
    judged = [Judgement(i, f"a{i}", c, visits=100, margin=margin) for i, c in enumerate(chances)]
    return Assessment(1, tuple(judged), "test")


def test_an_estimate_condemns_only_what_its_margins_tell_apart() -> None:
    """Issue 38: two estimates whose 95% intervals overlap cannot tell the actions apart."""
    assert verdict(estimated([0.9, 0.5], margin=0.25), 1) == ("good", False)
    assert verdict(estimated([0.9, 0.5], margin=0.19), 1) == ("blunder", False)
    assert verdict(estimated([0.9, 0.1], margin=0.5), 1) == ("good", False)  # Quarto's unsure
    proven = Judgement(1, "a1", 0.5, True, DRAW)
    guessed = Assessment(1, (Judgement(0, "a0", 0.9, visits=3000, margin=0.01), proven), "t")
    assert verdict(guessed, 1) == ("good", False)  # a proven draw, beside a mere estimate
    better = Assessment(1, (Judgement(0, "a0", 1.0, True, WIN), proven), "t")
    assert verdict(better, 1) == ("blunder", True)


@pytest.mark.parametrize(
    ("lost", "expected"),
    [(0.0, "good"), (GOOD - 0.001, "good"), (GOOD, "inaccuracy"), (INACCURACY, "mistake"),
     (MISTAKE - 0.001, "mistake"), (MISTAKE, "blunder"), (0.9, "blunder")],
)  # fmt: skip
def test_estimated_verdicts_follow_the_documented_thresholds(lost: float, expected: str) -> None:
    assessment = estimated([0.95, 0.95 - lost])
    assert verdict(assessment, 0) == ("best", False)
    assert verdict(assessment, 1) == (expected, False)


def test_exact_verdicts_turn_on_the_solved_value() -> None:
    def exact(value: str, chance: float, moves: int) -> Judgement:
        return Judgement(moves, f"m{moves}", chance, True, value, moves)

    wins = Assessment(1, (exact(WIN, 1.0, 3), exact(WIN, 1.0, 5), exact(DRAW, 0.5, 9)), "t")
    assert verdict(wins, 3) == ("best", True)
    assert verdict(wins, 5) == ("good", True)  # slower, but still a win
    assert verdict(wins, 9) == ("blunder", True)  # a win thrown to a draw
    draws = Assessment(1, (exact(DRAW, 0.5, 8), exact(LOSS, 0.0, 7)), "t")
    assert verdict(draws, 7) == ("blunder", True)


def test_the_generic_coach_finds_a_win_at_once_exactly() -> None:
    match = Match(C4, 2, OPTIONS, 0)
    for text in ["1", "2", "1", "2", "1", "2"]:  # player 1 wins by dropping in column 1
        match.play(text)
    coach = coach_for(C4)
    assert isinstance(coach, SearchCoach)
    assessment = coach.assess(turn_for(C4, match.state, 2, OPTIONS, Budget(iterations=300)))
    best = assessment.best
    assert (best.text, best.exact, best.value, best.chance) == ("drop 1", True, WIN, 1.0)
    text = hint_text(assessment)
    assert text.splitlines()[1:3] == ["winning:", "  drop 1: wins with best play"]
    assert len(assessment.judgements) == len(C4.legal(match.state))


def played_game(seed: int) -> Match:
    rng = random.Random(seed)
    match = Match(C4, 2, OPTIONS, seed)
    while match.player() is not None:
        match.push(rng.choice(list(C4.legal(match.state))))
    return match


def test_review_json_judges_every_action_from_its_player(tmp_path: Path) -> None:
    match = played_game(3)
    path = tmp_path / "c4.json"
    records.save(match.record(), path)
    out = runner.invoke(app, ["review", str(path), "--level", "3", "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert (data["game"], data["players"]) == ("connect4", 2)
    actions = data["actions"]
    assert [a["number"] for a in actions] == list(range(1, len(match.actions) + 1))
    assert [a["player"] for a in actions] == [C4.to_act(s) for s in match.states[:-1]]
    assert [a["action"] for a in actions] == match.texts
    for entry in actions:
        assert entry["verdict"] in VERDICTS and 0.0 <= entry["after"] <= 1.0
        if entry["verdict"] in ("inaccuracy", "mistake", "blunder") and not entry["exact"]:
            assert entry["before"] - entry["after"] >= GOOD - 0.001
    for player, counts in data["summary"].items():
        mine = [a for a in actions if str(a["player"]) == player]
        assert counts["actions"] == len(mine)
        assert sum(counts[v] for v in VERDICTS) == len(mine) - counts["forced"]
        sound = counts["best"] + counts["good"]
        assert counts["accuracy"] == round(100 * sound / (len(mine) - counts["forced"]), 1)
    # random play against itself: the coach finds blunders, and says so in text too
    assert sum(c["blunder"] for c in data["summary"].values()) > 0
    text = runner.invoke(app, ["review", str(path), "--level", "3"]).output
    assert "blunder" in text and "best was drop" in text and "player 1: accuracy" in text


def test_a_review_in_python_matches_the_summary() -> None:
    match = played_game(4)
    entries = review(match, coach_for(C4, "3"), Budget(iterations=100))
    totals = summary(entries, 2)
    assert sum(t["actions"] for t in totals.values()) == len(match.actions)


def test_review_refuses_bad_input_in_one_line(tmp_path: Path) -> None:
    match = played_game(5)
    path = tmp_path / "c4.json"
    records.save(match.record(), path)
    bad_level = runner.invoke(app, ["review", str(path), "--level", "9"])
    assert bad_level.exit_code == 2
    assert "levels are 1, 2, 3, 4, 5" in bad_level.output
    missing = runner.invoke(app, ["review", str(tmp_path / "none.json")])
    assert missing.exit_code == 1 and "Traceback" not in missing.output
    empty = tmp_path / "empty.json"
    records.save(Match(C4, 2, OPTIONS, 0).record(), empty)
    nothing = runner.invoke(app, ["review", str(empty)])
    assert nothing.exit_code == 1 and "no actions to review" in nothing.output


def test_hint_in_play_speaks_for_the_coach() -> None:
    out = runner.invoke(app, ["play", "connect4", "--seed", "1"], input="hint\nquit\n")
    assert out.exit_code == 0, out.output
    assert "Estimates (level 5" in out.output
    assert "% to win (±" in out.output

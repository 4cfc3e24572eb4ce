"""A review and a hint never reveal (issue 38, item 3): saved Quartino and Čtverák games
(a person at seat 1, the computer at seat 2) are cut at many points of play and reviewed
as the person who saved them, as the other seat and as a spectator, in text and JSON; the
hint of each point is taken for the player to act. Like the kit's leak checks, the probe
needs no help from the game: every text value the position JSON gives another player (a
card in a hand, a tile on a stand) that the reader never saw in any view so far, nor in an
action text told them, must appear in nothing the reader gets."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from tabletop.agents.base import Budget
from tabletop.cli.app import app
from tabletop.cli.review import entry_text, reader_of
from tabletop.coach.choose import coach_for, turn_for
from tabletop.coach.hints import hint_text
from tabletop.coach.review import UNSEEN, review, summary
from tabletop.core import records
from tabletop.core.i18n.text import translate, translated_json
from tabletop.core.match import Match
from tabletop.core.setup import resolve
from tabletop.core.table import told
from tabletop.game import CHANCE
from tabletop.kit.checks.views import text_leaves

BUDGET = Budget(iterations=6)  # counted: the same answers on any machine, and quick
runner = CliRunner()


def played(game_id: str, seed: int, limit: int = 160) -> Match:
    """A seeded random game of two players (at most ``limit`` actions)."""
    game = resolve(game_id)
    match = Match(game, 2, game.info.options(), seed)
    rng = random.Random(seed)
    while match.to_act() is not None and len(match.actions) < limit:
        match.push(rng.choice(list(game.legal(match.state))))
    return match


def cut(match: Match, length: int) -> Match:
    """The first ``length`` actions of ``match`` (a game saved at that point)."""
    copy = Match(match.game, match.players, match.options, match.seed)
    for action, actor in zip(match.actions[:length], match.actors[:length], strict=True):
        if actor != CHANCE:  # the copy draws its chance steps from the same seed
            copy.push(action)
    return copy


def hidden_from(match: Match, reader: int | None) -> set[str]:
    """Every text another player owns in some position so far that ``reader`` never saw:
    in no view of theirs up to now and in no action text they were told."""
    game = match.game
    owned: set[str] = set()
    seen: set[str] = set()
    for index, state in enumerate(match.states):
        for _path, value, owner in text_leaves(game.to_json(state)):
            if owner is not None and owner != reader:
                owned.add(value)
        seen.update(value for _path, value, _owner in text_leaves(game.view(state, reader)))
        if index < len(match.actions) and told(match, index, reader):
            seen.update(match.texts[index].split())
    return {value for value in owned - seen if len(value) >= 2}


def leaked(text: str, hidden: set[str]) -> list[str]:
    """The hidden values named in ``text`` as whole words."""
    return [
        value
        for value in hidden
        if re.search(rf"(?<![A-Za-z0-9|]){re.escape(value)}(?![A-Za-z0-9|])", text)
    ]


def read(match: Match, reader: int | None) -> str:
    """Everything the review says to ``reader``: its text lines and its JSON."""
    entries = review(match, coach_for(match.game), BUDGET, reader=reader)
    lines = [entry_text(e) for e in entries]
    data = {"actions": [e.json() for e in entries], "summary": summary(entries, 2)}
    return "\n".join(lines) + json.dumps(translated_json(data), ensure_ascii=False)


@pytest.mark.parametrize(("game_id", "seed"), [("ctverak", 5), ("quartino", 7), ("ctverak", 11)])
def test_reviews_and_hints_name_nothing_the_reader_could_not_see(game_id: str, seed: int) -> None:
    whole = played(game_id, seed)
    lengths = sorted({*range(3, len(whole.actions) + 1, max(1, len(whole.actions) // 6))})
    probed = 0
    for length in lengths:
        match = cut(whole, length)
        for reader in (1, 2, None):
            hidden = hidden_from(match, reader)
            said = read(match, reader)
            assert not leaked(said, hidden), (length, reader, leaked(said, hidden))
            probed += bool(hidden)
        player = match.player()
        if player is not None:  # the hint, for the player to act, names none of the others'
            game = match.game
            turn = turn_for(game, match.state, 2, match.options, BUDGET)
            hint = translate(hint_text(coach_for(game).assess(turn)))
            assert not leaked(hint, hidden_from(match, player)), length
    assert probed >= len(lengths)  # there was something hidden to leak


def test_another_players_decision_is_not_judged_in_a_hidden_game() -> None:
    match = cut(played("ctverak", 5), 40)
    entries = review(match, coach_for(match.game), BUDGET, reader=1)
    mine = [e for e in entries if e.player == 1]
    theirs = [e for e in entries if e.player == 2]
    assert mine and theirs
    assert all(e.judged and e.verdict != UNSEEN for e in mine)
    assert all(not e.judged and e.json()["verdict"] == UNSEEN for e in theirs)
    assert all(e.json()["best"] is None and e.json()["before"] is None for e in theirs)
    assert set(summary(entries, 2)) == {"1"}  # the other player's accuracy says nothing
    spectator = review(match, coach_for(match.game), BUDGET, reader=None)
    assert all(not e.judged for e in spectator)


def test_a_perfect_information_review_judges_every_action_for_anyone() -> None:
    match = cut(played("quarto", 3), 6)
    entries = review(match, coach_for(match.game), BUDGET, reader=None)
    assert all(e.judged for e in entries)


def test_the_review_reads_as_the_person_who_saved_by_default(tmp_path: Path) -> None:
    match = cut(played("ctverak", 11), 30)
    path = tmp_path / "saved.json"
    records.save(match.record({"2": "1"}), path)
    out = runner.invoke(app, ["review", str(path), "--level", "1", "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data["reader"] == 1
    assert {a["player"] for a in data["actions"] if a["verdict"] != UNSEEN} == {1}
    hidden = hidden_from(match, 1)
    assert not leaked(out.output, hidden)
    text = runner.invoke(app, ["review", str(path), "--level", "1", "--as", "spectator"])
    assert text.exit_code == 0, text.output
    assert "read as a spectator" in text.output and "not judged" in text.output
    assert not leaked(text.output, hidden_from(match, None))
    bad = runner.invoke(app, ["review", str(path), "--as", "3"])
    assert bad.exit_code != 0 and "--as '3': give a seat 1-2 or 'spectator'" in bad.output
    assert len(bad.output.strip().splitlines()) == 1


@pytest.mark.parametrize(
    ("given", "seats", "expected"),
    [(None, {"2": "3"}, 1), (None, {"1": "3"}, 2), (None, {}, None), ("2", {}, 2),
     ("spectator", {"2": "3"}, None), (" Spectator ", {}, None)],
)  # fmt: skip
def test_who_reads_the_review(given: str | None, seats: dict[str, str], expected: Any) -> None:
    assert reader_of(given, 2, seats) == expected

"""What people read of an action is in their language (issue 37, item 6): the game's
``action_text`` in logs, replays, hints, reviews and the browser's legal actions, while
typed input takes the words as well as the notation and records keep the notation."""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tabletop.core import records
from tabletop.core.i18n.text import translate
from tabletop.core.match import Match, draw
from tabletop.core.presentation import presentation_of
from tabletop.core.records import load
from tabletop.core.registry import registry
from tabletop.game import CHANCE

GAMES = [("quarto", 2), ("quartino", 3), ("ctverak", 3)]
LANGUAGES = ("cs", "pl", "bg", "ru")
# notation words a person must never read in another language (the verbs and the
# Quartino colour letters' English names)
ENGLISH = re.compile(
    r"\b(give|place|meld|add|discard|draw|deal|claim|end|stock|pile|turn|player|dealt|"
    r"yellow|blue|green|pink|dark|light|tall|short|round|square|hollow|solid|joker)\b"
)


def spoken_actions(game_id: str, players: int, seed: int) -> list[tuple[str, str]]:
    """(notation, words) of every listed action and chance outcome met in one random
    game (up to 300 steps)."""
    game = registry().get(game_id)
    shown = presentation_of(game)
    state = game.new(players, game.info.options(), seed)
    rng = random.Random(seed)
    said: list[tuple[str, str]] = []
    for _ in range(300):
        if game.outcome(state) is not None:
            break
        if game.to_act(state) == CHANCE:
            action = draw(game.chance_outcomes(state), rng)
            said.append((game.format(state, action), shown.action_text(state, action)))
        else:
            listed = list(game.listing(state))
            said += [(game.format(state, a), shown.action_text(state, a)) for a in listed]
            action = rng.choice(list(game.legal(state)))
        state = game.apply(state, action)
    return said


@pytest.mark.parametrize(("game_id", "players"), GAMES)
def test_every_action_reads_in_each_language_without_english(game_id: str, players: int) -> None:
    said = spoken_actions(game_id, players, seed=7)
    kinds = {notation.split()[0] for notation, _words in said}
    assert len(kinds) >= 2, kinds  # gives and placements; melds, discards, ends, deals
    for lang in LANGUAGES:
        for notation, words in said:
            text = translate(words, lang)
            assert not ENGLISH.search(text), (lang, notation, text)
            assert text != notation, (lang, notation)


def test_cards_and_colours_are_named_as_the_board_draws_them() -> None:
    ctverak = dict(spoken_actions("ctverak", 2, seed=3))
    discard = next(n for n in ctverak if n.startswith("discard "))
    card = discard.split()[1]
    face = ("10" if card[0] == "T" else card[0]) + {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[card[1]]
    assert translate(ctverak[discard], "cs") == f"vyhodit {face} na hromádku {discard.split()[2]}"
    quartino = dict(spoken_actions("quartino", 2, seed=3))
    assert translate(quartino["place G c"], "cs") == "položit zelenou figurku na c"
    assert translate(quartino["place P r3"], "ru") == "поставить розовую фишку на r3"
    quarto = dict(spoken_actions("quarto", 2, seed=3))
    assert translate(quarto["give DTRH"], "cs") == "dát kámen tmavý, vysoký, okrouhlý, s důlkem"


def tabletop(*args: str, stdin: str = "") -> str:
    done = subprocess.run(
        [sys.executable, "-m", "tabletop", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_terminal_logs_the_computers_actions_in_czech_and_saves_notation(
    tmp_path: Path,
) -> None:
    save = tmp_path / "game.json"
    out = tabletop(
        "play", "ctverak", "-o", "deck=half", "--ai", "2:basic", "--seed", "13", "--lang", "cs",
        "--save", str(save), stdin="s\ns\ns\ns\nd #1 1\n" * 3 + "quit\n",
    )  # fmt: skip
    said = re.findall(r"hráč 2 \(počítač, basic\): ([^\n]+)", out)
    assert said and "vzít kartu z balíku" in said, out[-2000:]
    assert not any(ENGLISH.search(line) for line in said), said
    actions = load(save).actions  # the record keeps the neutral notation
    assert "draw stock" in actions and not any("♥" in a or "vzít" in a for a in actions)


def test_typed_words_play_as_well_as_the_notation(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    typed = "dát kámen světlý, nízký, okrouhlý, bez důlku\nPOLOŽIT NA  b2\ngive DTRH\nquit\n"
    tabletop("play", "quarto", "--lang", "cs", "--save", str(save), stdin=typed)
    assert load(save).actions == ["give LSRF", "place b2", "give DTRH"]
    refused = tabletop("play", "quarto", "--lang", "cs", stdin="dát kámen zelený\nquit\n")
    assert "povoleno: give" in refused  # an unknown text: the notation is what is allowed


def test_a_review_reads_in_the_language_and_its_json_keeps_the_notation(tmp_path: Path) -> None:
    game = registry().get("quarto")
    match = Match(game, 2, game.info.options(), 1)
    for text in ("give LSRF", "place b2", "give DTRH", "place c3"):
        match.play(text)
    path = tmp_path / "game.json"
    records.save(match.record(), path)
    text = tabletop("review", str(path), "--lang", "ru", "--level", "1")
    assert "отдать фигуру: светлая, низкая, круглая, без выемки" in text, text
    data = json.loads(tabletop("review", str(path), "--json", "--level", "1"))
    assert [e["action"] for e in data["actions"]] == [
        "give LSRF",
        "place b2",
        "give DTRH",
        "place c3",
    ]

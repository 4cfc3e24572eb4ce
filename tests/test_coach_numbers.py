"""Numbers people read in the coach (issue 38, item 4): percentages as people write them
in every language (no "78,59999999999999 %"), forced actions marked as forced (no fake
"50 % → 50 %"), and hints whose numbers rest on enough playouts, actions judged alike
on one line (Quartino's false claims, each as good as ``end``)."""

from __future__ import annotations

import random
import re

from tabletop.agents.base import Budget
from tabletop.cli.review import entry_text
from tabletop.coach.base import Assessment, Judgement
from tabletop.coach.choose import coach_for, turn_for
from tabletop.coach.hints import FEWEST, hint_text
from tabletop.coach.review import review
from tabletop.core.i18n.formats import percent
from tabletop.core.i18n.languages import LANGUAGES
from tabletop.core.i18n.text import speaking, translate
from tabletop.core.match import Match
from tabletop.core.setup import resolve


def test_every_accuracy_is_written_with_at_most_one_decimal_in_every_language() -> None:
    for lang in LANGUAGES:
        for free in range(1, 80):
            for sound in range(free + 1):
                shown = percent(round(100.0 * sound / free, 1), lang)
                digits = re.sub(r"[^0-9]", " ", shown).split()
                assert len(digits) <= 2 and (len(digits) < 2 or len(digits[1]) == 1), shown
    assert percent(78.6, "cs") == "78,6\xa0%" and percent(78.6, "ru") == "78,6\xa0%"
    assert percent(78.6, "pl") == "78,6%" and percent(78.6, "bg") == "78,6%"


def test_a_forced_action_is_said_to_be_forced_without_values() -> None:
    game = resolve("ctverak")
    match = Match(game, 2, game.info.options(), 1)
    rng = random.Random(1)  # player 1 has one legal action at action 13
    while match.to_act() is not None and len(match.actions) < 30:
        match.push(rng.choice(list(game.legal(match.state))))
    entries = review(match, coach_for(game), Budget(iterations=6), reader=1)
    forced = [e for e in entries if e.forced]
    assert forced, "no forced action in 30 random actions"
    for entry in forced:
        text = entry_text(entry)
        assert "forced (the only legal action)" in text and "→" not in text and "%" not in text
        assert entry.json()["forced"] is True
        czech = speaking("cs", entry_text, entry)
        assert "→" not in czech and "%" not in czech
    assert all("→" in entry_text(e) for e in entries if e.judged and not e.forced)


def judgement(text: str, chance: float, visits: int) -> Judgement:
    return Judgement(text, text, chance, visits=visits)


def test_alike_estimates_are_one_line_and_thin_ones_have_no_number() -> None:
    claims = [judgement(f"claim Y|BPG {k}", 0.37, 16) for k in range(8)]
    thin = [judgement(f"thin {k}", 0.9 - k / 100, 3) for k in range(4)]
    ranked = (judgement("end", 0.37, 16), *claims, judgement("place a1", 0.2, 40), *thin)
    text = translate(hint_text(Assessment(1, ranked, "a search")))
    lines = text.splitlines()
    assert "  end and 8 more actions alike: 37% to win (±24%, 16 playouts)" in lines
    assert not any("claim Y|BPG" in line for line in lines)
    assert "  place a1: 20% to win (±13%, 40 playouts)" in lines
    assert lines[-1] == (
        f"… and 4 more the search tried too little to judge (under {FEWEST} playouts each)"
    )
    assert not any(line.startswith("  thin") for line in lines)
    czech = speaking("cs", lambda: translate(hint_text(Assessment(1, ranked, "a search"))))
    assert "claim Y|BPG" not in czech and "thin" not in czech


def test_quartinos_hint_groups_its_false_claims() -> None:
    game = resolve("quartino")
    state = game.new(2, game.info.options(), 3)
    rng = random.Random(1)
    for _ in range(60):
        legal = list(game.legal(state))
        texts = [game.format(state, a) for a in legal]
        if sum(t.startswith("claim") for t in texts) >= 8:
            break
        state = game.apply(state, rng.choice(legal))
    else:
        raise AssertionError("no position with claims in reach")
    turn = turn_for(game, state, 2, game.info.options(), Budget(iterations=60))
    text = translate(hint_text(coach_for(game).assess(turn)))
    listed = [line for line in text.splitlines() if line.startswith("  claim")]
    assert len(listed) <= 5 < sum(t.startswith("claim") for t in texts), text
    for line in text.splitlines():
        found = re.search(r"(\d+) playouts?\)", line)
        assert found is None or int(found.group(1)) >= FEWEST, line

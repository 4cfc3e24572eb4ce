"""Counts inside messages are written in the reader's language (issue 24 item 6): the
coach's "2,000,000 positions" reads "2 000 000" (no-break spaces) in cs, pl, bg, ru, and a
plural's count likewise; English stays byte for byte what it always printed."""

from __future__ import annotations

import pickle

import pytest

from tabletop.core.i18n.formats import Count
from tabletop.core.i18n.text import Domain, translate

LANGS = ("cs", "pl", "bg", "ru")
_ = Domain("tabletop")


def grouped(text: str) -> bool:
    """True when ``text`` has the digits 2 000 000 grouped by a (narrow) no-break space."""
    return any(f"2{s}000{s}000" in text for s in ("\xa0", "\u202f"))


def test_count_is_english_as_printed_and_local_elsewhere() -> None:
    assert str(Count(2_000_000)) == "2,000,000" == translate(Count(2_000_000), "en")
    assert str(Count(3000, grouped=False)) == "3000"
    for lang in LANGS:
        assert grouped(translate(Count(2_000_000), lang)), lang
    assert translate(Count(1234.5, 1), "cs") == "1\xa0234,5"
    assert translate(Count(1234.5, 1), "ru") == "1\xa0234,5"


def test_count_survives_pickling_for_workers() -> None:
    copy = pickle.loads(pickle.dumps(Count(2_000_000)))
    assert isinstance(copy, Count) and grouped(translate(copy, "pl"))


@pytest.mark.parametrize("lang", LANGS)
def test_quarto_coach_method_counts_positions_in_the_readers_digits(lang: str) -> None:
    from tabletop_quarto.coach import QuartoCoach

    method = QuartoCoach(nodes=2_000_000).method
    assert "2,000,000" in method  # English, as before
    shown = translate(method, lang)
    assert grouped(shown) and "2,000,000" not in shown, shown


@pytest.mark.parametrize("lang", LANGS)
def test_a_plural_count_is_written_in_the_readers_digits(lang: str) -> None:
    from tabletop.coach.base import Judgement
    from tabletop.coach.hints import estimate_text

    j = Judgement(0, "a1", 0.5, False, None, None, 2_000_000, "", 0.01)
    assert "2000000 playouts" in estimate_text(j)  # English: unchanged
    shown = translate(estimate_text(j), lang)
    assert grouped(shown) and "2000000" not in shown, shown


def test_percentages_are_written_the_readers_way() -> None:
    from tabletop.cli.review import percent
    from tabletop.core.i18n.formats import percent as formatted
    from tabletop.core.i18n.text import speaking

    assert formatted(87.5, "en") == "87.5%" and formatted(74, "en") == "74%"
    assert formatted(87.5, "cs") == "87,5\xa0%" and formatted(87.5, "ru") == "87,5\xa0%"
    assert formatted(74, "pl") == "74%" and formatted(87.5, "bg") == "87,5%"
    assert percent(0.74) == "74%"  # the review's column: the current language's way
    assert speaking("cs", percent, 0.74) == "74\xa0%"

"""A position file that cannot arise is refused in the reader's language (issue 24): ``tabletop
run GAME --from FILE --lang CODE`` names what is wrong in cs, pl, bg, ru, rule IDs kept."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tabletop.cli.app import app

QUARTO_TWICE = {"board": {"a1": "DTRH", "b2": "DTRH"}, "to_act": 1}
EXPECTED = {  # the position's words in each language, the piece, squares and rule as they are
    "en": "impossible Quarto position: piece DTRH is on both a1 and b2 (Q1.2)",
    "cs": "nemožná pozice Quarta: kámen DTRH je zároveň na a1 i na b2 (Q1.2)",
    "pl": "niemożliwa pozycja Quarto: pionek DTRH stoi zarówno na a1, jak i na b2 (Q1.2)",
    "bg": "невъзможна позиция на Кварто: елементът DTRH е едновременно на a1 и на b2 (Q1.2)",
    "ru": "невозможная позиция Кварто: фигура DTRH стоит и на a1, и на b2 (Q1.2)",
}


def refusal(tmp_path: Path, game: str, position: object, lang: str) -> str:
    path = tmp_path / "position.json"
    path.write_text(json.dumps(position))
    result = CliRunner().invoke(app, ["run", game, "--from", str(path), "--lang", lang])
    assert result.exit_code == 1, result.output
    return result.stderr


@pytest.mark.parametrize("lang", sorted(EXPECTED))
def test_an_impossible_quarto_position_is_refused_in_the_readers_language(
    tmp_path: Path, lang: str
) -> None:
    assert EXPECTED[lang] in refusal(tmp_path, "quarto", QUARTO_TWICE, lang)


@pytest.mark.parametrize("lang", ["cs", "pl", "bg", "ru"])
def test_a_described_value_and_the_keys_stay_as_written(tmp_path: Path, lang: str) -> None:
    said = refusal(tmp_path, "quarto", {"board": {}, "colour": 1}, lang)
    assert "'colour'" in said and "board, in_hand, last_placed" in said and "(Q8)" in said
    assert "unknown key" not in said


QUARTINO_EIGHT = {
    "board": {"c": list("YYYYYYYY")},
    "supply": {"Y": 0, "B": 7, "G": 7, "P": 7},
    "stands": {"1": ["P|YBG"], "2": ["B|YGP"]},
    "done": {"1": [], "2": []},
    "to_act": 1,
}
QUARTINO_EXPECTED = {  # the colour in the language's word (the legend's), the rule kept
    "en": "8 yellow pawns on the board; there are 7 (N1.2)",
    "cs": "žlutá: 8 figurek na desce; jsou jich jen 7 (N1.2)",
    "pl": "żółty: 8 pionków na planszy; jest ich tylko 7 (N1.2)",
    "bg": "жълт: 8 пионки на дъската; те са само 7 (N1.2)",
    "ru": "жёлтый: 8 фишек на поле; их всего 7 (N1.2)",
}


@pytest.mark.parametrize("lang", sorted(QUARTINO_EXPECTED))
def test_an_impossible_quartino_position_is_refused_in_the_readers_language(
    tmp_path: Path, lang: str
) -> None:
    assert QUARTINO_EXPECTED[lang] in refusal(tmp_path, "quartino", QUARTINO_EIGHT, lang)


CTVERAK_EXPECTED = {  # the keys it lacks, as written, and the rule kept
    "en": "position lacks ",
    "cs": "pozici chybí ",
    "pl": "w pozycji brakuje ",
    "bg": "в позицията липсва ",
    "ru": "в позиции нет ",
}


@pytest.mark.parametrize("lang", sorted(CTVERAK_EXPECTED))
def test_an_impossible_ctverak_position_is_refused_in_the_readers_language(
    tmp_path: Path, lang: str
) -> None:
    said = refusal(tmp_path, "ctverak", {"hands": {}}, lang)
    assert CTVERAK_EXPECTED[lang] + "melds, piles, bases, stock, to_act (K10)" in said, said


def test_a_list_of_players_says_and_in_the_readers_language() -> None:
    from tabletop.core.i18n.text import and_joined, translate

    players = and_joined(["1", "2", "3"])
    assert players == "1 and 2 and 3"
    shown = {lang: translate(players, lang) for lang in ("cs", "pl", "bg", "ru")}
    assert shown == {"cs": "1 a 2 a 3", "pl": "1 i 2 i 3", "bg": "1 и 2 и 3", "ru": "1 и 2 и 3"}


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "board a1: a list of 2 items is not a piece"),
        ("cs", "board a1: seznam (2 položky) není hrací kámen"),
        ("pl", "board a1: lista (2 elementy) nie jest pionkiem"),
        ("bg", "board a1: списък (2 елемента) не е елемент"),
        ("ru", "board a1: список (2 элемента) — не фигура"),
    ],
)
def test_a_described_value_is_in_the_readers_language(tmp_path: Path, lang: str, said: str) -> None:
    position = {"board": {"a1": ["D", "T"]}, "to_act": 1}
    assert said in refusal(tmp_path, "quarto", position, lang)

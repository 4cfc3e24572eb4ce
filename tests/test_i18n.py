"""The i18n mechanism (tabletop.core.i18n): marked messages stay English values and are
translated where shown, in a language per call; choosing the language; plurals by the
language's CLDR rule; Babel only when a language other than English is spoken."""

from __future__ import annotations

import datetime as dt
import importlib
import json
import pickle
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tabletop.cli.app import app
from tabletop.core.errors import ActionError, UsageError
from tabletop.core.i18n import catalogues, formats
from tabletop.core.i18n.languages import LANGUAGES, choose, from_accept_language
from tabletop.core.i18n.text import Domain, Msg, message_of, speaking, translate
from tabletop.core.match import Match
from tabletop.core.presentation import presentation_of
from tabletop.core.registry import registry
from tabletop.core.setup import new_match

_ = Domain("tabletop")


def quarto_match() -> Match:
    return new_match(registry().get("quarto"), None, [], 0)


def refusal_of(match: Match, text: str) -> ActionError:
    with pytest.raises(ActionError) as caught:
        match.play(text)
    return caught.value


# -- marked messages -------------------------------------------------------------------------
def test_a_message_is_its_english_text_and_translates_per_call() -> None:
    said = _("player {n}", n=2)
    assert said == "player 2" and isinstance(said, str)
    assert json.dumps({"who": said}) == '{"who": "player 2"}'
    assert [translate(said, lang) for lang in LANGUAGES] == [
        "player 2",
        "hráč 2",
        "gracz 2",
        "играч 2",
        "игрок 2",
    ]


def test_a_refusal_built_by_a_plugin_is_translated_where_shown_with_its_rule_id() -> None:
    error = refusal_of(quarto_match(), "place a1")
    english = "it is time to give a piece, not to place one: place, then give (Q3.3); allowed: "
    assert error.reason.startswith(english)
    russian = translate(error.reason, "ru")
    assert russian.startswith("сейчас фигуру передают, а не ставят")
    assert "(Q3.3)" in russian and "допустимо: give LSRF" in russian
    czech = translate(message_of(error), "cs")
    assert czech.startswith("tah 1 'place a1' odmítnut: teď se kámen podává")


def test_nested_messages_translate_inside_out_and_pickle_with_their_msgid() -> None:
    match = quarto_match()
    for text in ("give DTRH", "place a1", "give DTRF", "place b1", "give DTQF", "place c1"):
        match.play(text)
    match.play("give DTQH")
    match.play("place d1")
    outcome = match.outcome()
    assert outcome is not None and outcome.reason == "quarto by player 1: a1 b1 c1 d1 (dark, tall)"
    assert translate(outcome.reason, "cs") == "quarto hráče 1: a1 b1 c1 d1 (tmavý, vysoký)"
    again = pickle.loads(pickle.dumps(outcome.reason))
    assert isinstance(again, Msg) and translate(again, "ru").endswith("(тёмная, высокая)")


@pytest.mark.parametrize(
    ("lang", "forms"),
    [
        ("cs", {1: "vrácen 1 tah", 3: "vráceny 3 tahy", 5: "vráceno 5 tahů"}),
        ("pl", {1: "cofnięto 1 ruch", 3: "cofnięto 3 ruchy", 5: "cofnięto 5 ruchów"}),
        ("bg", {1: "върнат 1 ход", 3: "върнати 3 хода", 5: "върнати 5 хода"}),
        (
            "ru",
            {1: "отменён 1 ход", 3: "отменено 3 хода", 5: "отменено 5 ходов", 21: "отменён 21 ход"},
        ),
        ("en", {1: "took back 1 action(s)", 5: "took back 5 action(s)"}),
    ],
)
def test_plurals_follow_the_language_rule(lang: str, forms: dict[int, str]) -> None:
    for n, expected in forms.items():
        said = _.plural("took back {n} action(s)", "took back {n} action(s)", n)
        assert translate(said, lang) == expected


def test_a_plain_string_and_an_unknown_msgid_stay_as_they_are() -> None:
    assert translate("not marked", "cs") == "not marked"
    assert translate(_("no such msgid {x}", x=1), "pl") == "no such msgid 1"


# -- choosing the language -------------------------------------------------------------------
def test_the_flag_beats_the_variable_beats_the_locale() -> None:
    env = {"TABLETOP_LANG": "pl", "LC_ALL": "ru_RU.UTF-8", "LANG": "cs_CZ.UTF-8"}
    assert choose("bg", env) == "bg"
    assert choose(None, env) == "pl"
    assert choose(None, {"LC_ALL": "ru_RU.UTF-8", "LANG": "cs_CZ.UTF-8"}) == "ru"
    assert choose(None, {"LC_MESSAGES": "cs_CZ.UTF-8", "LANG": "pl_PL"}) == "cs"
    assert choose(None, {"LANG": "de_DE.UTF-8"}) == "en"
    assert choose(None, {"LANG": "C"}) == "en"
    assert choose(None, {}) == "en"
    assert choose("CS", {}) == "cs" and choose("pl-PL", {}) == "pl"


def test_an_unknown_language_is_a_usage_error_listing_the_languages() -> None:
    with pytest.raises(UsageError) as caught:
        choose("de", {})
    assert caught.value.exit_code == 2
    assert str(caught.value) == (
        "unknown language 'de' for --lang; languages: en (English), cs (čeština), "
        "pl (polski), bg (български), ru (русский)"
    )
    with pytest.raises(UsageError, match="TABLETOP_LANG"):
        choose(None, {"TABLETOP_LANG": "xx"})


@pytest.mark.parametrize("command", ["play", "rules", "run"])
def test_every_command_with_lang_refuses_an_unknown_one(command: str) -> None:
    result = CliRunner().invoke(app, [command, "quarto", "--lang", "klingon"])
    assert result.exit_code == 2
    assert "unknown language 'klingon' for --lang; languages: en (English)" in result.output


def test_accept_language_picks_the_best_of_ours() -> None:
    assert from_accept_language("cs-CZ,cs;q=0.9,en;q=0.8") == "cs"
    assert from_accept_language("de-DE,de;q=0.9,pl;q=0.5,ru;q=0.7") == "ru"
    assert from_accept_language("de, fr") is None
    assert from_accept_language("bg;q=0, en") == "en"


# -- run: English unless --lang; saves are language-neutral ----------------------------------
def run_json(tmp_path: Path, *args: str, env: dict[str, str] | None = None) -> dict[str, object]:
    actions = tmp_path / "actions.txt"
    actions.write_text("place a1\n", encoding="utf-8")
    result = CliRunner().invoke(
        app, ["run", "quarto", "--json", "--actions", str(actions), *args], env=env
    )
    assert result.exit_code == 1
    data: dict[str, object] = json.loads(result.stdout.splitlines()[0])
    return data


def test_run_speaks_english_unless_told_and_its_json_keys_never_change(tmp_path: Path) -> None:
    english = run_json(tmp_path, env={"TABLETOP_LANG": "cs", "LANG": "cs_CZ.UTF-8"})
    assert str(english["error"]).startswith("action 1 'place a1' refused: it is time to give")
    polish = run_json(tmp_path, "--lang", "pl")
    assert str(polish["error"]).startswith("ruch 1 'place a1' odrzucony: teraz dajesz")
    assert set(polish) == set(english) and polish["legal"] == english["legal"]


def test_a_game_saved_in_czech_loads_in_polish(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    runner = CliRunner()
    czech = runner.invoke(
        app,
        ["play", "quarto", "--lang", "cs", "--save", str(save)],
        input="give DTRH\nkvarto\nquit\n",
    )
    assert czech.exit_code == 0, czech.output
    assert "podejte soupeři hrací kámen ze zásoby" in czech.output
    record = json.loads(save.read_text(encoding="utf-8"))
    assert record["actions"] == ["give DTRH"]  # the refused claim changed nothing
    polish = runner.invoke(
        app, ["play", "quarto", "--lang", "pl", "--load", str(save)], input="quit\n"
    )
    assert polish.exit_code == 0, polish.output
    assert "postaw pionek ciemny, wysoki, okrągły, z wgłębieniem na wolnym polu" in polish.output


def test_the_claim_words_of_each_language_are_recorded_as_quarto() -> None:
    match = new_match(registry().get("quarto"), None, ["claim=manual"], 0)
    match.play("give DTRH")
    match.play("place a1")
    for word in ("kvarto", "КВАРТО", "четворка!", "kwarto"):
        error = refusal_of(match, word)
        assert error.reason.startswith("no winning pattern runs through a1")
    assert match.texts == ["give DTRH", "place a1"]


def test_rules_text_is_in_the_language_spoken_else_english(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    connect4 = registry().get("connect4")
    assert speaking("ru", presentation_of(connect4).rules_text).startswith("# Четыре в ряд")
    # a package with only README.md shows it in every language
    package = tmp_path / "english_only_game"
    package.mkdir()
    (package / "__init__.py").write_text(
        "from tabletop_connect4.game import ConnectFourGame\n"
        "class EnglishOnly(ConnectFourGame):\n    pass\n",
        encoding="utf-8",
    )
    (package / "README.md").write_text("# English only\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    english_only = importlib.import_module("english_only_game").EnglishOnly()
    assert speaking("ru", presentation_of(english_only).rules_text) == "# English only\n"
    quarto = presentation_of(registry().get("quarto"))
    english = quarto.rules_text()
    assert english.startswith("# Quarto") and speaking("en", quarto.rules_text) == english
    czech = speaking("cs", quarto.rules_text)
    assert czech != english and "hracích kamenů" in czech
    assert quarto.rules_text() == english  # speaking() left this context in English


# -- numbers, dates, the catalogue as JSON, the import cost ----------------------------------
def test_numbers_and_dates_through_babel_english_unchanged() -> None:
    assert formats.number(1234) == "1234" and formats.number(1234, "en") == "1234"
    assert formats.number(1234.5, "cs", 1) == "1\xa0234,5"
    assert formats.number(1234, "ru") == "1\xa0234"
    moment = dt.datetime(2026, 12, 2, 1, 5)
    assert formats.date_time(moment, "en") == "2026-12-02 01:05"
    assert formats.date_time(moment, "cs") == "02.12.26 1:05"


def test_a_catalogue_as_json_has_its_plural_rule_and_forms() -> None:
    data = catalogues.as_json("tabletop_quartino", "ru")
    assert data["plural"].startswith("n % 10 == 1 && n % 100 != 11 ? 0")
    assert data["messages"]["{n} card"] == ["{n} карта", "{n} карты", "{n} карт"]
    assert catalogues.as_json("tabletop", "en")["messages"] == {}


def test_english_play_never_imports_babel() -> None:
    code = "import sys\nfrom tabletop.cli.app import main\nmain(['play', 'quarto'])\n"
    script = code + "print('babel' in sys.modules)\n"
    english = subprocess.run(
        [
            sys.executable,
            "-c",
            script.replace("main(['play', 'quarto'])", "main(['play', 'quarto'])"),
        ],
        input="give DTRH\nquit\n",
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env={"PATH": "/usr/bin:/bin", "LANG": "C"},
    )
    assert english.stdout.strip().endswith("False"), english.stdout[-300:] + english.stderr
    russian = subprocess.run(
        [sys.executable, "-c", script.replace("'quarto']", "'quarto', '--lang', 'ru']")],
        input="give DTRH\nquit\n",
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env={"PATH": "/usr/bin:/bin", "LANG": "C"},
    )
    assert "передайте сопернику" in russian.stdout
    assert russian.stdout.strip().endswith("True")

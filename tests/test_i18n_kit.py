"""The plugin kit and the research bridges in the reader's language (issue 24): `tabletop
check`'s report (column heads, each check's line, the verdicts, a failing check's message
and its replay lines), the mutation report, and the bridges' UsageErrors where they are
shown. Check names, option words and notation stay the machine's."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tabletop.core.errors import UsageError
from tabletop.core.i18n.text import message_of, speaking, translate
from tests.test_i18n_leftovers import tabletop, untranslated
from tests.test_mutation import spec_of
from tests.test_mutation import toy as toy  # the toy plugin package (a fixture)

ROOT = Path(__file__).resolve().parent.parent

CHECK_NAMES = ("legal", "pure", "deterministic", "record", "position", "notation", "views",
               "samples", "bound", "fuzz", "mutants", "translations", "encoding")  # fmt: skip


def test_check_speaks_czech_column_heads_descriptions_and_verdicts() -> None:
    said = tabletop("check", "quarto", "--games", "10", lang="cs")
    assert said.startswith("Quarto: 10 her, 10 konfigurací, seed 0, "), said[:200]
    for head in ("kontrola", "výsledek", "běhy", "co kontroluje"):
        assert f"┃ {head}" in said, head
    assert "stejný seed a tahy dají stejnou hru" in said  # deterministic's line
    assert "chybný vstup vyvolá ActionError, jeden řádek, nic nezmění" in said  # fuzz's
    assert "│ v pořádku │" in said
    assert "konfigurace (párový výběr: 10 z 20 kombinací, každá dvojice hodnot" in said
    assert "2 hráči, squares=true" in said  # the option words stay
    for name in CHECK_NAMES:
        assert f"│ {name} " in said, name  # the checks' machine names stay
    for english in ("what it checks", "same seed and actions", "configurations (a pairwise",
                    "2 players", "games/s"):  # fmt: skip
        assert english not in said, english
    assert untranslated(said) == []


def test_check_speaks_russian_too() -> None:
    said = tabletop("check", "quarto", "--games", "3", "-o", "claim=manual", lang="ru")
    assert said.startswith("Quarto: 3 игры, 1 конфигурация, seed 0, "), said[:200]
    assert "конфигурации (выбранные параметры): 2 игрока, claim=manual" in said
    for head in ("проверка", "результат", "прогоны", "что проверяет"):
        assert f"┃ {head}" in said, head
    assert "вид не показывает ничего скрытого от этого игрока" in said
    assert "check" not in said.split("┃")[1]  # the first head is Russian
    assert untranslated(said, "ru") == []


def test_check_stays_english_by_default() -> None:
    said = tabletop("check", "quarto", "--games", "10", lang="en")
    assert said.startswith("Quarto: 10 games, 10 configurations, seed 0, ")
    assert "┃ what it checks" in said and "same seed and actions give the same game" in said
    assert "configurations (a pairwise sample: 10 of 20 combinations, every pair" in said


@pytest.fixture
def broken_plugin(tmp_path: Path) -> dict[str, str]:
    """An installed plugin (an entry point on PYTHONPATH) whose game breaks the ``bound``
    check: Connect Four declaring at most 4 actions (as TooLong of the conformance tests)."""
    package = tmp_path / "shortc4_plugin"
    package.mkdir()
    (package / "__init__.py").write_text(
        "import dataclasses\n\n"
        "from tabletop.hookspecs import hookimpl\n"
        "from tabletop_connect4.game import ConnectFourGame\n\n\n"
        "class ShortConnectFour(ConnectFourGame):\n"
        "    info = dataclasses.replace(ConnectFourGame.info, id='shortc4',\n"
        "                               max_actions=lambda players, options: 4)\n\n\n"
        "@hookimpl\n"
        "def tabletop_register_games(register):\n"
        "    register(ShortConnectFour())\n",
        encoding="utf-8",
    )
    info = tmp_path / "shortc4_plugin-1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: shortc4-plugin\nVersion: 1\n", encoding="utf-8"
    )
    (info / "entry_points.txt").write_text(
        "[tabletop]\nshortc4 = shortc4_plugin\n", encoding="utf-8"
    )
    paths = [str(tmp_path), os.environ.get("PYTHONPATH", "")]
    return {"PYTHONPATH": os.pathsep.join(p for p in paths if p)}


def check_broken(env: dict[str, str], lang: str) -> tuple[int, str]:
    done = subprocess.run(
        [sys.executable, "-m", "tabletop", "check", "shortc4", "--games", "3", "-p", "2"],
        capture_output=True,
        text=True,
        env={**os.environ, **env, "TABLETOP_LANG": lang, "COLUMNS": "200", "NO_COLOR": "1"},
        timeout=120,
    )
    return done.returncode, done.stdout + done.stderr


def test_a_failing_checks_message_and_replay_lines_are_in_the_language(
    broken_plugin: dict[str, str],
) -> None:
    status, said = check_broken(broken_plugin, "pl")
    assert status == 1, said
    assert "│ NIEZALICZONE " in said and "× │" in said  # the verdict, with its count
    # the check's machine name, then its message
    assert "bound: brak końca po 4 ruchach (info.max_actions)" in said, said
    assert "  gra: 2 gracze, opcje {" in said and "  ruchy: drop " in said
    assert "  odtworzenie: printf " in said and "tabletop run shortc4 -p 2" in said
    for english in ("no end after", "  game: ", "  actions: ", "  replay: ", "FAILED", "players"):
        assert english not in said, english
    assert untranslated(said, "pl") == []
    status, said = check_broken(broken_plugin, "bg")
    assert status == 1 and "bound: няма край след 4 хода (info.max_actions)" in said, said
    assert "  игра: 2 играчи, опции {" in said and "ПРОВАЛЕНА" in said
    status, english = check_broken(broken_plugin, "en")
    assert "bound: no end after 4 actions (info.max_actions)" in english
    assert "  game: 2 players, options {" in english and "FAILED" in english


def test_the_failure_messages_keep_the_english_of_the_report_and_translate_where_shown() -> None:
    from tabletop.kit.conformance import check_game
    from tests.test_conformance import LeakyView, TooLong

    report = check_game(TooLong(), games_per_config=3, seed=1)
    first = report.checks["bound"].first
    assert first is not None and first.message == "no end after 4 actions (info.max_actions)"
    assert translate(first.message, "cs") == "žádný konec po 4 tazích (info.max_actions)"
    report = check_game(LeakyView(), games_per_config=20, seed=1, fuzz=30)
    leak = report.checks["views"].first
    assert leak is not None and "sees a hidden change" in leak.message
    assert translate(leak.message, "ru").startswith("игрок ")
    assert "видит скрытое изменение (" in translate(leak.message, "ru")
    assert "views: " in report.text()  # pytest's text stays English unless a language is set


def test_the_mutation_report_speaks_polish(tmp_path: Path) -> None:
    said = tabletop("test", "--mutate", "--game", "quarto", "--module", "notation",
                    "--max-mutants", "3", lang="pl", cwd=tmp_path)  # fmt: skip
    assert "Wynik mutacyjny gry quarto według modułów" in said, said[-1500:]
    assert "Według identyfikatora zasady: zabity mutant pod zasadami przypadków" in said
    for head in ("moduł", "mutanty", "zabite", "limit czasu", "ocalałe", "nieosiągnięte"):
        assert f"┃ {head}" in said or f"┃ {head} " in said, head
    assert "wynik mutacyjny " in said and " z 3 mutantów (przez limit czasu " in said
    assert "; próbka: 3 z " in said  # 3 of the generated mutants sampled
    for english in ("Mutation score", "Per rule ID", "not reached", "killed", "survived"):
        assert english not in said, english
    assert "tabletop_quarto.notation" in said  # the module's name stays


def test_the_mutation_report_counts_with_the_languages_plurals() -> None:
    from rich.console import Console

    from tabletop.cli.mutate import print_report
    from tabletop.kit.mutation.runner import Baseline
    from tabletop.kit.mutation.session import Results

    baseline = Baseline(0.1, [], cases=1, golden=1)
    results = Results("quarto", [], {}, baseline, seconds=2.0)

    def report(lang: str) -> str:
        console = Console(record=True, width=200)
        speaking(lang, print_report, results, console)
        return console.export_text()

    english = "0 of 0 mutants killed (0 by timeout), 0 survived, 0 not reached; 1 case and 1 "
    assert english + "golden game, 2s" in report("en")
    czech = report("cs")
    assert "zabito 0 z 0 mutantů" in czech and "1 případ a 1 zlatá partie, 2 s" in czech
    assert "1 случай и 1 эталонная партия, 2 с" in report("ru")


def test_a_bridge_usage_error_is_translated_where_shown() -> None:
    from tabletop.bridges.common import check_reward, setup

    with pytest.raises(UsageError) as caught:
        check_reward(setup("quarto"), "gold")
    english = (
        "reward 'gold' is not offered; use 'win' (+1/-1/0), 'win_loss' (OpenSpiel's: winners "
        "share +1, losers -1), 'score' (points minus the others' mean), 'point_difference' "
        "(points minus the mean of all) or 'total_points' (points)"
    )
    assert str(caught.value) == english  # English stays the default, byte for byte
    shown = translate(message_of(caught.value), "pl")
    assert shown.startswith("nagroda 'gold' nie jest dostępna; użyj 'win' (+1/-1/0), 'win_loss'")
    with pytest.raises(UsageError) as caught:
        check_reward(setup("quarto"), "score")
    assert "quarto does not: use reward='win'" in str(caught.value)
    assert "quarto ich nie liczy: użyj reward='win'" in translate(message_of(caught.value), "pl")


def test_a_bridge_level_refused_on_the_command_line_is_in_the_language() -> None:
    said = tabletop("play", "quarto", "--ai", "2:openspiel-mcts:abc", "--lang", "pl")
    assert said.startswith(
        "tabletop: błędny gracz 'openspiel-mcts:abc': napisz openspiel-mcts:N, gdzie N to "
        "liczba symulacji na ruch, 1-1000000"
    ), said
    english = tabletop("play", "quarto", "--ai", "2:openspiel-mcts:abc", lang="en")
    assert "bad agent 'openspiel-mcts:abc': write openspiel-mcts:N" in english


def test_the_bridges_constants_are_messages_with_plain_placeholders() -> None:
    from tabletop.bridges.common import BAD_RENDER, BAD_REWARD, MISSING, NO_SCORES
    from tabletop.bridges.parallel import MISSING_ACTION

    for message in (BAD_RENDER, BAD_REWARD, MISSING, NO_SCORES, MISSING_ACTION):
        assert translate(message, "ru") != message, message
    assert BAD_RENDER.format(mode=repr("rgb_array")) == (
        "render_mode 'rgb_array' is not offered; use 'ansi', 'human' or None"
    )
    said = translate(BAD_RENDER.format(mode=repr("rgb_array")), "cs")
    assert said == "render_mode 'rgb_array' není k dispozici; použijte 'ansi', 'human' nebo None"


def test_a_survivors_change_is_described_in_the_language_and_its_operator_stays() -> None:
    from tabletop.kit.mutation.operators import find_edits

    source = "def f(a, b):\n    if a < b and b:\n        return a\n    return None\n"
    edits = {edit.description: edit for edit in find_edits(source)}
    negated = edits["condition negated"]  # the English, as the JSON's "change" keeps it
    assert negated.operator == "negate"
    assert translate(negated.description, "cs") == "podmínka znegována"
    dropped = edits["condition dropped: a < b"]
    assert translate(dropped.description, "ru") == "условие отброшено: a < b"
    assert translate(edits["< → <="].description, "pl") == "< → <="  # code stays code


def test_the_configurations_and_the_refused_pairs_are_named_in_the_language() -> None:
    from tabletop.kit.configurations import plan_configurations
    from tests.test_plugin_author import Sized

    every = plan_configurations(Sized())
    assert translate(every.how, "cs") == "všech 8 kombinací"
    assert translate(every.configs[0].label(), "pl") == "2 gracze"
    assert translate(every.refused[0], "ru").startswith("2 игрока, k=4: ")
    sample = plan_configurations(Sized(), max_configs=4)
    assert sample.refused == ["size=3 with k=4: k=4 cannot fit on a 3×3 board"]  # English
    assert translate(sample.refused[0], "cs").startswith("size=3 spolu s k=4: ")
    assert translate(sample.how, "bg").startswith("извадка по двойки: ")
    assert " от 8 комбинации, всяка двойка " in translate(sample.how, "bg")


def test_the_plain_text_report_is_english_unless_a_language_is_spoken() -> None:
    from tabletop.kit.conformance import check_game
    from tests.test_conformance import TooLong

    report = check_game(TooLong(), games_per_config=2, seed=1)
    english = report.text()
    assert english.startswith("toolong: 4 games in 2 configurations (all 2 combinations), seed 1, ")
    assert "bound: no end after 4 actions (info.max_actions)" in english
    czech = speaking("cs", report.text)
    assert czech.startswith("toolong: 4 hry v 2 konfiguracích (všechny 2 kombinace), seed 1, 0,")
    assert "bound: žádný konec po 4 tazích (info.max_actions)" in czech
    assert "  hra: 2 hráči, volby {" in czech and "SELHALA " in czech


def test_a_survivor_is_named_in_the_language_with_its_change(toy: Path) -> None:
    from rich.console import Console

    from tabletop.cli.mutate import print_report
    from tabletop.kit.mutation.report import summary
    from tabletop.kit.mutation.session import mutate

    results = mutate(spec_of(toy), ["T1", "T2.1", "T3"], ["rules"], max_mutants=400)

    def report(lang: str) -> str:
        console = Console(record=True, width=200)
        speaking(lang, print_report, results, console)
        return console.export_text()

    russian, english = report("ru"), report("en")
    assert "survived: #" in english and " in three (T3): " in english
    assert "выжил: № " in russian and " в функции three (T3): " in russian
    assert "survived" not in russian and "Mutation score" not in russian
    assert "Мутационная оценка tttmut по модулям" in russian and "tttmut.rules" in russian
    assert "rules.py (мутант № " in russian and "rules.py (mutant #" in english  # the diff's
    summary_diffs = [s["diff"] for s in summary(results)["survivors"]]
    assert all("(mutant #" in d for d in summary_diffs)  # --json: English, for scripts


def test_a_configuration_mutant_describes_its_change_in_the_language() -> None:
    from tabletop.kit.mutation.configs import ConfigChange

    default = ConfigChange("default", "deck", "full", "half").describe()
    assert default == 'option deck: default "full" -> "half"'
    assert translate(default, "pl") == 'opcja deck: domyślnie "full" -> "half"'
    bound = ConfigChange("bound", "stall_limit.ge", 2, 1).describe()
    assert translate(bound, "ru") == "параметр stall_limit: ge 2 -> 1"  # ge: the machine's
    assert ConfigChange("players", "max_players", 6, 7).describe() == "max_players 6 -> 7"

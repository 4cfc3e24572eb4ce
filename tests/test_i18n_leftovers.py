"""The last English leftovers of issue 24: what `tabletop games`, `play`'s hint, `replay`,
`review` and the web's new-match form, coach and websocket say is in the reader's language,
and a sweep: run in Czech, no English sentence of any catalogue shows up untranslated.
Machine words (option keys and values, notation, JSON keys) stay as they are."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po
from starlette.testclient import TestClient

from tabletop.core.i18n.catalogues import po_path
from tabletop.core.i18n.text import Domain, Msg, translate
from tabletop.web.app import build_app
from tests.web_support import TEST_CONFIG

DOMAINS = ("tabletop", "tabletop_quarto", "tabletop_quartino", "tabletop_ctverak",
           "tabletop_pig", "tabletop_goofspiel")  # fmt: skip
ROOT = Path(__file__).resolve().parent.parent
# machine words
TYPES = "action, undo, undo-answer, rematch, chat, name, resign, draw-offer, draw-answer"


def tabletop(*args: str, lang: str = "cs", stdin: str = "", cwd: Path | None = None) -> str:
    """The output (stdout and stderr) of a real ``tabletop`` process speaking ``lang``."""
    env = {**os.environ, "TABLETOP_LANG": lang, "COLUMNS": "200", "NO_COLOR": "1"}
    done = subprocess.run(
        [sys.executable, "-m", "tabletop", *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        cwd=cwd,
    )
    return done.stdout + done.stderr


def english_sentences(lang: str) -> set[str]:
    """The English text of every catalogued message translated differently in ``lang``:
    its parts between placeholders that are three words or more (a sentence, not a word
    like ``deck`` that a machine key may share)."""
    found: set[str] = set()
    for domain in DOMAINS:
        path = po_path(domain, lang)
        assert path is not None
        with path.open("rb") as source:
            catalog = read_po(source, locale=lang)
        for message in catalog:
            if not message.id:
                continue
            ids = [message.id] if isinstance(message.id, str) else list(message.id)
            texts = (
                [message.string] if isinstance(message.string, str) else list(message.string or ())
            )
            for msgid in ids:
                if msgid in texts:
                    continue
                for part in re.split(r"\{\w+\}", msgid):
                    part = part.strip(" ;:,.()")
                    if len(part.split()) >= 3 and "--" not in part and "`" not in part:
                        found.add(part)
    return found


def untranslated(output: str, lang: str = "cs") -> list[str]:
    return sorted(s for s in english_sentences(lang) if s in output)


# -- the terminal -----------------------------------------------------------------------


def test_games_lists_levels_options_and_their_ranges_in_the_language() -> None:
    listed = tabletop("games", "--lang", "pl")
    text = listed  # every game, the example plugin connect4 too (its own catalogue)
    assert "losowe dozwolone ruchy" in text  # level 1 of every game
    assert "podstawowy: wygrywa, gdy może" in text  # Quarto's level 2
    assert "(liczba całkowita 2..50)" in text  # Čtverák's stall_limit
    assert "gracze 2-6; gracze komputerowi" in text
    for english in ("random legal actions", "integer 2..50", "computer players", "playouts"):
        assert english not in text, english
    assert "-o stall_limit=6" in text and "-o deck=full" in text  # machine words stay
    assert untranslated(text, "pl") == []


def test_games_json_is_english_for_scripts_unless_asked() -> None:
    plain = json.loads(tabletop("games", "--json", lang="cs"))
    asked = json.loads(tabletop("games", "--json", "--lang", "cs"))
    quarto = {g["id"]: g for g in plain}["quarto"]
    assert quarto["ai_levels"][0]["description"] == "random legal actions"
    czech = {g["id"]: g for g in asked}["ctverak"]
    options = {o["name"]: o for o in czech["options"]}
    assert options["deck"]["label"] == "karty"
    assert options["deck"]["labels"] == {'"full"': "celé karty (108 karet)",
                                         '"half"': "polovina karet (54 karet)"}  # fmt: skip
    assert options["deck"]["allowed"] == ["full", "half"]  # the machine's values
    assert options["stall_limit"]["allowed"] == "celé číslo 2..50"


def test_the_hint_and_the_coach_speak_russian() -> None:
    # the opening book proves the first three placements (exact), a give and after it
    text = tabletop("play", "quarto", "--lang", "ru", stdin="hint\ngive LSRF\nhint\nquit\n")
    assert "безопасно дать: LSRF" in text  # Quarto's own one-ply hint
    assert "Точно (" in text and "удерживает ничью" in text  # proven by the book
    for english in ("safe to give", "to win (", "playouts", "Estimates", "not proof"):
        assert english not in text, english
    # the actions in Russian words ("отдать фигуру: тёмная, …"), not the notation
    assert "отдать фигуру: " in text and not re.search(r"give [LD][ST][RQ][FH]: ", text)
    assert untranslated(text, "ru") == []


def test_the_coachs_estimates_speak_russian() -> None:
    """Where nothing proves an action, the hint's estimates in Russian: the chance, its
    margin and the playouts it rests on, with the plural of the count."""
    from tabletop.coach.base import Assessment, Judgement
    from tabletop.coach.hints import hint_text

    judged = (
        Judgement(1, "drop 4", 0.62, visits=1200, said="бросить в столбец 4"),
        Judgement(2, "drop 1", 0.41, visits=300),
    )
    text = translate(hint_text(Assessment(1, judged, "поиск уровня 4")), "ru")
    assert "Оценки (поиск уровня 4" in text and "не доказательство" in text, text
    assert "бросить в столбец 4: 62% на победу (±" in text and "1\u00a0200 симуляций" in text, text
    assert "drop 1: 41% на победу" in text and "300 симуляций" in text, text


def test_notation_forms_name_their_placeholders_in_the_language() -> None:
    text = tabletop("play", "quarto", "--lang", "cs", stdin="zzz\nquit\n")
    assert "give <kámen>, place <pole>, quarto, done" in text
    assert "<piece>" not in text and "<square>" not in text
    text = tabletop("play", "quartino", "--lang", "pl", stdin="\nzzz\nquit\n")
    assert "place <kolor> <pole> (np. place Y r3)" in text, text[-400:]
    assert "<colour>" not in text


def test_broken_save_files_are_refused_in_the_language(tmp_path: Path) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text('{"game": "quarto", "actions": [\n', encoding="utf-8")
    other = tmp_path / "other.json"
    other.write_text('{"format": "tabletop-record/0"}', encoding="utf-8")
    said = tabletop("replay", str(broken), "--lang", "pl")
    assert f"plik zapisu {broken} nie jest JSON-em (wiersz 2:" in said, said
    said = tabletop("replay", str(other), "--lang", "bg")
    assert f"файлът със запис {other} не е запис на tabletop" in said, said
    said = tabletop("review", str(tmp_path / "none.json"), "--lang", "cs")
    assert "soubor s uloženou hrou neexistuje" in said, said
    said = tabletop("play", "quarto", "--save", str(tmp_path), "--lang", "ru")
    assert f"не удаётся сохранить в {tmp_path}: это папка" in said, said
    assert "save file" not in said and "cannot save" not in said
    said = tabletop("run", "quarto", "--from", str(broken), "--lang", "pl")
    assert f"plik pozycji {broken} nie jest JSON-em (wiersz 2:" in said, said
    said = tabletop("play", "quarto", "--ai", "2:9", "--lang", "cs")
    assert "neznámá úroveň počítače '9' pro quarto; známé úrovně: 1, 2, 3, 4, 5" in said, said


def test_a_review_reads_in_the_language(tmp_path: Path) -> None:
    from tabletop.core import records
    from tabletop.core.match import Match
    from tabletop.core.registry import registry

    game = registry().get("quarto")
    match = Match(game, 2, game.info.options(), 3)
    for _ in range(6):
        match.play(match.listing_text()[-1])
    save = tmp_path / "game.json"
    records.save(match.record(), save)
    text = tabletop("review", str(save), "--level", "2", "--lang", "cs")
    assert text.startswith("rozbor hry Quarto, tahů: ")
    assert "hráč 1: přesnost" in text and "hrubé chyby" in text
    assert "review," not in text and "accuracy" not in text and "blunders" not in text
    data = json.loads(tabletop("review", str(save), "--level", "2", "--json", lang="cs"))
    assert data["actions"][0]["verdict"] in ("best", "good", "inaccuracy", "mistake", "blunder",
                                             "forced")  # fmt: skip


# -- the web ----------------------------------------------------------------------------


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(build_app(tmp_path / "m.sqlite3", TEST_CONFIG)) as c:
        yield c


def test_the_new_match_form_gets_labels_values_and_levels_in_the_language(
    client: TestClient,
) -> None:
    games = {g["id"]: g for g in client.get("/api/games?lang=bg").json()}
    ctverak = {o["name"]: o for o in games["ctverak"]["options"]}
    assert ctverak["discard_rule"]["label"] == "кога се дължи изхвърляне"
    assert ctverak["discard_rule"]["labels"]['"four-cards"'] == "4 карти в ръката"
    assert ctverak["discard_rule"]["allowed"] == ["nothing-laid", "four-cards"]
    assert ctverak["stall_limit"]["allowed"] == "цяло число 2..50"
    quarto = {o["name"]: o for o in games["quarto"]["options"]}
    assert quarto["attributes"]["allowed"].startswith("непразен списък")
    claim = {'"auto"': "автоматично", '"manual"': "турнирно: обявете сами"}
    assert quarto["claim"]["labels"] == claim
    for game in games.values():
        for level in game["ai_levels"]:
            english = re.search(r"\b(random|playouts|search|own agent)\b", level["description"])
            assert not english, level
    quartino = {o["name"]: o for o in games["quartino"]["options"]}
    assert quartino["start"]["labels"]['"lot"'] == "с жребий"
    goofspiel = {o["name"]: o for o in games["goofspiel"]["options"]}  # an example plugin's
    assert goofspiel["points_order"]["label"] == "ред на наградите"
    assert goofspiel["points_order"]["labels"]['"descending"'] == "низходящ"
    assert goofspiel["points_order"]["allowed"] == ["random", "descending", "ascending"]
    pig = games["pig"]
    assert pig["options"][0]["label"] == "точки за победа"
    assert pig["ai_levels"][1]["description"] == "плах: спира, щом сборът на хода стигне 5"
    built_in = list(games.values())  # the examples connect4, pig and goofspiel included
    assert untranslated(json.dumps(built_in, ensure_ascii=False), "bg") == []


def test_a_refused_new_match_says_why_in_the_language(client: TestClient) -> None:
    body = {"game": "ctverak", "players": 4, "options": {"deck": "half"}, "seats": []}
    answer = client.post("/api/matches?lang=cs", json=body)
    assert answer.status_code == 400
    said = answer.json()["error"]
    assert "polovina karet (54) je pro 2-3 hráče, ne pro 4" in said, said
    assert said.startswith("partie ") and " má volby, které tato hra odmítá: " in said
    answer = client.post("/api/matches", json={**body, "seats": [{"seat": 9}]},
                         headers={"Accept-Language": "pl"})  # fmt: skip
    assert answer.json()["error"].startswith("miejsce 9: miejsca to numery graczy 1–4")


def test_protocol_errors_on_the_websocket_are_in_the_connections_language(
    client: TestClient,
) -> None:
    body = {"game": "quartino", "players": 2, "options": {}, "spectators": True}
    made = client.post("/api/matches", json=body).json()
    token = made["seats"][0]["token"]
    with client.websocket_connect(f"/ws/{made['id']}?token={token}&lang=ru") as ws:
        ws.send_text("not json")
        while (message := ws.receive_json())["type"] != "error":
            pass
        assert message["error"].startswith("сообщение — не JSON (строка 1:"), message
        assert message["error"].endswith(f"отправьте объект JSON с типом ({TYPES})")
        ws.send_text(json.dumps({"type": "chat"}))
        while (message := ws.receive_json())["type"] != "error":
            pass
        assert message["error"] == "сообщению чата нужно 'text': сообщение простым текстом"
        ws.send_text(json.dumps({"type": "chat", "text": " "}))
        while (message := ws.receive_json())["type"] != "error":
            pass
        assert message["error"] == "сообщению чата нужен текст"
        ws.send_text(json.dumps({"type": "dance"}))
        while (message := ws.receive_json())["type"] != "error":
            pass
        assert message["error"] == f"неизвестный тип сообщения 'dance'; допустимы: {TYPES}"


def test_the_web_hint_is_in_the_readers_language(client: TestClient) -> None:
    body = {"game": "quarto", "players": 2, "options": {}, "seats": [{"seat": 2, "ai": "1"}]}
    made = client.post("/api/matches", json=body).json()
    token = made["seats"][0]["token"]
    hint: Any = client.get(f"/api/matches/{made['id']}/hint?token={token}&lang=pl").json()
    assert "% na wygraną (±" in hint["text"] or "Dokładnie (" in hint["text"], hint["text"]
    assert "to win" not in hint["text"] and "playouts" not in hint["text"]
    assert hint["actions"][0]["action"].startswith("give ")  # notation stays
    bulgarian = {"Accept-Language": "bg"}
    refused = client.get(f"/api/matches/{made['id']}/hint?token=nobody", headers=bulgarian)
    assert refused.json()["error"] == "треньорът отговаря само на жетон на място"


# -- the pieces -------------------------------------------------------------------------


def test_a_template_filled_with_format_stays_translatable() -> None:
    _ = Domain("tabletop")
    template = _("only one legal action: {text}")
    filled = template.format(text="done")
    assert filled == "only one legal action: done" and isinstance(filled, Msg)
    assert translate(filled, "cs") == "jediný platný tah: done"
    assert translate(filled, "en") == "only one legal action: done"


def test_the_generic_board_names_its_fields_through_the_catalogue() -> None:
    from tabletop.core.i18n.scripts import script_messages

    words = script_messages(ROOT / "tabletop/web/static/generic.js")
    assert {"board", "to act", "winning line"} <= set(words)
    source = (ROOT / "tabletop/web/static/generic.js").read_text(encoding="utf-8")
    assert 'key.replaceAll("_", " ")));' not in source  # the key is looked up first


def test_ctverak_hint_and_the_rules_position_section_are_in_the_language() -> None:
    # seed 3 deals player 1 a pair (the deal is drawn by the match from its seed)
    text = tabletop("play", "ctverak", "--lang", "cs", "--seed", "3", stdin="\nhint\nquit\n")
    assert "můžete vyložit 2; pokud nic nevyložíte, odhoďte 3C 1" in text, text[-600:]
    assert "you can meld" not in text and "if you lay nothing" not in text
    assert untranslated(text, "cs") == []
    text = tabletop("rules", "quartino", "--lang", "ru")
    assert "Ключи — те, что в «Position JSON (N9)» выше" in text
    assert "Начальная позиция (2 игрока, параметры по умолчанию, зерно 0)" in text
    assert "The keys are" not in text and "The start position" not in text


@pytest.mark.parametrize(
    ("lang", "cards", "pile"), [("cs", "<karty>", "<hromádka>"), ("ru", "<карты>", "<стопка>")]
)
def test_ctverak_allowed_line_names_its_placeholders_in_the_language(
    lang: str, cards: str, pile: str
) -> None:
    """The board's "allows" line (issue 37, item 6): the notation stays, the placeholders
    (machine words in the view) are the reader's."""
    text = tabletop("play", "ctverak", "--lang", lang, "--seed", "3", stdin="\nquit\n")
    assert f"meld {cards}" in text and pile in text, text[-600:]
    assert not any(word in text for word in ("<cards>", "<card>", "<pile>", "<meld>"))


def test_the_libraries_refusals_and_a_long_lines_length_are_in_the_language() -> None:
    """An option value the options model refuses (pydantic's own English, before) and a
    typed line too long to quote whole (issue 37, item 6)."""
    said = tabletop("play", "goofspiel", "-o", "num_cards=20", lang="ru")
    assert "больше 13" in said and "Input should" not in said, said
    said = tabletop("play", "quarto", "-o", "squares=maybe", lang="cs")
    assert "není to ano/ne" in said and "valid boolean" not in said, said
    said = tabletop("play", "quarto", "--lang", "cs", stdin="x" * 60 + "\nquit\n")
    assert "(60 znaků)" in said and "characters)" not in said, said[-400:]


def test_quarto_names_where_a_line_lies_in_the_languages_case() -> None:
    """The coach's "completes the tall pieces in row 3" is one phrase per language, so the
    preposition governs the case (issue 37, item 6: Czech "v řada 3" before)."""
    from tabletop.core.i18n.text import translate
    from tabletop_quarto.coach import WINS_NOW, pattern_place
    from tabletop_quarto.pieces import LINES

    said = {lang: [translate(pattern_place(p), lang) for p in (LINES[2], LINES[6])]
            for lang in ("cs", "pl", "ru")}  # fmt: skip
    assert said == {"cs": ["v řadě 3", "ve sloupci c"], "pl": ["w rzędzie 3", "w kolumnie c"],
                    "ru": ["в ряду 3", "в столбце c"]}  # fmt: skip
    won = WINS_NOW.format(values="vysoké", where=pattern_place(LINES[2]))
    assert translate(won, "cs") == "vyhrává hned: doplní kameny (vysoké) v řadě 3"


def test_quartino_start_check_in_the_terminal_is_in_the_readers_language() -> None:
    """N4.1's announcement in `play` (render) speaks the reader's language; the view's
    machine ``text`` stays English."""
    from tabletop.core.i18n.text import speaking
    from tabletop_quartino.render import check_words

    check = {"player": 1, "situations": True, "column": ["r3"], "four_colours": ["G"],
             "owed": 3, "lapsed": False, "text": "column: r3 emptied; four colours (G); "
             "3 placements owed"}  # fmt: skip
    english = speaking("en", check_words, check)
    assert "emptied" in english and "3 placements owed" in english
    for lang in ("cs", "pl", "bg", "ru"):
        said = speaking(lang, check_words, check)
        assert "emptied" not in said and "owed" not in said and "r3" in said, (lang, said)


# -- the kit, solve, click's other usage errors, the flags of analyse, connect4 ----------


def test_scenario_file_problems_and_the_summary_are_in_the_language(tmp_path: Path) -> None:
    """`tabletop test` on a broken YAML, an unknown key and a failing step, in Czech: the
    problems, the tables and the total; the file's own words (keys, actions) stay."""
    bad = tmp_path / "bad.yaml"
    bad.write_text(
        "format: tabletop-scenarios/1\ngame: quarto\ncases:\n"
        "  - name: typo\n    foo: 1\n    steps: [{do: give LSRF}]\n"
        "  - name: wrong\n    steps:\n      - do: give LSRF\n        expect: {status: over}\n"
        "  - name: no such piece\n    steps:\n      - expect: {legal_contains: [give XXXX]}\n",
        encoding="utf-8",
    )
    broken = tmp_path / "broken.yaml"
    broken.write_text("format: tabletop-scenarios/1\ncases: [\n", encoding="utf-8")
    said = tabletop("test", str(bad), str(broken), cwd=tmp_path)
    assert "bad.yaml:5: případ 'typo': neznámý klíč 'foo' v: případ; povolené: name," in said
    assert "bad.yaml:10: případ 'wrong', očekávání nesplněna" in said, said
    assert "  krok 1: give LSRF" in said
    assert '      - očekáváno: "over"\n      + skutečně:  "ongoing"' in said
    assert "případ 'no such piece': legal_contains: 'give XXXX' tu není tah: " in said
    assert "broken.yaml:3: chybný YAML: " in said
    assert "Soubory se scénáři" in said and "┃ soubor" in said
    assert "3 případy: prošlo 0, selhalo 1, chyb 3" in said
    for english in ("case 'typo'", "unknown key", "expectations not met", "expected:",
                    "bad YAML", "is not an action here", "Scenario files", "3 cases"):  # fmt: skip
        assert english not in said, english
    assert untranslated(said) == []
    said = tabletop("test", str(bad), "-k", "typo and", cwd=tmp_path)
    assert "tabletop: výraz -k 'typo and' končí předčasně" in said


def test_the_mutation_runners_refusal_is_in_the_language(tmp_path: Path) -> None:
    failing = tmp_path / "failing.yaml"
    failing.write_text(
        "format: tabletop-scenarios/1\ngame: quarto\ncases:\n"
        "  - name: wrong\n    steps:\n      - do: give LSRF\n        expect: {status: over}\n",
        encoding="utf-8",
    )
    said = tabletop("test", str(failing), "--mutate", "--game", "quarto", lang="pl")
    polish = (
        "tabletop: zestaw zasad nie przechodzi nawet bez mutacji (przypadek 'wrong' "
        "(failing.yaml)): najpierw niech przejdą `tabletop test`"
    )
    assert said.strip().startswith(polish), said  # (a blank line: the progress bar)
    said = tabletop("test", str(failing), "--mutate", "--game", "quarto")
    assert "sada pravidel selhává i bez mutace (případ 'wrong' (failing.yaml))" in said, said


def test_solve_says_its_summary_in_the_language() -> None:
    said = tabletop("solve", "quarto", "--seconds", "0.5")
    assert said.startswith(
        "příliš hluboko pro časový rozpočet: žádná přesná hodnota pro hráče 1"
    ), said
    # the notation stays; on a loaded machine the budget may end before any guess
    assert re.search(r"nejlepší odhad: (give [A-Z]{4}\b|žádná)", said), said
    data = json.loads(tabletop("solve", "quarto", "--seconds", "0.5", "--json"))
    assert data["summary"].startswith("too deep for the budget")  # --json: English


def test_the_solver_summary_counts_placements_with_the_languages_plurals() -> None:
    from tabletop.core.i18n.text import speaking
    from tabletop.core.registry import registry
    from tabletop_quarto.solver import Solution, summary

    game = registry().get("quarto")
    state = game.new(2, game.info.options(), 0)
    won = Solution(1, 3, None, True)
    said = {lang: speaking(lang, lambda: translate(summary(won, state))) for lang in
            ("en", "cs", "pl", "ru")}  # fmt: skip
    assert said["en"] == "player 1 wins in 3 placements with best play; best: none"
    assert said["cs"] == "hráč 1 vyhrává za 3 položení při nejlepší hře; nejlepší: žádná"
    assert said["pl"].startswith("gracz 1 wygrywa w 3 położeniach przy najlepszej grze")
    assert said["ru"].startswith("игрок 1 выигрывает за 3 постановки при лучшей игре")


CLICK_ERRORS = [
    (("play", "quarto", "extra", "more"),
     "tabletop: Nečekané argumenty navíc (extra more) (viz 'tabletop play --help')"),
    (("play", "quarto", "-o"),
     "tabletop: Přepínač '-o' potřebuje hodnotu. (viz 'tabletop play --help')"),
    (("games", "--json=3"),
     "tabletop: Přepínač '--json' nebere hodnotu. (viz 'tabletop games --help')"),
    (("gamez",), "tabletop: Neznámý příkaz 'gamez'. Mysleli jste 'games'? (viz 'tabletop --help')"),
    (("frob",), "tabletop: Neznámý příkaz 'frob'. (viz 'tabletop --help')"),
    (("serve", "--port", "abc"),
     "tabletop: Neplatná hodnota pro '--port': má být celé číslo, text nelze přečíst jako celé "
     "číslo (viz 'tabletop serve --help')"),
    (("play", "foo"), "tabletop: neznámá hra 'foo'; nainstalované hry: connect4, ctverak,"),
    (("analyse", "quarto", "--games", "0"), "tabletop: --games musí být 1 až 1000000, ne 0"),
    (("analyse", "quarto", "--players", "x"),
     "tabletop: --players bere celá čísla jako 2,3, ne 'x'"),
    (("analyse", "quarto", "--backend", "zz"), "tabletop: neznámý --backend 'zz'; povolené: "),
    (("analyse", "quarto", "--export", "x.txt"),
     "tabletop: --export x.txt: soubor musí končit na .jsonl nebo .csv"),
    (("arena", "quarto", "--agents", "1"), "tabletop: --agents potřebuje aspoň dva hráče"),
    (("compare", "quarto"), "tabletop: compare potřebuje aspoň jedno --change KLÍČ=HODNOTA"),
]  # fmt: skip


@pytest.mark.parametrize(("args", "says"), CLICK_ERRORS)
def test_the_rarer_usage_errors_are_in_the_language(args: tuple[str, ...], says: str) -> None:
    said = tabletop(*args).replace("python -m tabletop", "tabletop")  # as the console script
    assert said.startswith(says), said
    assert untranslated(said) == []
    english = tabletop(*args, lang="en")
    assert english.startswith("tabletop: ") and english != said  # the English stays click's


def test_connect4_ships_its_catalogue_and_its_rules_in_five_languages() -> None:
    from tabletop.core.i18n.catalogues import languages_of
    from tabletop.kit.checks.translations import check_package

    assert sorted(languages_of("tabletop_connect4")) == ["bg", "cs", "en", "pl", "ru"]
    assert check_package("tabletop_connect4") == []
    games = {g["id"]: g for g in json.loads(tabletop("games", "--json"))}
    assert sorted(games["connect4"]["languages"]) == ["bg", "cs", "en", "pl", "ru"]
    text = tabletop("play", "connect4", "--lang", "cs", stdin="drop 9\nquit\n")
    assert "hoďte žeton (X) do sloupce 1-7" in text
    assert "sloupec 9 neexistuje: sloupce jsou 1-7 (C1.1)" in text, text[-500:]
    assert "drop a disc" not in text and "there is no column" not in text
    assert tabletop("rules", "connect4", "--lang", "pl").lstrip().startswith("Czwórki")
    assert "Четыре в ряд" in tabletop("rules", "connect4", "--lang", "ru")


def test_pig_and_goofspiel_speak_czech_in_the_listing_play_and_rules() -> None:
    """The example plugins' own catalogues: `tabletop games` (through its cache: stored
    untranslated, translated when read) shows Pig's levels and options and Goofspiel's
    summary in Czech; play and rules speak the reader's language; the notation stays."""
    listed = tabletop("games", "--lang", "cs")
    pig = listed[listed.index("\npig ") : listed.index("\nquartino ")]
    assert "bojácný: zastaví, jakmile součet tahu dosáhne 5" in pig
    assert "opatrný: zastaví, jakmile součet tahu dosáhne 10" in pig
    assert "dokonalý: strategie, která vyhrává nejčastěji (Neller a Presser)" in pig
    assert "Házejte kostkou a sčítejte body tahu" in pig
    assert "-o winscore=100  (celé číslo 1..1000) P3.1 kolik bodů vyhrává: 1 až 1000" in pig
    goofspiel = listed[listed.index("\ngoofspiel ") : listed.index("\npig ")]
    assert "Dražte cenové karty svými kartami, všichni naráz a skrytě" in goofspiel
    assert "G1.2 pořadí cenových karet" in goofspiel
    assert "(random|descending|ascending)" in goofspiel  # the machine's values stay
    for english in ("timid", "holds once", "Neller and Presser", "Bid your cards", "cards per"):
        assert english not in listed, english
    assert untranslated(listed, "cs") == []
    again = tabletop("games", "--lang", "cs")  # the listing read back from the cache
    assert "bojácný: zastaví, jakmile součet tahu dosáhne 5" in again
    played = tabletop("play", "pig", "--lang", "cs", stdin="foo\nquit\n")
    assert "házet (roll), nebo zastavit (hold)? součet tahu 0" in played, played[-500:]
    assert "napište 'roll' (házet), nebo 'hold' (zastavit)" in played
    assert "roll or hold" not in played and "write 'roll'" not in played
    bid = tabletop("play", "goofspiel", "--lang", "cs", stdin="\nbid 99\nquit\n")
    assert "nabídněte kartu o cenu" in bid and "nabídka se píše 'bid 1' až 'bid 13'" in bid, bid
    assert tabletop("rules", "pig", "--lang", "pl").count("Przy jedynce suma tury przepada") == 1
    rules = tabletop("rules", "goofspiel", "--lang", "ru")
    assert "Игра закрытых ставок" in rules and "A game of sealed bids" not in rules
    assert "G1.2 порядок призовых карт" in rules  # the options' help, from the catalogue


def test_pig_and_goofspiel_count_points_with_the_languages_plurals() -> None:
    import importlib

    from tabletop.core.i18n.text import speaking

    # loaded as the bridges' tests load them (mypy's farm holds the built-in plugins only)
    pig = importlib.import_module("tabletop_pig.rules")
    goofspiel = importlib.import_module("tabletop_goofspiel.rules")
    won = [pig.initial(2, pig.PigOptions(winscore=1))._replace(scores=(0, s)) for s in (1, 3, 5)]
    reasons = [pig.outcome(state) for state in won]
    assert [str(r.reason) for r in reasons if r] == [
        "player 2 reached 1 point (P3.1)", "player 2 reached 3 points (P3.1)",
        "player 2 reached 5 points (P3.1)"]  # fmt: skip
    said = [speaking("ru", translate, r.reason) for r in reasons if r]
    assert said == ["игрок 2 набрал 1 очко (P3.1)", "игрок 2 набрал 3 очка (P3.1)",
                    "игрок 2 набрал 5 очков (P3.1)"]  # fmt: skip
    start = goofspiel.initial(2, goofspiel.GoofspielOptions(num_cards=3))
    drawn = start._replace(winners=(1, 2, 0), points=(2, 2))
    reason = goofspiel.outcome(drawn)
    assert reason is not None and str(reason.reason) == "everyone has 2 points: a draw (G3.1)"
    assert speaking("cs", translate, reason.reason) == "všichni mají 2 body: remíza (G3.1)"
    assert speaking("pl", translate, reason.reason) == "wszyscy mają 2 punkty: remis (G3.1)"

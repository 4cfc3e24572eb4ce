"""Issue 40, reports that read right in every language: a real ``analyse --report`` (a
sweep) and ``compare --report`` page, the terminal output of both, and the words drawn in
their plots, made in Czech, Polish, Bulgarian and Russian, hold no English text of the
analysis' messages. Notation, numbers, game ids and machine keys (option keys, end kinds,
JSON keys) stay as they are; the page says its language in ``<html lang>``."""

from __future__ import annotations

import html
import json
import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po

from tabletop.core.i18n.catalogues import po_path
from tests.test_i18n_leftovers import tabletop, untranslated

LANGUAGES = ("cs", "pl", "bg", "ru")
# the sources whose messages are the analysis' words (catalogue locations, from tabletop/)
SOURCES = ("analysis/", "cli/analyse.py", "cli/compare.py")
GAME = "connect4"  # the example plugin: fast games, a catalogue of its own


@cache
def analysis_english(lang: str) -> frozenset[str]:
    """The English text of every analysis message that ``lang`` translates differently:
    each part between placeholders with a word of three letters or more (``Summary``,
    ``seats won %``; ``to`` is Polish too), not a part the translation keeps (``drama``,
    ``min``, ``p (Holm)``)."""
    path = po_path("tabletop", lang)
    assert path is not None
    with path.open("rb") as source:
        catalog = read_po(source, locale=lang)
    found: set[str] = set()
    for message in catalog:
        if not message.id or not any(f.startswith(SOURCES) for f, _ in message.locations):
            continue
        ids = [message.id] if isinstance(message.id, str) else list(message.id)
        texts = [message.string] if isinstance(message.string, str) else [*(message.string or ())]
        for msgid in ids:
            for part in re.split(r"\{\w+(?::[^}]*)?\}", msgid):
                part = part.strip(" ;:,.()[]±−-*=%/")
                if re.search(r"[A-Za-z]{3}", part) and not any(part in t for t in texts):
                    found.add(part)
    return frozenset(found)


def english_left(said: str, lang: str, machine: set[str]) -> list[str]:
    """The analysis' English parts found in ``said`` as words of their own, after the
    machine words (end kinds, option keys, the game id, file names) are taken out."""
    for word in sorted(machine, key=len, reverse=True):
        said = said.replace(word, " ")
    left = [
        part
        for part in analysis_english(lang)
        if re.search(rf"(?<![\w-]){re.escape(part)}(?![\w-])", said)
    ]
    return sorted(left) + untranslated(said, lang)


def page_text(page: str) -> str:
    """What a reader sees of an HTML page: no style, no embedded data, no tags."""
    page = re.sub(r"<style>.*?</style>", " ", page, flags=re.DOTALL)
    page = re.sub(r"data:[\w/+-]+;base64,[A-Za-z0-9+/=]+", "", page)
    page = re.sub(r"<[^>]+>", " ", page)
    return html.unescape(page)


MACHINE = {GAME, "connect=3", "connect=3,4", "docs/analysis.md", "--seconds-per-turn",
           "--export FILE.csv", "--resume", "McNemar", "Wilcoxon", "Holm",
           "(Drama)", "(Stability)"}  # fmt: skip  # Ludii's names of its measures


def machine_words(data: dict[str, Any]) -> set[str]:
    """The end kinds of a run's JSON (``line``, ``draw``): machine keys, shown as they are."""
    kinds = {k for row in data.get("configurations", []) for k in row["end_reasons"]}
    kinds |= {m["name"].split(":")[1].split("@")[0] for m in data.get("measures", [])
              if m["name"].startswith("end:")}  # fmt: skip
    return MACHINE | kinds


@pytest.mark.parametrize("lang", LANGUAGES)
def test_an_analyse_sweep_reads_in_the_language(lang: str, tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    report = tmp_path / "sweep.html"
    words = ("analyse", GAME, "-o", "connect=3,4", "--agents", "1,2", "--games", "6")
    said = tabletop(*words, "--report", str(report), "--lang", lang)
    data = json.loads(tabletop(*words, "--json", "--lang", lang))
    page = report.read_text(encoding="utf-8")
    machine = machine_words(data)
    assert english_left(said, lang, machine) == [], said
    assert english_left(page_text(page), lang, machine) == [], page_text(page)
    assert f"<html lang='{lang}'>" in page
    assert "connect=3" in said and "connect=4" in page  # the option keys stay


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_compare_reads_in_the_language(lang: str, tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    report = tmp_path / "compare.html"
    words = ("compare", GAME, "--change", "connect=3", "--agents", "1,2", "--games", "8")
    said = tabletop(*words, "--replicate", "1", "--report", str(report), "--lang", lang)
    data = json.loads(tabletop(*words, "--json", "--lang", lang))
    page = report.read_text(encoding="utf-8")
    machine = machine_words(data)
    assert english_left(said, lang, machine) == [], said
    assert english_left(page_text(page), lang, machine) == [], page_text(page)
    assert f"<html lang='{lang}'>" in page


def drawn_words(fig: Any) -> str:
    """Every piece of text a matplotlib figure draws: titles, labels, ticks, legends."""
    from matplotlib.text import Text

    return "\n".join(t.get_text() for t in fig.findobj(Text))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_plots_draw_their_words_in_the_language(lang: str) -> None:
    pytest.importorskip("matplotlib")
    from tabletop.analysis.compare import make_comparison, paired_measures
    from tabletop.analysis.compare_report import differences
    from tabletop.analysis.report_plots import figures
    from tabletop.analysis.run import play, summarise
    from tabletop.analysis.sweep import make_plan
    from tabletop.core.i18n.text import speaking

    data = summarise(play(make_plan(GAME, None, ["connect=3,4"], "1,2", 6, 0), 1, "local"))
    comparison = make_comparison(GAME, None, [], ["connect=3"], "1,2", 8, 0)
    found = paired_measures(play(comparison.plan, 1, "local"))

    def draw() -> str:
        made = figures(data)
        assert {"seat_win_rates", "endings", "skill"} <= set(made)
        return "\n".join(drawn_words(fig) for fig in [*made.values(), differences(found)])

    drawn = speaking(lang, draw)
    machine = machine_words(data) | {m.name.split(":")[1].split("@")[0] for m in found
                                     if m.name.startswith("end:")}  # fmt: skip
    assert english_left(drawn, lang, machine) == [], drawn


def test_the_czech_six_player_summary_still_fits_1280_px_and_scrolls_on_a_phone(
    tmp_path: Path,
) -> None:
    """Translated heads are longer (``jak partie skončily``, ``body na místo``): the
    six-player summary of tests/test_analysis_report_browser.py, in Czech, still fits a
    1,280 px screen and scrolls inside its own box on a 390 px phone, the page never."""
    pytest.importorskip("matplotlib")
    pytest.importorskip("playwright")
    from tabletop.analysis.report import write_report
    from tabletop.analysis.run import agent_names
    from tabletop.core.i18n.text import speaking
    from tests.browser_support import chromium, shots
    from tests.test_analysis_report_browser import sweep

    data = sweep()
    data["agents"] = agent_names("ctverak", data["levels"])  # the descriptions, translated
    page_file = tmp_path / "ctverak-cs.html"
    speaking("cs", write_report, data, page_file)
    assert "jak partie skončily" in page_file.read_text(encoding="utf-8")
    folder = shots("analysis-report")
    folder.mkdir(parents=True, exist_ok=True)
    measure = """() => ({page: document.documentElement.scrollWidth,
        table: document.querySelector('table').scrollWidth,
        box: document.querySelector('div.scroll').clientWidth})"""
    with chromium() as browser:
        for width in (1280, 390):
            page = browser.new_page(viewport={"width": width, "height": 900})
            page.goto(page_file.as_uri())
            seen = page.evaluate(measure)
            page.screenshot(path=str(folder / f"summary-cs-{width}.png"), full_page=True)
            page.close()
            assert seen["page"] <= width, seen
            if width == 1280:
                assert seen["table"] <= seen["box"], seen
            else:
                assert seen["table"] > seen["box"], seen

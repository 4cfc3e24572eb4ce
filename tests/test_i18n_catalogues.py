"""The catalogues: every message of the core, of every built-in game and of the Pig and
Goofspiel examples is translated in all five languages, placeholders identical, plural
forms those of the language (CLDR, as Babel writes them); and the kit's ``translations``
check fails on a broken catalogue."""

from __future__ import annotations

import string
import sys
from pathlib import Path

import pytest
from babel.messages.plurals import get_plural
from babel.messages.pofile import read_po

from tabletop.core.i18n.catalogues import languages_of, locale_folder, po_path
from tabletop.core.i18n.languages import LANGUAGES
from tabletop.kit.checks.translations import check_package, placeholders, source_messages

DOMAINS = (
    "tabletop",
    "tabletop_quarto",
    "tabletop_quartino",
    "tabletop_ctverak",
    "tabletop_connect4",  # the example plugins with catalogues of their own
    "tabletop_pig",
    "tabletop_goofspiel",
)


@pytest.mark.parametrize("domain", DOMAINS)
def test_every_marked_message_is_translated_in_every_language(domain: str) -> None:
    assert sorted(languages_of(domain)) == sorted(LANGUAGES)
    assert check_package(domain) == []


@pytest.mark.parametrize("domain", DOMAINS)
def test_the_catalogues_hold_exactly_the_marked_messages(domain: str) -> None:
    """No stale msgid: what the source marks is what each catalogue has (tools/i18n-update)."""
    folder = locale_folder(domain)
    assert folder is not None
    marked = {k if isinstance(k, str) else k[0] for k in source_messages(folder.parent)}
    assert len(marked) > 10
    for lang in LANGUAGES[1:]:
        path = po_path(domain, lang)
        assert path is not None
        with path.open("rb") as source:
            catalog = read_po(source, locale=lang)
        held = {m.id if isinstance(m.id, str) else m.id[0] for m in catalog if m.id}
        assert held == marked, (lang, sorted(held ^ marked)[:5])


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("lang", LANGUAGES[1:])
def test_plural_forms_are_the_language_rule_and_every_translation_formats(
    domain: str, lang: str
) -> None:
    path = po_path(domain, lang)
    assert path is not None
    with path.open("rb") as source:
        catalog = read_po(source, locale=lang)
    rule = get_plural(lang)
    assert catalog.plural_forms == rule.plural_forms
    values = {}
    for message in catalog:
        if not message.id:
            continue
        texts = [message.string] if isinstance(message.string, str) else list(message.string or ())
        if isinstance(message.id, tuple):
            assert len(texts) == rule.num_plurals, message.id
        for text in texts:
            values = {name: "x" for name in placeholders(text)}
            text.format(**values)  # no stray brace, every field a plain name
            fields = [f for _, f, spec, conv in string.Formatter().parse(text) if f is not None]
            assert all(f.isidentifier() for f in fields), (message.id, text)


def write_package(root: Path, name: str, translations: dict[str, str]) -> None:
    package = root / name
    (package / "locale" / "cs" / "LC_MESSAGES").mkdir(parents=True)
    (package / "__init__.py").write_text(
        "from tabletop.game import Domain\n\n"
        f'_ = Domain("{name}")\n'
        'A = _("the game is over (X1)")\n'
        'B = _("{square} is occupied by {piece} (X2)", square="a1", piece="p")\n',
        encoding="utf-8",
    )
    entries = "".join(f'msgid "{k}"\nmsgstr "{v}"\n\n' for k, v in translations.items())
    header = (
        'msgid ""\nmsgstr ""\n"Language: cs\\n"\n'
        '"Plural-Forms: nplurals=3; plural=(n == 1 ? 0 : n >= 2 && n <= 4 ? 1 : 2);\\n"\n'
        '"Content-Type: text/plain; charset=utf-8\\n"\n\n'
    )
    po = package / "locale" / "cs" / "LC_MESSAGES" / f"{name}.po"
    po.write_text(header + entries, encoding="utf-8")


def test_the_check_names_a_missing_translation_and_a_dropped_placeholder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.syspath_prepend(str(tmp_path))
    write_package(
        tmp_path,
        "i18n_broken_game",
        {"{square} is occupied by {piece} (X2)": "pole {square} je obsazené (X2)"},
    )
    problems = check_package("i18n_broken_game")
    assert problems == [
        "cs: no translation of 'the game is over (X1)'",
        "cs: '{square} is occupied by {piece} (X2)' translated as "
        "'pole {square} je obsazené (X2)' drops {piece}",
    ]
    write_package(
        tmp_path,
        "i18n_good_game",
        {
            "the game is over (X1)": "hra skončila (X1)",
            "{square} is occupied by {piece} (X2)": "na {square} stojí {piece} (X2)",
        },
    )
    assert check_package("i18n_good_game") == []
    sys.modules.pop("i18n_broken_game", None)


def test_the_check_runs_in_the_conformance_kit() -> None:
    from tabletop.kit.checks import CHECKS
    from tabletop.testing import check_game

    assert "translations" in CHECKS
    report = check_game("quarto", games=1)
    stats = report.checks["translations"]
    assert stats.runs == 1 and stats.failures == 0


def test_the_pages_words_are_translated_in_every_language() -> None:
    from tabletop.web.languages import PAGES, page_messages

    marked = page_messages()
    assert {"Games", "Your action", "Send", "Language"} <= set(marked)
    for lang in LANGUAGES[1:]:
        path = po_path(PAGES, lang)
        assert path is not None
        with path.open("rb") as source:
            catalog = read_po(source, locale=lang)
        held = {m.id: m.string for m in catalog if m.id}
        assert set(held) == set(marked), (lang, sorted(set(held) ^ set(marked)))
        assert all(held[m] for m in marked), lang


ROOT = Path(__file__).resolve().parent.parent
SCRIPTS = {  # each page script and built-in board -> the catalogue its words belong to
    **{
        f"tabletop/web/static/{name}.js": "tabletop.web"
        for name in ("match", "lobby", "generic", "coach", "review")
    },
    "plugins/quarto/web/board.js": "tabletop_quarto",
    "plugins/quartino/web/board.js": "tabletop_quartino",
    "plugins/ctverak/web/board.js": "tabletop_ctverak",
}


@pytest.mark.parametrize("script", sorted(SCRIPTS))
def test_every_word_of_a_page_script_or_board_is_translated_placeholders_kept(
    script: str,
) -> None:
    """Each entry of the script's words({...}) table (a new, untranslated one fails here) has
    a translation in cs, pl, bg and ru with the same {placeholders}, every plural form too;
    and no table of English strings is left outside words()."""
    from tabletop.core.i18n.scripts import script_messages

    path = ROOT / script
    source = path.read_text(encoding="utf-8")
    assert "const T = {" not in source and "const TEXT = {" not in source
    messages = script_messages(path)
    assert len(messages) >= (1 if script.endswith("generic.js") else 4), script
    domain = SCRIPTS[script]
    for lang in LANGUAGES[1:]:
        po = po_path(domain, lang)
        assert po is not None
        with po.open("rb") as handle:
            catalog = read_po(handle, locale=lang)
        forms = get_plural(lang).num_plurals
        for key in messages:
            msgid = key if isinstance(key, str) else key[0]
            entry = catalog.get(msgid)
            assert entry is not None and not entry.fuzzy, (lang, msgid)
            string = entry.string
            texts = [string] if isinstance(string, str) else list(string or ())
            plural = isinstance(key, tuple)
            assert len(texts) == (forms if plural else 1), (lang, msgid)
            extra = placeholders(key[1]) if isinstance(key, tuple) else set()
            wanted = placeholders(msgid) | extra
            for text in texts:
                assert isinstance(text, str) and text, (lang, msgid)
                got = placeholders(text) | ({"n"} & wanted if plural else set())
                assert got == wanted, (lang, msgid, text)


def test_the_script_tables_are_read_with_their_plurals(tmp_path: Path) -> None:
    from tabletop.core.i18n.scripts import script_messages

    script = tmp_path / "board.js"
    script.write_text(
        'const [T, fill] = words({\n  a: "one {x}", b: "two",\n'
        '  c: ["{n} card", "{n} cards"],\n}, "tabletop_x");\nconst other = { d: "not mine" };\n',
        encoding="utf-8",
    )
    assert script_messages(script) == {"one {x}": 2, "two": 2, ("{n} card", "{n} cards"): 3}

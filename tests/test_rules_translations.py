"""The translated rules texts (issue 24): each built-in game's ``README.<lang>.md`` keeps the
English README's structure, so a reviewer can read them side by side.

For every game and language: the same headings (level and the rule IDs they name), the same
rule IDs in each section, the same code (fenced blocks identical, inline notation spans the
same in each section), the same tables; and no English prose line left untranslated.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GAMES = ("ctverak", "quartino", "quarto")
LANGS = ("cs", "pl", "bg", "ru")

RULE_ID = re.compile(r"\b[QNK]\d+(?:\.\d+)*\b")
FENCE = re.compile(r"^```.*?^```", re.M | re.S)
HEADING = re.compile(r"^(#{1,6}) ")
CODE_SPAN = re.compile(r"`[^`\n]+`")
# Proper names that stay as they are in every language.
NAMES = {"Quarto", "Quartino", "Petr", "Doubek", "Loris", "Games", "Djeco", "Honza"}
QUOTED = re.compile(r"\"[^\"\n]*\"|„[^“\n]*“|«[^»\n]*»")


def readme(game: str, lang: str | None = None) -> str:
    name = "README.md" if lang is None else f"README.{lang}.md"
    return (ROOT / "plugins" / game / name).read_text("utf-8")


def sections(text: str) -> list[tuple[str, str]]:
    """(heading line, body) pairs, fenced blocks removed; the text before the first
    heading is a section with an empty heading."""
    out: list[tuple[str, list[str]]] = [("", [])]
    for line in FENCE.sub("", text).splitlines():
        if HEADING.match(line):
            out.append((line, []))
        else:
            out[-1][1].append(line)
    return [(head, "\n".join(body)) for head, body in out]


def outline(text: str) -> list[tuple[str, list[str]]]:
    """Each heading's level and the rule IDs it names, in order."""
    result = []
    for head, _ in sections(text)[1:]:
        match = HEADING.match(head)
        assert match
        result.append((match.group(1), RULE_ID.findall(head)))
    return result


CASES = [(game, lang) for game in GAMES for lang in LANGS]


@pytest.mark.parametrize(("game", "lang"), CASES)
def test_headings_match(game: str, lang: str) -> None:
    assert outline(readme(game, lang)) == outline(readme(game))


@pytest.mark.parametrize(("game", "lang"), CASES)
def test_rule_ids_match_section_by_section(game: str, lang: str) -> None:
    english, translated = sections(readme(game)), sections(readme(game, lang))
    assert len(translated) == len(english)
    for (head, body), (t_head, t_body) in zip(english, translated, strict=True):
        assert set(RULE_ID.findall(t_body)) == set(RULE_ID.findall(body)), (head, t_head)
    assert set(RULE_ID.findall(readme(game, lang))) == set(RULE_ID.findall(readme(game)))


@pytest.mark.parametrize(("game", "lang"), CASES)
def test_code_is_unchanged(game: str, lang: str) -> None:
    """Notation and machine words stay canonical ASCII: fenced blocks identical, and each
    section holds the same inline code spans (any order)."""
    assert FENCE.findall(readme(game, lang)) == FENCE.findall(readme(game))
    english, translated = sections(readme(game)), sections(readme(game, lang))
    for (head, body), (_, t_body) in zip(english, translated, strict=True):
        assert Counter(CODE_SPAN.findall(t_body)) == Counter(CODE_SPAN.findall(body)), head


@pytest.mark.parametrize(("game", "lang"), CASES)
def test_tables_match(game: str, lang: str) -> None:
    english, translated = sections(readme(game)), sections(readme(game, lang))
    for (head, body), (_, t_body) in zip(english, translated, strict=True):
        rows = [line for line in body.splitlines() if line.startswith("|")]
        t_rows = [line for line in t_body.splitlines() if line.startswith("|")]
        assert len(t_rows) == len(rows), head
        assert [r.count("|") for r in t_rows] == [r.count("|") for r in rows], head


@pytest.mark.parametrize(("game", "lang"), CASES)
def test_no_english_line_left(game: str, lang: str) -> None:
    """A line copied from the English README may only be code, quotes and punctuation."""
    english = set(readme(game).splitlines())
    for line in readme(game, lang).splitlines():
        if line in english:
            prose = QUOTED.sub("", CODE_SPAN.sub("", line))
            words = [
                w for w in re.findall(r"[^\W\d_]{3,}", prose) if w.isascii() and w not in NAMES
            ]
            assert not words, line


# The seeds' own words (issue 24, item 5; docs/glossary/): each must appear in its text.
SEED_WORDS = {
    ("ctverak", "cs"): ["čtverka", "čtverák", "žolík", "balík", "odkládací hromád"],
    ("quarto", "cs"): [
        "hracích kamenů",
        "světlý",
        "tmavý",
        "vysoký",
        "nízký",
        "okrouhlý",
        "hranatý",
        "s důlkem",
        "bez důlku",
        "Quarto!",
    ],
    ("quarto", "bg"): ["ЧЕТВОРКА!", "елемент", "характеристик", "редица", "реми"],
    ("quarto", "ru"): ["фигур", "признак", "выемк", "Кварто"],
    ("quartino", "pl"): ["pionk", "„4 kolory”", "„kolumna”", "podstawk", "Quartino"],
}


@pytest.mark.parametrize(("game", "lang"), sorted(SEED_WORDS))
def test_seed_words_are_used(game: str, lang: str) -> None:
    text = readme(game, lang)
    assert [word for word in SEED_WORDS[game, lang] if word not in text] == []

"""The ``translations`` check: every message a game marks (``_("...")``, ``_n``/``_.plural``)
is translated in every language the game declares (its ``locale/<lang>/LC_MESSAGES/
<package>.po``), and no translation drops or adds a ``{placeholder}``; plural messages
have the language's CLDR number of forms (Babel's ``Plural-Forms``).

The messages are read from the game package's source with Babel's extractor, as
``pybabel extract -k _ -k _n:1,2 -k plural:1,2`` reads them; the same function serves the
catalogue tests and ``tools/i18n-update``.
"""

from __future__ import annotations

import string
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from tabletop.core.i18n.text import Domain, Msg

_ = Domain("tabletop")

NAME = "translations"
DESCRIPTION = "every marked message is translated in each declared language, placeholders kept"
KEYWORDS: dict[str, Any] = {"_": None, "_n": (1, 2), "plural": (1, 2)}

MessageId = str | tuple[str, str]


def source_messages(folder: Path) -> dict[MessageId, list[str]]:
    """The marked messages of the ``.py`` files under ``folder`` and of its board scripts
    (``.js``: the ``words({...})`` tables, :mod:`tabletop.core.i18n.scripts`): msgid (a pair
    for a plural message) -> where each is written (``file:line``)."""
    from babel.messages.extract import extract

    from tabletop.core.i18n.scripts import script_messages

    found: dict[MessageId, list[str]] = {}
    for path in sorted(folder.rglob("*.py")):
        if "__pycache__" in path.parts:
            continue
        with path.open("rb") as source:
            for line, message, _comments, _context in extract("python", source, KEYWORDS):
                key: MessageId = message if isinstance(message, str) else (message[0], message[1])
                found.setdefault(key, []).append(f"{path.relative_to(folder)}:{line}")
    for path in sorted(folder.rglob("*.js")):
        if _owner(path) != folder:
            continue  # a script of a nested package with its own catalogue (tabletop.web)
        for key, line in script_messages(path).items():
            found.setdefault(key, []).append(f"{path.relative_to(folder)}:{line}")
    return found


def _owner(path: Path) -> Path | None:
    """The nearest folder above ``path`` with a ``locale/`` folder: whose catalogue it is."""
    for parent in path.parents:
        if (parent / "locale").is_dir():
            return parent
    return None


def placeholders(text: str) -> set[str]:
    """The ``{name}`` fields of a template (``{{`` is a literal brace)."""
    try:
        return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}
    except ValueError:
        return {"<broken braces>"}


def problems(messages: Iterable[MessageId], po_file: Path, lang: str, domain: str) -> list[str]:
    """What is wrong with ``po_file`` for ``messages``: each missing or empty translation,
    each placeholder dropped or added, each plural with the wrong number of forms."""
    from babel.messages.plurals import get_plural
    from babel.messages.pofile import read_po

    with po_file.open("rb") as source:
        catalog = read_po(source, locale=lang, domain=domain)
    forms = get_plural(lang).num_plurals
    found: list[str] = []
    if catalog.num_plurals != forms:
        found.append(
            _(
                "{file} ({lang}): Plural-Forms has {count} forms, CLDR says {forms}",
                file=po_file.name,
                lang=lang,
                count=catalog.num_plurals,
                forms=forms,
            )
        )
    for key in messages:
        msgid = key if isinstance(key, str) else key[0]
        entry = catalog.get(msgid)
        shown = repr(msgid if len(msgid) <= 60 else msgid[:57] + "...")
        if entry is None or entry.fuzzy:
            found.append(_("{lang}: no translation of {msgid}", lang=lang, msgid=shown))
            continue
        expected = placeholders(msgid if isinstance(key, str) else key[0]) | (
            set() if isinstance(key, str) else placeholders(key[1])
        )
        texts = [entry.string] if isinstance(entry.string, str) else list(entry.string or ())
        if isinstance(key, tuple) and len(texts) != forms:
            found.append(
                _(
                    "{lang}: {msgid} has {count} plural forms, {lang} has {forms}",
                    lang=lang,
                    msgid=shown,
                    count=len(texts),
                    forms=forms,
                )
            )
        for text in texts:
            if not text:
                found.append(_("{lang}: no translation of {msgid}", lang=lang, msgid=shown))
                break
            got = placeholders(text)
            if isinstance(key, tuple):  # a form may leave out {n} ("one card" spelled out)
                got |= {"n"} & expected
            if got != expected:
                lost, extra = sorted(expected - got), sorted(got - expected)
                drops = ", ".join("{" + p + "}" for p in lost)
                adds = ", ".join("{" + p + "}" for p in extra)
                found.append(
                    _(
                        "{lang}: {msgid} translated as {text}{drops}{adds}",
                        lang=lang,
                        msgid=shown,
                        text=repr(text),
                        drops=_(" drops {names}", names=drops) if lost else "",
                        adds=_(" adds {names}", names=adds) if extra else "",
                    )
                )
                break
    return found


def check_package(domain: str) -> list[str]:
    """Every problem of the package ``domain``'s catalogues (empty: all is translated)."""
    from tabletop.core.i18n.catalogues import languages_of, locale_folder, po_path

    folder = locale_folder(domain)
    if folder is None:
        return []  # English only: nothing declared, nothing to miss
    messages = source_messages(folder.parent)
    found: list[str] = []
    for lang in languages_of(domain)[1:]:
        path = po_path(domain, lang)
        assert path is not None
        found.extend(problems(messages, path, lang, domain))
    return found


def check(ctx: Any) -> None:
    """The check itself, on the context's game: Failed listing the first problems."""
    from tabletop.kit.checks.context import Failed

    domain = type(ctx.game).__module__.split(".")[0]
    found = check_package(domain)
    if found:
        shown = Msg.joined("; ", found[:5])
        if len(found) > 5:
            shown = Msg.joined("", [shown, _(" (and {count} more)", count=len(found) - 5)])
        raise Failed(shown)

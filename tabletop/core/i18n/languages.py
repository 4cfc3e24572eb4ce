"""The languages tabletop speaks, and how the one to speak is chosen."""

from __future__ import annotations

from collections.abc import Mapping

from tabletop.core.i18n.catalogues import ENGLISH

# Code -> the language's own name (as a language switcher shows it).
NAMES: dict[str, str] = {
    "en": "English",
    "cs": "čeština",
    "pl": "polski",
    "bg": "български",
    "ru": "русский",
}
LANGUAGES: tuple[str, ...] = tuple(NAMES)
LOCALE_VARIABLES = ("LC_ALL", "LC_MESSAGES", "LANG")


def listing() -> str:
    """``en (English), cs (čeština), …`` for error messages."""
    return ", ".join(f"{code} ({name})" for code, name in NAMES.items())


def check(code: str, where: str = "--lang") -> str:
    """``code`` as a supported language (case-insensitive); UsageError listing them."""
    lang = code.strip().lower().replace("_", "-").split("-")[0]
    if lang in NAMES:
        return lang
    from tabletop.core.errors import UsageError
    from tabletop.core.i18n.text import Domain
    from tabletop.core.numbers import quote

    _ = Domain("tabletop")
    raise UsageError(
        _(
            "unknown language {code} for {where}; languages: {languages}",
            code=quote(code),
            where=where,
            languages=listing(),
        )
    )


def from_locale(value: str) -> str | None:
    """The language of a POSIX locale (``cs_CZ.UTF-8`` -> ``cs``), None when it is not one
    of ours (``C``, ``POSIX``, ``de_DE``)."""
    lang = value.split(".")[0].split("@")[0].split("_")[0].lower()
    return lang if lang in NAMES else None


def choose(flag: str | None, environ: Mapping[str, str]) -> str:
    """The language: ``--lang`` > ``TABLETOP_LANG`` > ``LC_ALL``/``LC_MESSAGES``/``LANG``
    (the first one set, as gettext reads them) > English. An unknown ``--lang`` or
    ``TABLETOP_LANG`` is a UsageError; a locale of another language means English."""
    if flag:
        return check(flag)
    chosen = environ.get("TABLETOP_LANG", "")
    if chosen:
        return check(chosen, "TABLETOP_LANG")
    for name in LOCALE_VARIABLES:
        value = environ.get(name, "")
        if value:
            return from_locale(value) or ENGLISH
    return ENGLISH


def from_accept_language(header: str) -> str | None:
    """The best of our languages in an HTTP ``Accept-Language`` header (q-values honoured),
    or None when it names none of them."""
    found: list[tuple[float, int, str]] = []
    for index, part in enumerate(header.split(",")):
        tag, _, params = part.strip().partition(";")
        q = 1.0
        if params.strip().startswith("q="):
            try:
                q = float(params.strip()[2:])
            except ValueError:
                q = 0.0
        lang = tag.strip().lower().split("-")[0]
        if lang in NAMES and q > 0:
            found.append((q, -index, lang))
    return max(found)[2] if found else None

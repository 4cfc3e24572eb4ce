"""Each domain's gettext catalogues, read from ``.po`` sources and compiled with Babel in
memory at first use (no build step: an editable install and a fresh ``pip install -e .``
find the translations the moment a ``.po`` file is saved).

The package-data convention, the same for the core and every plugin: the domain is the
package's import name, its catalogue for ``LANG`` is
``<package>/locale/<LANG>/LC_MESSAGES/<package>.po``; the English msgids are the source
(no ``en`` catalogue is needed). The ``Plural-Forms`` header is the language's CLDR rule
(Babel writes it); ``ngettext`` evaluates it.
"""

from __future__ import annotations

import functools
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import gettext

ENGLISH = "en"  # the language of the msgids: no catalogue
LOCALE = "locale"


def locale_folder(domain: str) -> Path | None:
    """``<package>/locale`` of the package ``domain``, None when it has none."""
    package = sys.modules.get(domain)
    where = getattr(package, "__file__", None) if hasattr(package, "__path__") else None
    if where:  # an imported package on disk: no need of importlib.resources (start-up)
        folder = Path(where).parent / LOCALE
        return folder if folder.is_dir() else None
    import importlib.resources

    try:
        folder = Path(str(importlib.resources.files(domain))) / LOCALE
    except (AttributeError, ModuleNotFoundError, TypeError, ValueError):
        return None  # a game defined outside any package (a script, a test, a guide)
    return folder if folder.is_dir() else None


def po_path(domain: str, lang: str) -> Path | None:
    """The ``.po`` source of ``domain`` in ``lang``, None when there is none."""
    folder = locale_folder(domain)
    if folder is None:
        return None
    path = folder / lang / "LC_MESSAGES" / f"{domain}.po"
    return path if path.is_file() else None


def languages_of(domain: str) -> list[str]:
    """The languages ``domain`` is translated into, English first."""
    folder = locale_folder(domain)
    found = []
    if folder is not None:
        found = sorted(p.parent.parent.name for p in folder.glob(f"*/LC_MESSAGES/{domain}.po"))
    return [ENGLISH, *(lang for lang in found if lang != ENGLISH)]


def read(path: Path, lang: str, domain: str) -> Any:
    """The Babel ``Catalog`` of a ``.po`` file."""
    from babel.messages.pofile import read_po

    with path.open("rb") as source:
        return read_po(source, locale=lang, domain=domain)


@functools.cache
def translations(domain: str, lang: str) -> gettext.NullTranslations:
    """``domain``'s catalogue in ``lang`` as stdlib gettext translations (the ``.po``
    compiled by Babel's ``write_mo`` into memory); no catalogue: the English msgids."""
    import gettext
    import io

    path = po_path(domain, lang) if lang != ENGLISH else None
    if path is None:
        return gettext.NullTranslations()
    from babel.messages.mofile import write_mo

    compiled = io.BytesIO()
    write_mo(compiled, read(path, lang, domain), use_fuzzy=False)
    compiled.seek(0)
    return gettext.GNUTranslations(compiled)


def as_json(domain: str, lang: str) -> dict[str, Any]:
    """``domain``'s catalogue in ``lang`` for a page's scripts: ``plural`` (the
    Plural-Forms expression, C syntax that JavaScript also reads) and ``messages``
    (msgid -> text, or msgid -> list of plural forms)."""
    path = po_path(domain, lang) if lang != ENGLISH else None
    if path is None:
        return {"lang": lang, "domain": domain, "plural": "n != 1", "messages": {}}
    catalog = read(path, lang, domain)
    messages: dict[str, Any] = {}
    for message in catalog:
        if not message.id or message.fuzzy:
            continue
        if isinstance(message.id, tuple):
            forms = list(message.string)
            if all(forms):
                messages[message.id[0]] = forms
        elif message.string:
            messages[message.id] = message.string
    return {
        "lang": lang,
        "domain": domain,
        "plural": catalog.plural_expr,
        "messages": messages,
    }


def count_text(n: int, lang: str) -> str:
    """A plural message's count in ``lang``'s digits (``1 200`` in Czech); English as is."""
    if lang == ENGLISH:
        return str(n)
    from babel.numbers import format_decimal

    return str(format_decimal(n, format="#,##0", locale=lang))

"""The language a command speaks: chosen once, at its start (``--lang`` and the rest)."""

from __future__ import annotations

import os
from collections.abc import Mapping

from tabletop.core.i18n.languages import choose
from tabletop.core.i18n.text import set_language


def speak(flag: str | None, environ: Mapping[str, str] | None = None) -> str:
    """Choose the language (``--lang`` > ``TABLETOP_LANG`` > the locale > English; an
    unknown code is a UsageError listing the languages) and speak it from now on.
    ``environ={}`` heeds only the flag (``tabletop run``: English unless asked)."""
    lang = choose(flag, os.environ if environ is None else environ)
    set_language(lang)
    return lang

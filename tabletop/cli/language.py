"""The language a command speaks: chosen once, at its start (``--lang`` and the rest)."""

from __future__ import annotations

import contextvars
import functools
import os
from collections.abc import Callable, Mapping
from typing import ParamSpec, TypeVar

from tabletop.core.i18n.languages import choose
from tabletop.core.i18n.text import set_language

P = ParamSpec("P")
R = TypeVar("R")


def speak(flag: str | None, environ: Mapping[str, str] | None = None) -> str:
    """Choose the language (``--lang`` > ``TABLETOP_LANG`` > the locale > English; an
    unknown code is a UsageError listing the languages) and speak it from now on.
    ``environ={}`` heeds only the flag (``tabletop run``: English unless asked)."""
    lang = choose(flag, os.environ if environ is None else environ)
    set_language(lang)
    return lang


def own_language(function: Callable[P, R]) -> Callable[P, R]:
    """``function`` run in a context of its own, so that the language it chooses
    (:func:`speak`) ends with it: for a command's body that is also a library call
    (``tabletop.testing.check_command``), whose caller keeps the language it had."""

    @functools.wraps(function)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        return contextvars.copy_context().run(function, *args, **kwargs)

    return wrapper

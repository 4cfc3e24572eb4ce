"""click's usage errors (an unknown option, a missing argument, a bad value) as messages
of our catalogue, so that they are shown in the reader's language; the English text is
click's own, byte for byte. A kind not known here stays click's English."""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

from tabletop.core.errors import TabletopError
from tabletop.core.i18n.text import Domain, Msg, read_back

_ = Domain("tabletop")


def _hint(exc: Any) -> str | None:
    hint = getattr(exc, "param_hint", None)
    if hint is None and getattr(exc, "param", None) is not None:
        try:
            hint = exc.param.get_error_hint()
        except TypeError:  # click's own signature takes the context
            hint = exc.param.get_error_hint(exc.ctx)
    if hint is not None and not isinstance(hint, str):
        hint = " / ".join(repr(x) for x in hint)
    return hint


# click's other usage errors, known by their English text (click builds them from
# f-strings): each template's {fields} are read back out of it (read_back); most specific
# first.
TEMPLATES = (
    _("Got unexpected extra argument(s) ({args})"),
    _("Option {option} requires an argument."),
    _("Option {option} requires {count} arguments."),
    _("Option {option} does not take a value."),
    _("Argument {name} takes {count} values."),
    _("No such command {name}. Did you mean {names}?"),
    _("No such command {name}."),
    _("Missing command."),
    _("Value {value} is not a valid {kind}."),
    _("Invalid value: {reason}"),
)


def _message(exc: Any) -> Msg | None:
    kind = type(exc).__name__
    if kind == "NoSuchOption":
        if not exc.possibilities:
            return _("No such option: {option}", option=exc.option_name)
        return _(
            "No such option: {option} (Possible options: {options})",
            option=exc.option_name,
            options=", ".join(sorted(exc.possibilities)),
        )
    hint = _hint(exc)
    if kind == "MissingParameter" and hint and not exc.message:
        if exc.param_type == "option" or getattr(exc.param, "param_type_name", "") == "option":
            return _("Missing option {name}.", name=hint)
        return _("Missing argument {name}.", name=hint)
    if kind == "BadParameter" and hint:
        reason = exc.message
        if not isinstance(reason, Msg):
            reason = _reason(reason)
        return _("Invalid value for {name}: {reason}", name=hint, reason=reason)
    return read_back(TEMPLATES, exc.format_message())


# the reasons typer's own coercion (pydantic) gives for a value of a typed flag
REASONS = (
    _("Input should be a valid integer, unable to parse string as an integer"),
    _("Input should be a valid number, unable to parse string as a number"),
    _("Input should be a valid boolean, unable to interpret input"),
    _("Input should be a finite number"),
)


def _reason(text: str) -> str:
    """A known English reason as a message (translated where shown), else as it is."""
    return read_back(REASONS, text) or text


def usage_message(exc: Any, where: str) -> str:
    """``exc``'s one line with the pointer to ``where --help``: a message when its kind is
    known (and its English is click's text), else click's English."""
    english = exc.format_message()
    known = _message(exc)
    text: str = known if known is not None and str(known) == english else english
    return _("{message} (see '{command} --help')", message=text, command=where)


def args_language(args: Sequence[str] | None) -> str:
    """The language the command line asks (``--lang CODE``, ``--lang=CODE``), else the
    environment's (``TABLETOP_LANG``, the locale), English if neither names one of ours
    or the command line is a script's (``run``, ``--json``): for an error found before the
    command chose its language."""
    from tabletop.core.i18n.languages import NAMES, choose

    words = list(args) if args is not None else []
    for i, word in enumerate(words):
        code = word.partition("=")[2] if word.startswith("--lang=") else None
        if word == "--lang" and i + 1 < len(words):
            code = words[i + 1]
        if code is not None and code.strip().lower() in NAMES:
            return code.strip().lower()
    if words[:1] == ["run"] or "--json" in words:
        return "en"  # for scripts: English unless --lang, as their JSON (see tabletop run)
    try:
        return choose(None, os.environ)
    except TabletopError:
        return "en"

"""Marked messages: English now, translated where they are shown (Board Game Arena's rule:
mark where written, translate where displayed).

A :class:`Msg` is a ``str`` (its value is the English text, byte for byte what an unmarked
literal gave) that also remembers its domain, msgid and parameters. :func:`translate`
looks the msgid up in the reader's language and fills in the parameters, themselves
translated when they are messages. A plain ``str`` is shown as it is.
"""

from __future__ import annotations

import contextvars
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from tabletop.core.i18n.catalogues import ENGLISH as ENGLISH
from tabletop.core.i18n.catalogues import count_text, translations

T = TypeVar("T")

_language: contextvars.ContextVar[str] = contextvars.ContextVar(
    "tabletop_language", default=ENGLISH
)


def current() -> str:
    """The language of this context (a CLI process, a web connection's task): ``en`` unless
    :func:`set_language` said otherwise."""
    return _language.get()


def chosen() -> str | None:
    """The language this context was told to speak (:func:`set_language`), None if none
    was chosen yet (then :func:`current` is English)."""
    return _language.get(None)


def speaking(lang: str, call: Callable[..., T], *args: Any) -> T:
    """``call(*args)`` with ``lang`` the current language, in a context of its own (e.g. a
    game's ``rules_text`` for one web connection); the caller's language is untouched."""

    def run() -> T:
        _language.set(lang)
        return call(*args)

    return contextvars.copy_context().run(run)


def set_language(code: str) -> None:
    """Speak ``code`` (already checked by :func:`~tabletop.core.i18n.languages.choose`) in
    this context from now on."""
    _language.set(code)


class Msg(str):
    """A message: the English text as a ``str``, plus what translating it needs.

    ``domain`` names the catalogue (a package: ``tabletop``, ``tabletop_quarto``);
    ``msgid`` the English template with ``{name}`` placeholders; ``params`` their values
    (a value that is a Msg is translated too); ``plural``/``n`` make it a plural message
    (``ngettext``: the language's CLDR plural rule picks the form). A join of messages has
    ``domain`` None and ``msgid`` the separator (:meth:`joined`).
    """

    domain: str | None
    msgid: str
    params: dict[str, Any]
    plural: str | None = None
    n: int = 1

    def __new__(
        cls,
        text: str,
        domain: str | None = None,
        msgid: str | None = None,
        params: dict[str, Any] | None = None,
        plural: str | None = None,
        n: int = 1,
    ) -> Msg:
        self = super().__new__(cls, text)
        self.domain = domain
        self.msgid = text if msgid is None else msgid
        self.params = params or {}
        self.plural = plural
        self.n = n
        return self

    def __reduce__(self) -> tuple[Any, ...]:  # pickles (Ray, multiprocessing) keep the msgid
        return (_rebuild, (str(self), self.domain, self.msgid, self.params, self.plural, self.n))

    def format(self, /, *args: Any, **params: Any) -> str:
        """A template message filled in (``WINS_IN = _("wins in {count} …")`` then
        ``WINS_IN.format(count=3)``): still a Msg, translated where it is shown. A message
        already filled, a join, or positional fields: plain ``str.format``."""
        text = str.format(self, *args, **params)
        if args or self.domain is None or (self.params and self.plural is None):
            return text
        return Msg(text, self.domain, self.msgid, {**self.params, **params}, self.plural, self.n)

    @classmethod
    def joined(cls, separator: str, parts: Iterable[str]) -> Msg:
        """``separator.join(parts)`` whose parts stay translatable one by one."""
        items = tuple(parts)
        return cls(separator.join(items), None, separator, {"parts": items})

    def translated(self, lang: str) -> str:
        """This message in ``lang`` (English where the catalogue lacks it)."""
        if self.domain is None:
            return self.msgid.join(translate(p, lang) for p in self.params["parts"])
        found = translations(self.domain, lang)
        if self.plural is None:
            template = found.gettext(self.msgid)
        else:
            template = found.ngettext(self.msgid, self.plural, self.n)
        if not self.params:
            return template
        values = {
            k: translate(v, lang) if isinstance(v, Msg) else v for k, v in self.params.items()
        }
        count = self.params.get("n")
        if self.plural is not None and isinstance(count, int):
            values["n"] = count_text(count, lang)  # a plural's count: "1 200 karet"
        try:
            return template.format(**values)
        except (KeyError, IndexError, ValueError):  # a broken translation: the English
            return str(self)


def _rebuild(
    text: str,
    domain: str | None,
    msgid: str,
    params: dict[str, Any],
    plural: str | None,
    n: int,
) -> Msg:
    return Msg(text, domain, msgid, params, plural, n)


def translate(text: object, lang: str | None = None) -> str:
    """``text`` in ``lang`` (default: :func:`current`); English and plain strings as they are."""
    lang = lang or _language.get()
    if lang == ENGLISH or not isinstance(text, Msg):
        return str(text)
    return text.translated(lang)


def translated_json(value: Any, lang: str | None = None) -> Any:
    """``value`` (JSON) with each message in it in ``lang``; keys and plain strings as they are."""
    if isinstance(value, Msg):
        return translate(value, lang)
    if isinstance(value, dict):
        return {key: translated_json(item, lang) for key, item in value.items()}
    if isinstance(value, list):
        return [translated_json(item, lang) for item in value]
    return value


def message_of(error: BaseException) -> str:
    """An exception's one message, still a :class:`Msg` when it was raised with one."""
    if len(error.args) == 1 and isinstance(error.args[0], Msg):
        return error.args[0]
    return str(error)


_new_str = str.__new__


class Domain:
    """The markers of one catalogue: ``_ = Domain("tabletop_quarto")`` then ``_("text {x}",
    x=...)`` and ``_.plural("{n} card", "{n} cards", n)`` (``pybabel extract -k _ -k
    _n:1,2`` finds them; write ``_n = _.plural``)."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __call__(self, msgid: str, /, **params: Any) -> Msg:
        # Msg(...) inlined: messages are made in refusals and end reasons, near hot paths
        message = _new_str(Msg, msgid.format(**params) if params else msgid)
        message.domain = self.name
        message.msgid = msgid
        message.params = params
        return message

    def plural(self, singular: str, plural: str, n: int, /, **params: Any) -> Msg:
        """A count's message: ``n`` picks the form (and is the ``{n}`` placeholder)."""
        params = {"n": n, **params}
        english = singular if n == 1 else plural
        return Msg(english.format(**params), self.name, singular, params, plural, n)


_ = Domain("tabletop")


def and_joined(names: Iterable[str]) -> Msg:
    """``1 and 2 and 3`` as a message: its "and" translated where it is shown."""
    parts: list[str] = []
    for name in names:
        parts.extend((_("and"), name) if parts else (name,))
    return Msg.joined(" ", parts)


def and_list(names: Iterable[str], lang: str | None = None) -> str:
    """``a and b and c`` in ``lang`` (tabletop's English form, kept as it always was)."""
    word = translate(_("and"), lang)
    return f" {word} ".join(names)


def read_back(templates: Iterable[Msg], english: str) -> Msg | None:
    """A library's English sentence (click's, pydantic's: built with f-strings, never marked)
    as the first of ``templates`` (messages without parameters, e.g. ``_("Option {option}
    requires an argument.")``) whose text it is, its ``{fields}`` read back out of it; None
    when none is. Translated where it is shown, like any message."""
    import re

    for template in templates:
        parts = re.split(r"\{(\w+)\}", template.msgid)
        body = "".join(
            re.escape(part) if i % 2 == 0 else f"(?P<{part}>.+?)" for i, part in enumerate(parts)
        )
        found = re.fullmatch(body, english, re.DOTALL)
        if found is not None:
            filled = template.format(**found.groupdict())
            if isinstance(filled, Msg) and str(filled) == english:
                return filled
    return None

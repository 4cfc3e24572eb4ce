"""Display names at the table (``docs/web.md``, client message ``name``).

A person picks a name on the match page; a seat's name is stored with the match (table
``names``), a spectator's lives with its connection. A name is normalised (Unicode NFC,
control and format characters dropped: bidi overrides, zero-width joiners, line and
paragraph separators; runs of whitespace made one space, ends trimmed) and then holds 1 to
:data:`MOST` characters. It never impersonates a seat: it may not be how the page calls a
seat or a spectator in any language ("player 2", "Hráč 2", "Spectator", "you"), nor the
name another seat of the match already has, compared by :func:`key` (case, width, spaces
and punctuation ignored). The page shows every name with its seat beside it, as text.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Iterable

from tabletop.core.i18n.catalogues import translations
from tabletop.core.i18n.languages import LANGUAGES
from tabletop.core.i18n.text import Domain
from tabletop.core.records import NAME_MOST
from tabletop.web.store_records import Statement

_ = Domain("tabletop")
MOST = NAME_MOST  # characters of a name, after normalising
INTERVAL = 1.0  # seconds between two name changes of one connection
DROPPED = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}  # control, format, unassigned, separators

NO_LETTER = _("a name needs at least one letter or digit")
RESERVED = _(
    "that is how the page calls a seat or a spectator; choose a name of your own "
    "(1 to {most} characters)",
    most=MOST,
)
TAKEN = _("another seat of this match already has that name; choose another")
TOO_FAST = _("one name change a second: wait a moment and save it again")

# how the pages and the core call a seat, a spectator or yourself (msgids, by domain)
_SEAT_LABELS = {
    "tabletop.web": ("player {p}", "Player {p}"),
    "tabletop": ("player {n}",),
}
_WORDS = {"tabletop.web": ("Spectator", "spectator", "you", "You")}


def normalise(text: str) -> str:
    """``text`` as a name is kept: NFC, control and format characters dropped, whitespace
    runs one space, ends trimmed (it may still be too long or empty: :func:`refusal`)."""
    text = unicodedata.normalize("NFC", text)
    kept = "".join(
        " " if c in "\t\n\r\v\f" else c
        for c in text
        if c in "\t\n\r\v\f" or unicodedata.category(c) not in DROPPED
    )
    return " ".join(kept.split())


def key(name: str) -> str:
    """What two names are compared by: NFKC (full-width letters as letters), case folded,
    only letters and digits kept (``Player-2`` and ``player 2`` are one)."""
    folded = unicodedata.normalize("NFKC", name).casefold()
    return "".join(c for c in folded if c.isalnum())


@functools.cache
def _reserved() -> tuple[re.Pattern[str], frozenset[str]]:
    """The seat labels of every language as one pattern (a number where ``{p}`` is), and
    the reserved words (spectator, you) by :func:`key`."""
    patterns: set[str] = set()
    words: set[str] = set()
    for lang in LANGUAGES:
        for domain, labels in _SEAT_LABELS.items():
            found = translations(domain, lang)
            for label in labels:
                text = found.gettext(label)
                head, _sep, tail = re.sub(r"\{\w+\}", "\0", text).partition("\0")
                patterns.add(re.escape(key(head)) + r"\d*" + re.escape(key(tail)))
        for domain, some in _WORDS.items():
            found = translations(domain, lang)
            words.update(key(found.gettext(word)) for word in some)
    return re.compile("|".join(sorted(patterns))), frozenset(words)


def reserved(name: str) -> bool:
    """Whether ``name`` is (by :func:`key`) how some language calls a seat ("Hráč 2",
    "player", "Spectator", "you")."""
    pattern, words = _reserved()
    folded = key(name)
    return folded in words or pattern.fullmatch(folded) is not None


def refusal(name: str, others: Iterable[str] = ()) -> str:
    """Why the normalised ``name`` may not be taken ('' when it may): its length, a seat
    label, or the name of one of ``others`` (the match's other seats)."""
    if not 1 <= len(name) <= MOST:
        return _(
            "a name is 1 to {most} characters of text (letters, digits, spaces, punctuation); "
            "this one has {count}",
            most=MOST,
            count=len(name),
        )
    if not key(name):
        return NO_LETTER
    if reserved(name):
        return RESERVED
    if key(name) in {key(other) for other in others}:
        return TAKEN
    return ""


def upsert(match_id: str, seat: int, name: str) -> list[Statement]:
    """The write that stores seat ``seat``'s name. The store keeps one name a seat and
    each name (by :func:`key`) at one seat of a match: two seats taking one name at once
    through two servers, the second is refused (:class:`~tabletop.web.store.Stale`)."""
    return [(
        "INSERT INTO names (match, seat, name, folded) VALUES (?,?,?,?) "
        "ON CONFLICT (match, seat) DO UPDATE SET name=excluded.name, folded=excluded.folded",
        (match_id, seat, name, key(name)),
    )]  # fmt: skip

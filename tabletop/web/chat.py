"""Table talk: one chat per match, stored with it (``docs/web.md``, message ``chat``).

A message is text only (the page shows it as text, never as HTML), at most ``MAX_TEXT``
characters, at most one a second per connection. The players talk; spectators read, and
talk too only when the match's creator allowed it (``spectator_chat`` at creation).
"""

from __future__ import annotations

import time
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

from tabletop.core.i18n.text import Domain
from tabletop.game import JSON
from tabletop.web import names, protocol, store
from tabletop.web.store import ChatRows, Statement

_ = Domain("tabletop")
MAX_TEXT = 500  # characters of one message
INTERVAL = 1.0  # seconds between two messages of one connection
KEEP = 200  # messages sent to a connection on joining (the newest)

TOO_LONG = _("a chat message is at most {limit} characters", limit=MAX_TEXT)
EMPTY = _("a chat message needs some text")
TOO_FAST = _("one chat message a second: wait a moment and send it again")
READ_ONLY = _("spectators of this match read the chat but do not write in it")


def clean(text: str) -> str:
    """The text as stored: control characters (but newlines) dropped, ends trimmed."""
    kept = "".join(c for c in text if c == "\n" or not unicodedata.category(c).startswith("C"))
    return kept.strip()


def refusal(text: str) -> str:
    """Why ``text`` may not be sent ('' when it may)."""
    if len(text) > MAX_TEXT:
        return TOO_LONG
    if not clean(text):
        return EMPTY
    return ""


@dataclass
class Chat:
    """One match's talk: its messages (oldest first) and whether spectators may write."""

    spectators_write: bool = False
    messages: list[JSON] = field(default_factory=list)
    last_sent: dict[int, float] = field(default_factory=dict)  # id(connection) -> time

    def may_write(self, seat: int | None) -> bool:
        return seat is not None or self.spectators_write

    def too_fast(self, key: int, now: float | None = None) -> bool:
        """True when connection ``key`` sent a message less than a second ago; else
        notes this one."""
        now = time.monotonic() if now is None else now
        if now - self.last_sent.get(key, -INTERVAL) < INTERVAL:
            return True
        self.last_sent[key] = now
        return False

    def forget(self, key: int) -> None:
        self.last_sent.pop(key, None)

    def message(self, seat: int | None, name: str, text: str) -> JSON:
        """A new chat message (kept in ``messages``); ``name`` the sender's chosen name
        ('' none: the page calls it by its seat)."""
        entry = protocol.chat(seat, name, clean(text), round(time.time(), 3))
        self.messages.append(entry)
        return entry

    def recent(self) -> list[JSON]:
        return self.messages[-KEEP:]


def insert(match_id: str, entry: JSON) -> list[Statement]:
    return [(
        "INSERT INTO chat (match, at, seat, name, text) VALUES (?,?,?,?,?)",
        (match_id, entry["at"], entry["seat"], entry["name"], entry["text"]),
    )]  # fmt: skip


def open_to_spectators(match_id: str) -> list[Statement]:
    return [("INSERT INTO chat_open (match) VALUES (?) ON CONFLICT DO NOTHING", (match_id,))]


def load_all(path: Path) -> dict[str, Chat]:
    """Every match's chat as stored in the SQLite file ``path``."""
    db = store.connect(path)
    try:
        opened = [str(m) for (m,) in db.execute(store.CHAT_OPEN)]
        return from_rows((opened, db.execute(store.CHAT_ROWS).fetchall()))
    finally:
        db.close()


def from_rows(rows: ChatRows) -> dict[str, Chat]:
    """Every match's chat from a store's :meth:`~tabletop.web.store.MatchStore.chat_rows`."""
    opened, messages = rows
    chats: dict[str, Chat] = {}
    for match_id in opened:
        chats.setdefault(match_id, Chat()).spectators_write = True
    for match_id, at, seat, name, text in messages:
        said = "" if names.reserved(str(name)) else str(name)  # "player 1" before names
        try:  # a row of the wrong types is left out, the rest is served
            entry = protocol.chat(None if seat is None else int(seat), said,
                                  str(text), float(at))  # fmt: skip
        except (TypeError, ValueError):
            continue
        chats.setdefault(str(match_id), Chat()).messages.append(entry)
    return chats

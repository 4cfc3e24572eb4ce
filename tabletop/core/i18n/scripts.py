"""The msgids of a page script or a game's board (JavaScript, no build step): the English
values of its ``words({...})`` table (see ``tabletop/web/static/i18n.js``), a
``["singular", "plural"]`` pair for a count. Read with a regular expression, as the tables
are plain literals: ``key: "text"`` or ``key: ["one", "many"]``, one per entry."""

from __future__ import annotations

import json
import re
from pathlib import Path

MessageId = str | tuple[str, str]

_TABLE = re.compile(r"\bwords\(\s*\{(.*?)\n\}", re.S)
_STRING = r'"(?:[^"\\]|\\.)*"'
_ENTRY = re.compile(rf"\b\w+:\s*(?:({_STRING})|\[\s*({_STRING})\s*,\s*({_STRING})\s*\])")


def script_messages(path: Path) -> dict[MessageId, int]:
    """msgid -> the line it is written on, for each table entry of the script at ``path``."""
    text = path.read_text(encoding="utf-8")
    found: dict[MessageId, int] = {}
    for table in _TABLE.finditer(text):
        for entry in _ENTRY.finditer(table.group(1)):
            line = text.count("\n", 0, table.start(1) + entry.start()) + 1
            single, one, many = entry.groups()
            key: MessageId = json.loads(single) if single else (json.loads(one), json.loads(many))
            found.setdefault(key, line)
    return found

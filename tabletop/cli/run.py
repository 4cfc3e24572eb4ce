"""``tabletop run``: apply actions read from a file or a pipe and print the result."""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import IO

from tabletop.core.errors import ActionError, UsageError
from tabletop.core.match import Match

COMMENT = re.compile(r"(^|\s)#(\s|$)")


def strip_comment(line: str) -> str:
    """``line`` without its comment: ``#`` followed by a space or the end of the line.

    ``#2`` is not a comment (Čtverák's hand-position shortcut, for one).
    """
    if line.lstrip().startswith("#"):
        return ""
    found = COMMENT.search(line)
    return (line[: found.start()] if found else line).strip()


def action_lines(source: IO[str]) -> Iterator[str]:
    """Actions, one a line; blank lines and comments are skipped. Lazy, for pipes."""
    for raw in source:
        line = strip_comment(raw)
        if line:
            yield line


def open_actions(spec: str) -> IO[str]:
    """``-`` is standard input; anything else a file."""
    if spec == "-":
        return sys.stdin
    try:
        return Path(spec).open(encoding="utf-8")
    except FileNotFoundError:
        raise UsageError(f"no such actions file: {spec}") from None
    except OSError as exc:
        raise UsageError(f"cannot read actions file {spec}: {exc}") from None


def emit(data: dict[str, object]) -> None:
    """One JSON object on one line, flushed (so a program on a pipe sees it at once)."""
    sys.stdout.write(json.dumps(data, ensure_ascii=False) + "\n")
    sys.stdout.flush()


def run_actions(
    match: Match, actions: str | None, as_json: bool, reveal: bool, trace: bool
) -> ActionError | None:
    """Play the actions; returns the refusal that stopped them, if any (after printing)."""
    if actions is None:
        return None
    source = open_actions(actions)
    try:
        for line in action_lines(source):
            try:
                match.play(line)
            except ActionError as exc:
                return exc
            if trace:
                step = match.summary(reveal)
                step["action"] = match.texts[-1]
                step["number"] = len(match.actions)
                emit(step)
    finally:
        if source is not sys.stdin:
            source.close()
    return None

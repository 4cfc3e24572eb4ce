"""Choosing scenarios: ``-k`` keyword expressions, rule coverage, the suites of installed games."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tabletop.core.i18n.text import Domain
from tabletop.core.presentation import presentation_of
from tabletop.core.registry import Registry
from tabletop.kit.scenarios.loader import Suite

_ = Domain("tabletop")


def keyword_filter(expr: str) -> Any:
    """A predicate for ``-k EXPR``: words (case-insensitive substrings of the file name, game,
    case name and rule IDs) joined by ``and``, ``or``, ``not`` and parentheses.
    Raises ValueError for an expression that does not parse."""
    tokens: list[str] = re.findall(r"\(|\)|[^\s()]+", expr)
    if not tokens:
        raise ValueError(_("empty -k expression"))
    pos = 0

    def peek() -> str | None:
        return tokens[pos].lower() if pos < len(tokens) else None

    def take() -> str:
        nonlocal pos
        pos += 1
        return tokens[pos - 1]

    def orexpr() -> Any:
        left = andexpr()
        while peek() == "or":
            take()
            right = andexpr()
            left = (lambda a, b: lambda s: a(s) or b(s))(left, right)
        return left

    def andexpr() -> Any:
        left = notexpr()
        while peek() == "and":
            take()
            right = notexpr()
            left = (lambda a, b: lambda s: a(s) and b(s))(left, right)
        return left

    def notexpr() -> Any:
        token = peek()
        if token is None:
            raise ValueError(_("-k expression {expr} ends too early", expr=repr(expr)))
        if token == "not":
            take()
            inner = notexpr()
            return lambda s: not inner(s)
        if token == "(":
            take()
            inner = orexpr()
            if peek() != ")":
                raise ValueError(_("-k expression {expr}: missing ')'", expr=repr(expr)))
            take()
            return inner
        if token in {")", "and", "or"}:
            raise ValueError(
                _("-k expression {expr}: unexpected {token}", expr=repr(expr), token=repr(token))
            )
        word = take().lower()
        return lambda s: word in s

    predicate = orexpr()
    if pos != len(tokens):
        raise ValueError(
            _(
                "-k expression {expr}: unexpected {token}",
                expr=repr(expr),
                token=repr(tokens[pos]),
            )
        )
    return predicate


def uncovered(suites: Sequence[Suite]) -> dict[str, tuple[list[str], list[str]]]:
    """Per game: the spec's rule IDs no case covers, and cited IDs the spec does not list."""
    spec: dict[str, list[str]] = {}
    cited: dict[str, set[str]] = {}
    for suite in suites:
        for case in suite.cases:
            if case.game:
                cited.setdefault(case.game, set()).update(case.case.rules if case.case else ())
        if suite.game:
            listed = spec.setdefault(suite.game, [])
            listed.extend(r for r in suite.spec_rules if r not in listed)
    result: dict[str, tuple[list[str], list[str]]] = {}
    for game in sorted(set(spec) | set(cited)):
        rules, used = spec.get(game, []), cited.get(game, set())
        result[game] = ([r for r in rules if r not in used], sorted(used - set(rules)))
    return result


def game_suites(games: Registry, only: str | None = None) -> list[Path]:
    """The scenario files every installed game ships (or only game ``only``)."""
    ids = [games.get(only).info.id] if only else games.ids()
    return [path for gid in ids for path in presentation_of(games.get(gid)).scenarios()]

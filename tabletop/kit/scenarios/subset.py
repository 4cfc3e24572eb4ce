"""JSON subset matching: what a scenario's ``state:`` / ``view:`` expectation demands of the
actual JSON, every mismatch with its path."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Mismatch:
    """One difference: where (a dotted path or a check name), expected and actual text."""

    where: str
    expected: str
    actual: str


def show(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def _same(expected: Any, actual: Any) -> bool:
    if isinstance(expected, bool) or isinstance(actual, bool):
        return type(expected) is type(actual) and expected == actual
    return bool(expected == actual)


_ABSENT = object()


def _step_into(actual: Any, key: str) -> Any:
    if isinstance(actual, dict):
        return actual.get(key, _ABSENT)
    if isinstance(actual, list) and key.lstrip("-").isdigit():
        index = int(key)
        return actual[index] if -len(actual) <= index < len(actual) else _ABSENT
    return _ABSENT


def _lookup(actual: Any, key: str) -> Any:
    """``actual[key]``, where a key with dots not present as such is a path (``board.b2``)."""
    direct = _step_into(actual, key)
    if direct is not _ABSENT or "." not in key:
        return direct
    for part in key.split("."):
        actual = _step_into(actual, part)
        if actual is _ABSENT:
            break
    return actual


def subset_diff(expected: Any, actual: Any, where: str) -> list[Mismatch]:
    """How ``actual`` fails to contain ``expected``: mappings are matched on the keys given
    (dotted keys are paths; ``null`` also matches a missing key; ``{}`` only matches an
    empty mapping), lists item by item with the same length, other values by equality
    (``true`` is not ``1``)."""
    if isinstance(expected, dict):
        if not isinstance(actual, dict | list) or (not expected and actual):
            return [Mismatch(where, show(expected), show(actual))]
        found: list[Mismatch] = []
        for key, value in expected.items():
            sub = _lookup(actual, str(key))
            path = f"{where}.{key}" if where else str(key)
            if sub is _ABSENT:
                if value is not None:
                    found.append(Mismatch(path, show(value), "(missing)"))
                continue
            found.extend(subset_diff(value, sub, path))
        return found
    if isinstance(expected, list):
        if not isinstance(actual, list) or len(actual) != len(expected):
            return [Mismatch(where, show(expected), show(actual))]
        found = []
        for index, (exp, act) in enumerate(zip(expected, actual, strict=True)):
            found.extend(subset_diff(exp, act, f"{where}[{index}]"))
        return found
    if _same(expected, actual):
        return []
    return [Mismatch(where, show(expected), show(actual))]

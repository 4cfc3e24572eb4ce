"""Paths into position JSON (``("board", 3, "piece")``): walking, reading, writing, and the
first place two values differ, as the kit's messages show them (``board[3].piece``)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

PathT = tuple[str | int, ...]
MISSING: Any = object()  # a key absent on one side of a comparison


def places(data: Any, path: PathT = ()) -> Iterator[tuple[PathT, Any]]:
    """Every value with its path, the top first (pre-order)."""
    yield path, data
    if isinstance(data, dict):
        for key, value in data.items():
            yield from places(value, (*path, key))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            yield from places(value, (*path, index))


def put(data: Any, path: PathT, value: Any) -> None:
    """Set the value at a (non-empty) path in place."""
    for key in path[:-1]:
        data = data[key]
    data[path[-1]] = value


def dotted(path: PathT) -> str:
    """``board[3].piece``."""
    return "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path).lstrip(".")


def first_difference(one: Any, two: Any, path: PathT = ()) -> str:
    """The dotted path of the first place two JSON values differ (``(top)``: at the top)."""
    if isinstance(one, dict) and isinstance(two, dict):
        for key in sorted(set(one) | set(two), key=str):
            if one.get(key, MISSING) != two.get(key, MISSING):
                return first_difference(one.get(key), two.get(key), (*path, key))
    if isinstance(one, list) and isinstance(two, list) and len(one) == len(two):
        for index, (a, b) in enumerate(zip(one, two, strict=True)):
            if a != b:
                return first_difference(a, b, (*path, index))
    return dotted(path) or "(top)"


def pick(data: Any, at: str) -> str:
    """The JSON text of the value at a path written by :func:`dotted` (short)."""
    for part in filter(None, at.replace("[", ".[").split(".")):
        if part == "(top)":
            break
        key: str | int = int(part[1:-1]) if part.startswith("[") else part
        try:
            data = data[key]
        except (KeyError, IndexError, TypeError):
            return "(missing)"
    text = json.dumps(data, ensure_ascii=False)
    return text if len(text) <= 120 else text[:120] + "…"

"""``tabletop games`` from a cache of the installed games' catalogue (issue 34).

Listing the games means importing every game, its players and presentation facets; the
list changes only when a plugin is installed, removed or edited. So the catalogue
(:func:`tabletop.agents.catalogue.catalogue`, its messages kept translatable) is kept in
``$XDG_CACHE_HOME/tabletop/catalogue.json`` (default ``~/.cache``; ``TABLETOP_CACHE_DIR``
names another folder) with what it was made from: the environment (``sys.prefix``),
``sys.path``, ``TABLETOP_DISABLE_PLUGINS``, and the modification time of every
``sys.path`` folder (an install or removal changes it), of every source file loaded from
outside the environment (editable installs and plugins on ``PYTHONPATH``: an edit changes
it) and of every folder below theirs (a file added). Anything different, and the catalogue is made
again from the games themselves and stored. ``TABLETOP_NO_CACHE=1`` never reads or
writes it; a cache that cannot be read or written is simply not used.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

from tabletop.core.i18n.text import Msg

FORMAT = 1  # the cache file's layout; another value is not read


def catalogue_rows() -> list[dict[str, Any]]:
    """The catalogue (``tabletop games --json``'s rows, messages untranslated): from the
    cache when it is current, else from the games, then stored."""
    from_games = "tabletop.core.registry" in sys.modules  # a registry built (or patched) here
    if from_games or os.environ.get("TABLETOP_NO_CACHE"):
        return _catalogue()
    path, key = cache_path(), _key()
    stored = _read(path, key)
    if stored is not None:
        return stored
    before = set(sys.modules)
    rows = _catalogue()
    _write(path, key, rows, sorted(set(sys.modules) - before))
    return rows


def cache_path() -> Path:
    """Where the catalogue is kept: ``$TABLETOP_CACHE_DIR/catalogue.json``, by default
    ``$XDG_CACHE_HOME/tabletop/catalogue.json`` (``~/.cache``)."""
    folder = os.environ.get("TABLETOP_CACHE_DIR")
    if not folder:
        base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
        folder = str(Path(base) / "tabletop")
    return Path(folder) / "catalogue.json"


def _catalogue() -> list[dict[str, Any]]:
    from tabletop.agents.catalogue import catalogue

    return catalogue()


def _key() -> dict[str, Any]:
    return {
        "format": FORMAT,
        "prefix": sys.prefix,
        "version": sys.version,
        "path": sys.path,
        "disabled": os.environ.get("TABLETOP_DISABLE_PLUGINS", ""),
    }


def _read(path: Path, key: dict[str, Any]) -> list[dict[str, Any]] | None:
    try:
        stored = json.loads(path.read_bytes())
        if stored["key"] != key or any(_stamp(p) != when for p, when in stored["stamps"]):
            return None
        rows: list[dict[str, Any]] = _decoded(stored["rows"])
        return rows
    except (OSError, ValueError, KeyError, TypeError, IndexError):
        return None


def _write(path: Path, key: dict[str, Any], rows: list[dict[str, Any]], loaded: list[str]) -> None:
    watched = [entry for entry in sys.path if entry and os.path.isdir(entry)]
    ours = [name for name in sys.modules if name.partition(".")[0] == "tabletop"]
    folders: set[str] = set()
    for name in dict.fromkeys([*ours, *loaded]):
        file = getattr(sys.modules.get(name), "__file__", None)
        if file and not _inside_prefix(file):
            watched.append(file)
            folders.add(os.path.dirname(file))
    for folder in sorted(folders):  # and every folder below: a file added (a language's
        for here, subfolders, _files in os.walk(folder):  # catalogue) changes its folder
            subfolders[:] = [name for name in subfolders if name != "__pycache__"]
            watched.append(here)
    stamps = [[entry, _stamp(entry)] for entry in dict.fromkeys(watched)]
    try:
        data = {"key": key, "stamps": stamps, "rows": _encoded(rows)}
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_name(f"{path.name}.{os.getpid()}")
        partial.write_text(json.dumps(data, ensure_ascii=False))
        os.replace(partial, path)
    except (OSError, TypeError, ValueError):
        pass  # no cache this time; the listing itself is right


def _inside_prefix(file: str) -> bool:
    prefixes = {sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix}
    return any(file.startswith(prefix + os.sep) for prefix in prefixes)


def _stamp(entry: str) -> int | None:
    try:
        return os.stat(entry).st_mtime_ns
    except OSError:
        return None


def _encoded(value: Any) -> Any:
    """JSON of ``value`` with each message kept translatable (its domain, template and
    parameters); anything else not JSON refuses (no cache)."""
    if isinstance(value, Msg):
        params = {k: _encoded(v) for k, v in value.params.items()}
        return {"$msg": [str(value), value.domain, value.msgid, params, value.plural, value.n]}
    if isinstance(value, dict) and "$msg" not in value:  # a message's mark: not data
        return {k: _encoded(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_encoded(v) for v in value]
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    raise TypeError(f"not JSON: {type(value).__name__}")


def _decoded(value: Any) -> Any:
    if isinstance(value, dict):
        if "$msg" in value:
            text, domain, msgid, params, plural, n = value["$msg"]
            return Msg(text, domain, msgid, _decoded(params), plural, n)
        return {k: _decoded(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_decoded(v) for v in value]
    return value

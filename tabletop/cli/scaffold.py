"""``tabletop new ID``: a complete plugin distribution for a new game, ready to install.

The files come from the templates in ``tabletop/templates/plugin`` (package data): every
``NAME.tmpl`` becomes ``NAME`` with the placeholders below filled in; the folder
``package`` becomes the import package ``tabletop_<id>`` and ``GAME`` in a file name
becomes the id. What is made is a small working game (Nim, to be changed into yours)
in the one inner shape of every plugin (rules, position, notation, agents, game, plugin;
docs/plugins.md), with options, a rich drawing, a rules README, a scenario file and
tests that run the conformance kit and the scenarios. ``pip install -e FOLDER`` makes
it a game of ``tabletop games``; the folder's own ``pytest`` passes as it is.

Placeholders: ``{{id}}`` the game id, ``{{package}}`` ``tabletop_<id>``, ``{{dist}}``
the distribution name ``tabletop-<id>``, ``{{Class}}`` the stem of the class names
(``{{Class}}Game``, ``{{Class}}Options``, as in every plugin), ``{{name}}`` its display
name, ``{{tabletop_version}}`` the version of tabletop.
"""

from __future__ import annotations

import importlib.resources
import keyword
import re
from collections.abc import Iterator
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Annotated

import typer

from tabletop import __version__
from tabletop.cli.language import speak
from tabletop.core.errors import UsageError
from tabletop.core.i18n.text import Domain
from tabletop.core.numbers import quote

_ = Domain("tabletop")

ID_PATTERN = re.compile(r"^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$")
MAX_ID = 30
SUFFIX = ".tmpl"


def check_id(game_id: str) -> None:
    """UsageError unless ``game_id`` can name a new game and its package ``tabletop_<id>``."""
    if not ID_PATTERN.match(game_id) or len(game_id) > MAX_ID or keyword.iskeyword(game_id):
        raise UsageError(
            _(
                "bad game id {id}: use lowercase letters, digits and single underscores, "
                "starting with a letter, at most {limit} characters (e.g. nim or pig_dice)",
                id=quote(game_id),
                limit=MAX_ID,
            )
        )
    from tabletop.core.registry import registry

    if game_id in registry().ids():
        raise UsageError(
            _(
                "a game with the id {id} is installed already; choose another id",
                id=quote(game_id),
            )
        )


def names(game_id: str) -> dict[str, str]:
    """The placeholder values for ``game_id`` (``pig_dice``: ``PigDice``, ``Pig Dice``…)."""
    words = game_id.split("_")
    return {
        "id": game_id,
        "package": f"tabletop_{game_id}",
        "dist": f"tabletop-{game_id.replace('_', '-')}",
        "Class": "".join(word.capitalize() for word in words),
        "name": " ".join(word.capitalize() for word in words),
        "tabletop_version": __version__,
    }


def fill(text: str, values: dict[str, str]) -> str:
    """``text`` with every ``{{key}}`` replaced; UsageError for an unknown placeholder."""

    def value(match: re.Match[str]) -> str:
        key = match.group(1)
        if key not in values:
            raise UsageError(f"template placeholder {{{{{key}}}}} is unknown")
        return values[key]

    return re.sub(r"\{\{(\w+)\}\}", value, text)


def templates() -> Traversable:
    """The folder of the plugin template (package data of tabletop)."""
    return importlib.resources.files("tabletop").joinpath("templates", "plugin")


def _walk(
    folder: Traversable, parts: tuple[str, ...] = ()
) -> Iterator[tuple[tuple[str, ...], str]]:
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.is_dir():
            yield from _walk(entry, (*parts, entry.name))
        elif entry.name.endswith(SUFFIX):
            yield (*parts, entry.name), entry.read_text(encoding="utf-8")


def target_path(parts: tuple[str, ...], values: dict[str, str]) -> Path:
    """Where a template file goes: ``package`` is the import package, ``GAME`` the id,
    ``PACKAGE`` in a file name the package (a catalogue: ``PACKAGE.po``), ``gitignore``
    the hidden ``.gitignore``, and ``.tmpl`` goes away."""
    mapped = [values["package"] if part == "package" else part for part in parts[:-1]]
    name = parts[-1].removesuffix(SUFFIX).replace("GAME", values["id"])
    name = name.replace("PACKAGE", values["package"])
    if name == "gitignore":
        name = ".gitignore"
    return Path(*mapped, name)


def plan(game_id: str) -> dict[Path, str]:
    """Every file of the new distribution (relative path -> text), nothing written."""
    values = names(game_id)
    return {target_path(parts, values): fill(text, values) for parts, text in _walk(templates())}


def new_command(game_id: str, directory: Path | None) -> Path:
    """Create the distribution of a new game ``game_id`` in ``directory`` (default
    ``./tabletop-<id>``), which must not exist yet; returns the folder made."""
    check_id(game_id)
    folder = Path(directory) if directory is not None else Path(f"tabletop-{game_id}")
    if folder.exists():
        raise UsageError(
            _("{folder} exists already; give a new folder with --dir", folder=str(folder))
        )
    files = plan(game_id)
    if not files:
        raise UsageError(_("the plugin template is missing from this tabletop installation"))
    try:
        for relative, text in files.items():
            path = folder / relative
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise UsageError(
            _(
                "cannot create {folder}: {reason}",
                folder=str(folder),
                reason=exc.strerror or str(exc),
            )
        ) from None
    return folder


def new(
    game_id: Annotated[str, typer.Argument(metavar="ID", help="The new game's id.")],
    directory: Annotated[
        Path | None, typer.Option("--dir", help="Folder to create (default: ./tabletop-ID).")
    ] = None,
) -> None:
    """Create a complete plugin distribution for a new game."""
    speak(None)  # its one-line errors: TABLETOP_LANG, then the locale, then English
    made = new_command(game_id, directory)
    typer.echo(f"created {made}")
    typer.echo(f"next: pip install -e {made} && tabletop play {game_id} && pytest {made}")

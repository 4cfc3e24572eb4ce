"""A game's presentation facet: how it is drawn, its rules text, its browser board, its
scenarios, its languages and the description of its position JSON (issue 34).

The terminal (``tabletop play``, ``replay``, ``rules``), the web server and the kit all
read it through :func:`presentation_of`, which lives here, below them all. Code comes from
the game's ``render`` module (:mod:`tabletop.core.facets`), files by the package's
conventions:

- ``render(view, player)`` in ``<package>.render``: a rich renderable of a view (default:
  the view as indented JSON);
- ``position_keys()`` in ``<package>.render``: Markdown saying what the keys of the
  position JSON mean, shown before the start position (default: the start position only);
- ``unseen_text(state, action)`` in ``<package>.render``: what is said of an action to
  whoever is not told its text, "player 2 drew a card" (default: "a hidden action");
- ``action_text(state, action)`` in ``<package>.render``: an action in the reader's words,
  "vyložit 2♥ 2♣" for ``meld 2H 2C`` (default: the notation); shown in logs, replays,
  hints and reviews, while typed input and records keep the notation;
- ``README.md`` / ``README.<lang>.md``: the rules text (default: name and summary);
- ``web/board.js``: the browser board (default: the generic board);
- ``scenarios/*.yaml``: the rule scenarios (default: none);
- ``locale/<lang>/LC_MESSAGES/<package>.po``: the languages (default: English).

The ``render`` module may replace the first three files with functions of those names,
``rules_text()``, ``web_board()`` and ``scenarios()`` (a game defined outside a package has
no files). ``languages()`` never imports the module: ``tabletop games`` lists languages
without rich.
"""

from __future__ import annotations

import importlib.resources
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

from tabletop.core.facets import Accessor, facet_module, method, old_methods
from tabletop.core.i18n.catalogues import ENGLISH, languages_of
from tabletop.core.i18n.text import current
from tabletop.game import JSON, Game, position_example

OLD = {
    "render": "define render(view, player) in the game's render module",
    "rules_text": "ship README.md (and README.<lang>.md) in the game's package",
    "web_board": "ship web/board.js in the game's package",
    "scenarios": "ship scenarios/*.yaml in the game's package",
    "languages": "ship locale/<lang>/LC_MESSAGES/<package>.po in the game's package",
    "position_format": "define position_keys() in the game's render module",
}


class Presentation(Protocol):
    """What the terminal, the web server and the kit show of a game besides its rules."""

    def render(self, view: JSON, player: int | None) -> Any:
        """A rich renderable of a view (drawn by ``tabletop play`` and ``replay``)."""

    def rules_text(self) -> str:
        """The rules and the notation, as Markdown, in the current language."""

    def web_board(self) -> Path | None:
        """The browser board (an ES module exporting ``render(root, position, act,
        seat)``; ``docs/web.md``), or None for the generic board."""

    def scenarios(self) -> list[Path]:
        """The rule-scenario files the game ships."""

    def languages(self) -> list[str]:
        """The languages the game speaks, English first."""

    def position_format(self) -> str:
        """How the position JSON looks, as Markdown (``tabletop rules`` shows it)."""

    def unseen_text(self, state: Any, action: Any) -> str | None:
        """What is said of ``action`` (taken in ``state``) to whoever is not told its
        text, e.g. "player 2 drew a card"; None: the generic "a hidden action"."""

    def action_text(self, state: Any, action: Any) -> str:
        """``action`` (taken in ``state``) in the reader's words: a message translated
        where it is shown ("meld 2♥ 2♣", "vyložit 2♥ 2♣"); the notation by default."""


def in_package(game: Game[Any, Any], *parts: str) -> Path | None:
    """A path inside the package of ``game``'s class, None for a game defined outside one
    (a single-module plugin, a script, a test)."""
    package = type(game).__module__.split(".")[0]
    try:
        return Path(str(importlib.resources.files(package))).joinpath(*parts)
    except (AttributeError, ModuleNotFoundError, TypeError, ValueError):
        return None


def _json_render(view: JSON, player: int | None) -> Any:
    return json.dumps(view, indent=2, ensure_ascii=False)


class Shown:
    """The presentation of one game: its old methods where its class still has them
    (deprecated), else its ``render`` module and its package's files."""

    def __init__(self, game: Game[Any, Any]) -> None:
        self.game = game
        self.old = set(old_methods(game, OLD))
        self._render: Callable[[JSON, int | None], Any] | None = None

    def _method(self, name: str) -> Any:
        return method(self.game, name)

    def render(self, view: JSON, player: int | None) -> Any:
        if "render" in self.old:
            return self._method("render")(view, player)
        if self._render is None:
            module = facet_module(self.game, "render")
            self._render = getattr(module, "render", None) or _json_render
        return self._render(view, player)

    def _own(self, name: str) -> Any:
        """The render module's function ``name``, or None."""
        return getattr(facet_module(self.game, "render"), name, None)

    def rules_text(self) -> str:
        if "rules_text" in self.old:
            return str(self._method("rules_text")())
        if (own := self._own("rules_text")) is not None:
            return str(own())
        lang = current()
        names = ["README.md"] if lang == ENGLISH else [f"README.{lang}.md", "README.md"]
        for name in names:
            readme = in_package(self.game, name)
            if readme is not None and readme.is_file():
                return readme.read_text("utf-8")
        return f"# {self.game.info.name}\n\n{self.game.info.summary}\n"

    def web_board(self) -> Path | None:
        if "web_board" in self.old:
            old: Path | None = self._method("web_board")()
            return old
        if (own := self._own("web_board")) is not None:
            found: Path | None = own()
            return found
        board = in_package(self.game, "web", "board.js")
        return board if board is not None and board.is_file() else None

    def scenarios(self) -> list[Path]:
        if "scenarios" in self.old:
            return list(self._method("scenarios")())
        if (own := self._own("scenarios")) is not None:
            return list(own())
        folder = in_package(self.game, "scenarios")
        return sorted(folder.glob("*.yaml")) if folder is not None and folder.is_dir() else []

    def languages(self) -> list[str]:
        if "languages" in self.old:
            return list(self._method("languages")())
        return languages_of(type(self.game).__module__.split(".")[0])

    def position_format(self) -> str:
        if "position_format" in self.old:
            return str(self._method("position_format")())
        keys = self._own("position_keys")
        example = position_example(self.game)
        return example if keys is None else str(keys()) + "\n\n" + example

    def unseen_text(self, state: Any, action: Any) -> str | None:
        own = self._own("unseen_text")
        return None if own is None else own(state, action)

    def action_text(self, state: Any, action: Any) -> str:
        own = self._own("action_text")
        said = None if own is None else own(state, action)
        return self.game.format(state, action) if said is None else said


presentation_of: Accessor[Presentation] = Accessor[Presentation](Shown)
"""The presentation of ``game`` (:class:`Presentation`), built on first use and kept."""

"""Configuration mutants: the game's declared settings changed, its code left as it is.

A rule suite that never plays a refused player count, nor an option at its bounds, lets
a wrong ``GameInfo`` pass. These mutants change one setting the conformance kit plays
(:mod:`tabletop.kit.configurations`) and run the suite on the game so configured:

- ``players``: ``min_players`` one lower (when above 1) or one higher (when below the
  maximum), ``max_players`` one higher or one lower (when above the minimum);
- ``default``: an option's default replaced by the next value the kit would play;
- ``bound``: an int option's ``ge`` one lower, its ``le`` one higher.

A case that sets the game up the unchanged way (``setup_refused: ...`` with 7 players,
a case relying on the default) kills them. Each is filed under the rule IDs its setting
cites: an option's under those of its description, the player counts under those of the
comments and strings of the game's ``info = GameInfo(...)``.
"""

from __future__ import annotations

import ast
import copy
import inspect
import json
import typing
from collections.abc import Collection
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field, create_model

from tabletop.core.i18n.text import Domain
from tabletop.game import Game
from tabletop.kit.mutation.mutants import RULE_WORD, Mutant, _cited, _comments
from tabletop.kit.mutation.operators import Edit

CONFIG = "(configuration)"  # the module name under which configuration mutants are shown

_ = Domain("tabletop")


@dataclass(frozen=True)
class ConfigChange:
    """One changed setting: ``kind`` (players, default, bound), what (``min_players``, an
    option name, ``stall_limit.ge``), the old and the new value."""

    kind: str
    what: str
    old: Any
    new: Any

    def describe(self) -> str:
        """``max_players 6 -> 7``, ``option deck: default "full" -> "half"``."""
        old, new = json.dumps(self.old), json.dumps(self.new)
        if self.kind == "players":
            return f"{self.what} {old} -> {new}"
        if self.kind == "default":
            return _("option {name}: default {old} -> {new}", name=self.what, old=old, new=new)
        name, bound = self.what.split(".")
        return _("option {name}: {bound} {old} -> {new}", name=name, bound=bound, old=old, new=new)


def _bound(field: Any, name: str) -> int | None:
    return next((getattr(m, name) for m in field.metadata if hasattr(m, name)), None)


def config_changes(game: Game[Any, Any]) -> list[ConfigChange]:
    """Every configuration mutant of ``game``, players first, then option by option."""
    from tabletop.kit.configurations import _field_values

    info = game.info
    low, high = info.min_players, info.max_players
    changes: list[ConfigChange] = []
    if low > 1:
        changes.append(ConfigChange("players", "min_players", low, low - 1))
    if low < high:
        changes.append(ConfigChange("players", "min_players", low, low + 1))
        changes.append(ConfigChange("players", "max_players", high, high - 1))
    changes.append(ConfigChange("players", "max_players", high, high + 1))
    model = info.options
    defaults = model().model_dump(mode="json")
    for name, field in model.model_fields.items():
        others = [v for v in _field_values(model, name) if v != defaults[name]]
        if others:
            changes.append(ConfigChange("default", name, defaults[name], others[0]))
        if field.annotation is int:
            ge, le = _bound(field, "ge"), _bound(field, "le")
            if ge is not None:
                changes.append(ConfigChange("bound", f"{name}.ge", ge, ge - 1))
            if le is not None:
                changes.append(ConfigChange("bound", f"{name}.le", le, le + 1))
    return changes


def _options_model(model: type[BaseModel], change: ConfigChange) -> type[BaseModel]:
    """A subclass of ``model`` with one field's default or bound changed (the game's code
    still sees an instance of its own model)."""
    name = change.what.split(".")[0]
    field = model.model_fields[name]
    if change.kind == "default":
        default = model.model_validate({name: change.new}).model_dump()[name]
        if isinstance(default, list | set):
            default = typing.cast(Any, type(getattr(model(), name)))(default)
        new_field: Any = copy.copy(field)
        new_field.default = default
    else:
        ge, le = _bound(field, "ge"), _bound(field, "le")
        bound = change.what.split(".")[1]
        ge, le = (change.new, le) if bound == "ge" else (ge, change.new)
        new_field = Field(field.default, ge=ge, le=le, description=field.description)
    made: type[BaseModel] = create_model(  # type: ignore[call-overload]
        model.__name__, __base__=model, **{name: (field.annotation, new_field)}
    )
    return made


def configured(game: Game[Any, Any], change: ConfigChange) -> Game[Any, Any]:
    """``game`` with one setting changed: its ``info`` replaced on the instance."""
    info = game.info
    if change.kind == "players":
        game.info = replace(info, **{change.what: change.new})
    else:
        game.info = replace(info, options=_options_model(info.options, change))
    return game


def _source(obj: Any) -> tuple[Path, str] | None:
    try:
        path = inspect.getsourcefile(obj)
    except (TypeError, OSError):
        return None
    if path is None or not Path(path).is_file():
        return None
    return Path(path), Path(path).read_text("utf-8")


def _info_place(game: Game[Any, Any], known: Collection[str]) -> tuple[Path, int, tuple[str, ...]]:
    """The file and line of the game's ``GameInfo(...)`` and the rule IDs it cites."""
    found = _source(type(game))
    if found is None:
        return Path(type(game).__module__), 0, ()
    path, text = found
    comments = _comments(text)
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "GameInfo":
            return path, node.lineno, _cited(node, comments, known)
    return path, 0, ()


def _field_place(model: type[BaseModel], name: str) -> tuple[Path, int]:
    found = _source(model)
    if found is None:
        return Path(model.__module__), 0
    path, text = found
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.ClassDef) and node.name == model.__name__:
            for item in node.body:
                if isinstance(item, ast.AnnAssign) and getattr(item.target, "id", "") == name:
                    return path, item.lineno
    return path, 0


def config_mutants(
    game: Game[Any, Any], known: Collection[str] = (), first: int = 1
) -> list[Mutant]:
    """The configuration mutants of ``game`` as :class:`Mutant` (module :data:`CONFIG`;
    the edit's text is the change as JSON, read back by :func:`change_of`)."""
    info_path, info_line, info_rules = _info_place(game, known)
    model = game.info.options
    mutants: list[Mutant] = []
    for change in config_changes(game):
        if change.kind == "players":
            path, line, rules, where = info_path, info_line, info_rules, "GameInfo"
        else:
            name = change.what.split(".")[0]
            path, line = _field_place(model, name)
            text = model.model_fields[name].description or ""
            words = dict.fromkeys(RULE_WORD.findall(text))
            rules = tuple(r for r in words if not known or r in known)
            where = f"{model.__name__}.{name}"
        edit = Edit(0, 0, json.dumps(asdict(change)), line, "config", change.describe())
        mutants.append(Mutant(first + len(mutants), CONFIG, path, edit, where, rules, None))
    return mutants


def change_of(mutant: Mutant) -> ConfigChange:
    """The configuration change a configuration mutant stands for."""
    return ConfigChange(**json.loads(mutant.edit.text))

"""Game options at the edge: ``-o key=value`` pairs, saved dicts, and their description.

A game's options are a pydantic model (frozen, ``extra="forbid"``) with a default and
a description for every field. A field may name its allowed values for the listing
with ``json_schema_extra={"allowed": [...]}``; otherwise they come from its type.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import BaseModel, ValidationError
from pydantic.fields import FieldInfo

from tabletop.core.errors import OptionError


def allowed_values(field: FieldInfo) -> list[Any] | str:
    """The values a field allows: a list, or a short description of the range."""
    extra = field.json_schema_extra
    if isinstance(extra, dict) and "allowed" in extra:
        allowed = extra["allowed"]
        return list(allowed) if isinstance(allowed, list) else str(allowed)
    annotation = field.annotation
    if annotation is bool:
        return [True, False]
    if typing.get_origin(annotation) is typing.Literal:
        return list(typing.get_args(annotation))
    if annotation is int:
        bounds = {type(m).__name__: m for m in field.metadata}
        low = getattr(bounds.get("Ge"), "ge", None)
        high = getattr(bounds.get("Le"), "le", None)
        return f"integer {'' if low is None else low}..{'' if high is None else high}"
    if isinstance(annotation, types.UnionType | type):
        return getattr(annotation, "__name__", str(annotation))
    return str(annotation)


def describe(model: type[BaseModel]) -> list[dict[str, Any]]:
    """Name, default, allowed values and help of every option (for ``tabletop games``)."""
    rows = []
    defaults = model().model_dump(mode="json")
    for name, field in model.model_fields.items():
        rows.append(
            {
                "name": name,
                "default": defaults[name],
                "allowed": allowed_values(field),
                "help": field.description or "",
            }
        )
    return rows


def _allowed_text(model: type[BaseModel], name: str) -> str:
    allowed = allowed_values(model.model_fields[name])
    if isinstance(allowed, list):
        return ", ".join(str(v).lower() if isinstance(v, bool) else str(v) for v in allowed)
    return allowed


def build(model: type[BaseModel], values: Mapping[str, Any], game_id: str) -> BaseModel:
    """The options model from a mapping; OptionError names the bad key or value."""
    known = list(model.model_fields)
    for key in values:
        if key not in model.model_fields:
            raise OptionError(
                f"unknown option {key!r} for {game_id}; options: {', '.join(known) or 'none'}"
            )
    try:
        return model.model_validate(dict(values))
    except ValidationError as exc:
        err = exc.errors()[0]
        name = str(err["loc"][0]) if err["loc"] else "?"
        value = values.get(name, err.get("input"))
        allowed = _allowed_text(model, name) if name in model.model_fields else ""
        reason = err["msg"].removeprefix("Value error, ")
        raise OptionError(
            f"bad value {value!r} for option {name!r} of {game_id}: {reason}; allowed: {allowed}"
        ) from None


def parse_pairs(pairs: Sequence[str]) -> dict[str, str]:
    """``["k=v", ...]`` as a dict; OptionError for a pair without ``=``."""
    values: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise OptionError(f"option {pair!r} is not KEY=VALUE (e.g. -o squares=true)")
        values[key.strip().lower()] = value.strip()
    return values


def dump(options: BaseModel) -> dict[str, Any]:
    """Options as JSON-ready values (a model that holds sets serializes them itself, in a
    stable order, e.g. with a field serializer)."""
    return options.model_dump(mode="json")

"""Game options at the edge: ``-o key=value`` pairs, saved dicts, and their description.

A game's options are a pydantic model (frozen, ``extra="forbid"``) with a default and
a description for every field. A field may name its allowed values for the listing
with ``json_schema_extra={"allowed": [...]}``; otherwise they come from its type.

What a person reads of an option may be translated: its ``description`` (the help), its
``title`` (the name a form shows, e.g. ``title=_("deck")``; default: the key with spaces)
and ``json_schema_extra={"labels": {value: _("..."), ...}}`` (how a form shows each
allowed value; default: the value itself). The keys and values stay the machine's
(``-o deck=half``, saves, JSON).
"""

from __future__ import annotations

import types
import typing
from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import BaseModel, ValidationError
from pydantic.fields import FieldInfo

from tabletop.core.errors import OptionError, one_line
from tabletop.core.i18n.text import Domain, message_of
from tabletop.core.numbers import MAX_DIGITS, cut, parse_int, quote

_ = Domain("tabletop")


def allowed_values(field: FieldInfo) -> list[Any] | str:
    """The values a field allows: a list, or a short description of the range."""
    extra = field.json_schema_extra
    if isinstance(extra, dict) and "allowed" in extra:
        allowed = extra["allowed"]
        if isinstance(allowed, list):
            return list(allowed)
        return allowed if isinstance(allowed, str) else str(allowed)  # a Msg stays one
    annotation = field.annotation
    if annotation is bool:
        return [True, False]
    if typing.get_origin(annotation) is typing.Literal:
        return list(typing.get_args(annotation))
    if annotation is int:
        bounds = {type(m).__name__: m for m in field.metadata}
        low = getattr(bounds.get("Ge"), "ge", None)
        high = getattr(bounds.get("Le"), "le", None)
        return _(
            "integer {low}..{high}",
            low="" if low is None else low,
            high="" if high is None else high,
        )
    if isinstance(annotation, types.UnionType | type):
        return getattr(annotation, "__name__", str(annotation))
    return str(annotation)


def value_labels(field: FieldInfo) -> dict[str, str]:
    """How a form shows each allowed value (``json_schema_extra["labels"]``), keyed by the
    value as JSON text (``"half"``, ``"true"``, ``"3"``); empty when the game names none."""
    import json

    extra = field.json_schema_extra
    labels = extra.get("labels") if isinstance(extra, dict) else None
    if not isinstance(labels, dict):
        return {}
    return {
        json.dumps(key): text if isinstance(text, str) else str(text)
        for key, text in labels.items()
    }


def default_json(field: FieldInfo) -> Any:
    """A field's default as JSON, a set's members sorted, read from the field alone: the
    model's validators and serializers are not built for a listing (``defer_build``
    models stay unbuilt, for ``tabletop games``' start-up)."""
    from pydantic_core import to_jsonable_python

    default = field.get_default(call_default_factory=True)
    if isinstance(default, set | frozenset):
        return sorted(to_jsonable_python(member) for member in default)
    return to_jsonable_python(default)


def describe(model: type[BaseModel]) -> list[dict[str, Any]]:
    """Name, default, allowed values and help of every option (for ``tabletop games``),
    with ``label`` (the name a person reads) and ``labels`` (each value's, by its JSON)."""
    rows = []
    for name, field in model.model_fields.items():
        rows.append(
            {
                "name": name,
                "label": field.title or name.replace("_", " "),
                "default": default_json(field),
                "allowed": allowed_values(field),
                "labels": value_labels(field),
                "help": field.description or "",
            }
        )
    return rows


def _allowed_text(model: type[BaseModel], name: str) -> str:
    allowed = allowed_values(model.model_fields[name])
    if isinstance(allowed, list):
        return ", ".join(str(v).lower() if isinstance(v, bool) else str(v) for v in allowed)
    return allowed


def _wants_int(field: FieldInfo) -> bool:
    """Whether a field holds whole numbers: ``int`` or a Literal of ints (``Literal[3, 4]``)."""
    annotation = field.annotation
    if annotation is int:
        return True
    args = typing.get_args(annotation) if typing.get_origin(annotation) is typing.Literal else ()
    return any(type(a) is int for a in args)


def _coerce(model: type[BaseModel], name: str, value: Any, game_id: str) -> Any:
    """Text typed for a whole-number option (``-o size=4``, ``size: "4"``) as the int,
    read by :func:`tabletop.core.numbers.parse_int` (ASCII digits, at most 20); anything else
    as it is."""
    field = model.model_fields[name]
    if not (isinstance(value, str) and _wants_int(field)) or value in typing.get_args(
        field.annotation
    ):
        return value
    number = parse_int(value, lo=None)  # the bounds are the model's (a message naming them)
    if number is None:
        raise OptionError(
            _(
                "bad value {value} for option {name} of {game}: not a whole number "
                "(ASCII digits, at most {digits}); allowed: {allowed}",
                value=quote(value),
                name=repr(name),
                game=game_id,
                digits=MAX_DIGITS,
                allowed=_allowed_text(model, name),
            )
        )
    return number


def _typed_as_json(model: type[BaseModel], values: Mapping[str, Any], game_id: str) -> None:
    """OptionError for a JSON yes/no given to an option that is not one (``true`` is no
    number) or anything else given to a yes/no option (``1`` is no yes)."""
    for name, value in values.items():
        field = model.model_fields[name]
        wants_bool = field.annotation is bool
        if isinstance(value, bool) == wants_bool:
            continue
        kind = "bool_type" if wants_bool else "int_type" if _wants_int(field) else ""
        raise OptionError(
            _(
                "bad value {value} for option {name} of {game}: {reason}; allowed: {allowed}",
                value=cut(repr(value), 40) if not isinstance(value, str) else quote(value),
                name=repr(name),
                game=game_id,
                reason=library_reason(kind, {}, _("not a value of this option")),
                allowed=_allowed_text(model, name),
            )
        )


def build(
    model: type[BaseModel], values: Mapping[str, Any], game_id: str, strict: bool = False
) -> BaseModel:
    """The options model from a mapping (command-line text, a save, a scenario file);
    OptionError names the bad key or value and what is allowed. ``strict`` (JSON from
    the network): a yes/no only for a yes/no option, ``true`` no number and ``1`` no yes
    (text still reads as the CLI reads it: digits, a comma list)."""
    known = list(model.model_fields)
    for key in values:
        if key not in model.model_fields:
            raise OptionError(
                _(
                    "unknown option {key} for {game}; options: {known}",
                    key=quote(str(key)),
                    game=game_id,
                    known=", ".join(known) or _("none"),
                )
            )
    coerced = {key: _coerce(model, key, value, game_id) for key, value in values.items()}
    if strict:
        _typed_as_json(model, coerced, game_id)
    try:
        return model.model_validate(coerced)
    except ValidationError as exc:
        err = exc.errors()[0]
        name = str(err["loc"][0]) if err["loc"] else "?"
        value = values.get(name, err.get("input"))
        allowed = _allowed_text(model, name) if name in model.model_fields else ""
        reason = one_line(err["msg"].removeprefix("Value error, "))
        raised = (err.get("ctx") or {}).get("error")
        if isinstance(raised, ValueError) and one_line(str(raised)) == reason:
            reason = message_of(raised)  # a validator's own message, still translatable
        else:
            reason = library_reason(err["type"], err.get("ctx") or {}, reason)
        raise OptionError(
            _(
                "bad value {value} for option {name} of {game}: {reason}; allowed: {allowed}",
                value=quote(value) if isinstance(value, str) else cut(repr(value), 40),
                name=repr(name),
                game=game_id,
                reason=cut(reason),
                allowed=allowed,
            )
        ) from None


# pydantic's error types as the reader reads them (its own messages are English only)
_LIBRARY = {
    "bool_parsing": _("not a yes/no value"),
    "bool_type": _("not a yes/no value"),
    "int_parsing": _("not a whole number"),
    "int_type": _("not a whole number"),
    "int_from_float": _("not a whole number"),
    "literal_error": _("not one of the allowed values"),
    "enum": _("not one of the allowed values"),
    "string_type": _("not a text"),
    "list_type": _("not a list"),
    "too_short": _("too few values"),
    "too_long": _("too many values"),
    "extra_forbidden": _("not a known key"),
    "missing": _("missing"),
    "model_type": _("not an object"),
    "model_attributes_type": _("not an object"),
    "dict_type": _("not an object"),
    "float_type": _("not a number"),
    "float_parsing": _("not a number"),
    "string_too_long": _("too long"),
}


def library_reason(kind: str, ctx: Mapping[str, Any], english: str) -> str:
    """A validation error of pydantic's (``kind``: its error type, ``ctx`` its context)
    in the reader's language; a kind not known here keeps pydantic's ``english``."""
    if kind in _LIBRARY:
        return _LIBRARY[kind]
    if kind == "less_than_equal":
        return _("above {bound}", bound=ctx.get("le", "?"))
    if kind == "less_than":
        return _("not below {bound}", bound=ctx.get("lt", "?"))
    if kind == "greater_than_equal":
        return _("below {bound}", bound=ctx.get("ge", "?"))
    if kind == "greater_than":
        return _("not above {bound}", bound=ctx.get("gt", "?"))
    return english


def parse_pairs(pairs: Sequence[str]) -> dict[str, str]:
    """``["k=v", ...]`` as a dict; OptionError for a pair without ``=``."""
    values: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise OptionError(
                _("option {pair} is not KEY=VALUE (e.g. -o squares=true)", pair=quote(pair))
            )
        values[key.strip().lower()] = value.strip()
    return values


def dump(options: BaseModel) -> dict[str, Any]:
    """Options as JSON-ready values (a model that holds sets serializes them itself, in a
    stable order, e.g. with a field serializer)."""
    return options.model_dump(mode="json")


def as_text(value: Any) -> str:
    """An option value as ``-o`` takes it: ``true``, ``a,b``, ``3``."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, list):
        return ",".join(str(v) for v in value)
    return str(value)

"""The configurations the conformance kit plays: player counts × option values, every
combination when they are few, else a pairwise sample (:mod:`tabletop.kit.pairwise`)."""

from __future__ import annotations

import itertools
import json
import typing
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, TypeAlias

from pydantic import BaseModel, ValidationError

from tabletop.core import options as opts
from tabletop.core.configured import Configured, label
from tabletop.core.errors import TabletopError, one_line
from tabletop.core.i18n.text import Domain, Msg, message_of
from tabletop.game import Game
from tabletop.kit.pairwise import pairwise

_ = Domain("tabletop")


# one configuration the kit plays (issue 34: the core's Configured)
Config: TypeAlias = Configured[Any, Any]


def _field_values(model: type[BaseModel], name: str) -> list[Any]:
    """Candidate values of one option: the default first, then the others worth a game."""
    info = model.model_fields[name]
    default = model().model_dump(mode="json")[name]
    candidates: list[Any] = [default]
    allowed = opts.allowed_values(info)
    annotation = info.annotation
    origin = typing.get_origin(annotation)
    if origin in (frozenset, set, list, tuple):
        args = typing.get_args(annotation)
        inner = args[0] if args else None
        if typing.get_origin(inner) is typing.Literal:
            candidates.extend([v] for v in typing.get_args(inner))
    elif isinstance(allowed, list):
        candidates.extend(allowed)
    elif annotation is int:
        low = next((getattr(m, "ge", None) for m in info.metadata if hasattr(m, "ge")), None)
        candidates.append(low if low is not None else 1)
    values: list[Any] = []
    seen: set[str] = set()
    for value in candidates:
        try:
            dumped = model.model_validate({name: value}).model_dump(mode="json")[name]
        except ValidationError:
            continue
        key = json.dumps(dumped, sort_keys=True)
        if key not in seen:
            seen.add(key)
            values.append(dumped)
    return values


@dataclass(frozen=True)
class ConfigPlan:
    """The configurations the kit plays, how they were chosen, and those the game refused."""

    configs: list[Config]
    how: str  # "all 8 combinations", "a pairwise sample: ...", "the chosen options"
    refused: list[str]  # labels of refused combinations, with the game's reason


def plan_configurations(
    game: Game[Any, Any],
    players: int | None = None,
    max_configs: int = 12,
    seed: int = 0,
    options: BaseModel | Mapping[str, Any] | None = None,
) -> ConfigPlan:
    """Player counts × option values: every combination when there are at most
    ``max_configs``, else a pairwise sample (every pair of two values of two options, or
    of an option and a player count, is played in some game). With ``options`` only that
    configuration (for each player count). Combinations the game refuses at ``new`` are
    left out and listed with the reason."""
    info = game.info
    counts = [players] if players else list(range(info.min_players, info.max_players + 1))
    names = list(info.options.model_fields)
    if options is not None:
        chosen = Configured.of(game, counts[0], options)
        axes: list[list[Any]] = [counts, *([v] for v in chosen.values.values())]
    else:
        axes = [counts, *(_field_values(info.options, n) for n in names)]
    total = 1
    for axis in axes:
        total *= len(axis)
    refused: dict[tuple[Any, ...], str] = {}
    built: dict[tuple[Any, ...], Config] = {}

    def allowed(combo: tuple[Any, ...]) -> bool:
        key = tuple(json.dumps(v, sort_keys=True) for v in combo)
        if key in built:
            return True
        if key in refused:
            return False
        values = dict(zip(names, combo[1:], strict=True))
        try:
            configured = Configured.of(game, combo[0], values)
            configured.new(seed)
        except TabletopError as exc:
            said = message_of(exc)
            reason = said if isinstance(said, Msg) and "\n" not in said else one_line(said)
            refused[key] = _(
                "{label}: {reason}", label=label(combo[0], values, info.options), reason=reason
            )
            return False
        built[key] = configured
        return True

    if options is not None:
        how: str = _("the chosen options")
        combos = [c for c in itertools.product(*axes) if allowed(c)]
    elif total <= max_configs:
        how = _.plural("all {n} combination", "all {n} combinations", total)
        combos = [c for c in itertools.product(*axes) if allowed(c)]
    else:
        missed: list[tuple[int, Any, int, Any]] = []
        combos = pairwise(axes, seed, allowed, missed)
        how = _(
            "a pairwise sample: {count} of {total}, every pair of values of two options "
            "(or of an option and a player count) played together",
            count=len(combos),
            total=_.plural("{n} combination", "{n} combinations", total),
        )
        words = ["players", *names]
        reasons = list(refused.values())
        refused = {}
        for i, a, j, b in missed:  # report the pairs never played, not every candidate
            pair = _("{one} with {two}", one=_pair_text(words[i], a), two=_pair_text(words[j], b))
            why = next((_reason(r) for r in reasons if _has(r, words, i, a, j, b)), "")
            refused[(pair,)] = _("{label}: {reason}", label=pair, reason=why) if why else pair
    configs = [built[tuple(json.dumps(v, sort_keys=True) for v in c)] for c in combos]
    return ConfigPlan(configs, how, list(refused.values()))


def _pair_text(word: str, value: Any) -> str:
    if word == "players":
        return _.plural("{n} player", "{n} players", value)
    return f"{word}={opts.as_text(value)}"


def _reason(refused: str) -> str:
    """The game's reason in a refused combination's line (``label: reason``), a message
    when the game gave one."""
    if isinstance(refused, Msg) and "reason" in refused.params:
        reason: str = refused.params["reason"]
        return reason
    return refused.split(": ", 1)[1]


def _has(label: str, words: list[str], i: int, a: Any, j: int, b: Any) -> bool:
    """Whether a refused combination's label holds both values (defaults are not shown)."""
    head = label.split(": ", 1)[0]
    return all(
        _pair_text(words[k], v) in head or (k and f"{words[k]}=" not in head)
        for k, v in ((i, a), (j, b))
    )


def configurations(
    game: Game[Any, Any], players: int | None = None, max_configs: int = 12, seed: int = 0
) -> list[Config]:
    """The configurations of :func:`plan_configurations`."""
    return plan_configurations(game, players, max_configs, seed).configs

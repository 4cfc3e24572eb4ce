"""The checks of one position: ``notation``, ``position`` (round trip and damaged JSON),
``samples`` (determinisations) and ``mutants`` (:mod:`tabletop.kit.fuzzing`)."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

from tabletop.core.errors import PositionError, TabletopError, one_line
from tabletop.core.i18n.text import Domain, message_of
from tabletop.game import JSON
from tabletop.kit import fuzzing
from tabletop.kit.checks.context import Context, Failed
from tabletop.kit.jsonpaths import dotted, first_difference, pick, places, put

_ = Domain("tabletop")

SAMPLES = 2  # determinisations drawn per player and deep position (samples)
DAMAGED = 4  # damaged position JSONs tried per game (position)


def notation(ctx: Context, state: Any) -> None:
    """``parse(format(a)) == a`` for every listed action, in any letter case."""
    game = ctx.game
    acting = game.to_act(state)
    listed = (
        [a for p in sorted(acting) for a in game.choices(state, p)]
        if isinstance(acting, frozenset)  # a simultaneous step: each player's own choices
        else game.listing(state)
    )
    for action in listed:
        text = game.format(state, action)
        for variant in dict.fromkeys([text, text.upper(), text.lower()]):
            try:
                back = game.parse(state, variant)
            except TabletopError as exc:
                raise Failed(
                    _(
                        "parse({text}) refused its own format: {reason}",
                        text=repr(variant),
                        reason=message_of(exc),
                    )
                ) from None
            if back != action:
                raise Failed(
                    _(
                        "parse({text}) gave {back}, not {action}",
                        text=repr(variant),
                        back=repr(back),
                        action=repr(action),
                    )
                )


def same_position(ctx: Context, first: Any, second: Any, what: str) -> None:
    """Two states are the same position: JSON, player to act, outcome, legal actions, views."""
    game = ctx.game
    one, two = game.to_json(first), game.to_json(second)
    if one != two:
        at = first_difference(one, two)
        raise Failed(
            _(
                "{what}: to_json differs at {at}: {before} -> {after}",
                what=what,
                at=at,
                before=str(pick(one, at)),
                after=str(pick(two, at)),
            )
        )
    if game.to_act(second) != game.to_act(first):
        raise Failed(_("{what}: to_act differs", what=what))
    if game.outcome(second) != game.outcome(first):
        raise Failed(_("{what}: outcome differs", what=what))
    texts = sorted(game.format(first, a) for a in game.legal(first))
    if sorted(game.format(second, a) for a in game.legal(second)) != texts:
        raise Failed(_("{what}: legal actions differ", what=what))
    for player in [None, *range(1, ctx.players + 1)]:
        if game.view(second, player) != game.view(first, player):
            raise Failed(_("{what}: the view of player {player} differs", what=what, player=player))


def position(ctx: Context, state: Any) -> None:
    """``from_json(to_json(state))`` is the same position (through JSON text)."""
    game = ctx.game
    text = json.loads(json.dumps(game.to_json(state)))  # what a file would give back
    again = ctx.config.from_json(text, ctx.seed)
    same_position(ctx, state, again, "from_json(to_json(state))")


def damaged(ctx: Context, state: Any, rng: random.Random) -> None:
    """Damaged position JSONs are refused with PositionError, or accepted and usable."""
    game = ctx.game
    data = game.to_json(state)
    for _attempt in range(DAMAGED):
        broken, what = damage(data, rng)
        try:
            got = ctx.config.from_json(broken, ctx.seed)
        except PositionError:
            continue
        except Exception as exc:
            raise Failed(
                _(
                    "from_json on a damaged position ({what}) raised {kind}: {reason}, "
                    "not PositionError",
                    what=what,
                    kind=type(exc).__name__,
                    reason=one_line(str(exc)),
                )
            ) from None
        try:
            game.to_json(got)
            game.legal(got)
            game.to_act(got)
            game.view(got, None)
        except Exception as exc:
            raise Failed(
                _(
                    "from_json accepted a damaged position ({what}) that then crashes: "
                    "{kind}: {reason}",
                    what=what,
                    kind=type(exc).__name__,
                    reason=one_line(str(exc)),
                )
            ) from None


def damage(data: JSON, rng: random.Random) -> tuple[JSON, str]:
    """A copy of a position JSON with one thing broken, and what was broken."""
    broken = copy.deepcopy(data)
    paths = [path for path, _ in places(broken) if path]
    if not paths:
        return {"junk": 1}, _("an unrelated object")
    path = rng.choice(paths)
    junk: list[Any] = [None, -1, 10**9, "zz", "", [], {}, True, 3.5, ["zz"], {"zz": 1}]
    if rng.random() < 0.3:
        parent: Any = broken
        for key in path[:-1]:
            parent = parent[key]
        del parent[path[-1]]
        return broken, _("{path} removed", path=dotted(path))
    value = rng.choice(junk)
    put(broken, path, value)
    return broken, _("{path} set to {value}", path=dotted(path), value=json.dumps(value))


def samples(ctx: Context, state: Any, rng: random.Random) -> None:
    """Each player's determinisations (``Game.sample``, what search agents play on):
    the player sees exactly their view in every sample, the sample survives
    ``from_json(to_json(...))`` (the game's conservation laws and impossibility checks),
    and the player to act has the same legal actions there as in the true state."""
    game, players, options = ctx.game, ctx.players, ctx.options
    if game.outcome(state) is not None:
        return
    to_act = game.to_act(state)
    for player in range(1, players + 1):
        view = game.view(state, player)
        for _attempt in range(SAMPLES):
            try:
                sample = game.sample(view, player, players, options, rng)
            except NotImplementedError:
                if game.info.hidden_information:
                    raise Failed(
                        _("hidden information but no sample(): search agents cannot play this game")
                    ) from None
                return
            if game.view(sample, player) != view:
                raise Failed(
                    _("a sample for player {player} shows them another view", player=player)
                )
            data = json.loads(json.dumps(game.to_json(sample)))
            try:
                game.from_json(data, players, options, ctx.seed)
            except PositionError as exc:
                raise Failed(
                    _(
                        "a sample for player {player} is impossible: {reason}",
                        player=player,
                        reason=message_of(exc),
                    )
                ) from None
            if player == to_act and list(game.legal(sample)) != list(game.legal(state)):
                raise Failed(
                    _("a sample for player {player} changes their legal actions", player=player)
                )
            ctx.count("samples", 1)


def mutant(ctx: Context, state: Any, rng: random.Random) -> None:
    """A mutated position is refused in one line or plays on with every invariant."""
    data = ctx.game.to_json(state)
    problem = fuzzing.check_mutant(ctx.game, data, ctx.players, ctx.options, ctx.seed, rng)[0]
    if problem:
        raise Failed(problem)

"""The checks of a game as it is played: ``legal``, ``pure``, ``deterministic`` and
``record`` (what each demands: :data:`tabletop.kit.checks.CHECKS`)."""

from __future__ import annotations

import random
import tempfile
from pathlib import Path
from typing import Any

from tabletop.core.errors import ActionError, RecordError
from tabletop.core.match import Match
from tabletop.core.records import Record, load, save
from tabletop.kit.checks.context import Context, Failed
from tabletop.kit.jsonpaths import first_difference, pick


def legal(ctx: Context, state: Any) -> list[Any]:
    """The legal actions; empty exactly when the game is over, agreeing with ``listing``
    and ``refusal``."""
    game, players = ctx.game, ctx.players
    to_act, outcome, actions = game.to_act(state), game.outcome(state), list(game.legal(state))
    if outcome is None:
        if to_act is None or not 1 <= to_act <= players:
            raise Failed(f"the game is not over but to_act is {to_act!r}")
        if not actions:
            raise Failed("legal actions are empty before the end")
    else:
        if to_act is not None:
            raise Failed(f"the game is over ({outcome}) but to_act is {to_act}")
        if actions:
            raise Failed(f"the game is over but {len(actions)} actions are legal")
        if not all(1 <= w <= players for w in outcome.winners):
            raise Failed(f"winners {outcome.winners} are not players")
    winners = game.winners(state)
    if winners != (None if outcome is None else outcome.winners):
        said = None if outcome is None else outcome.winners
        raise Failed(f"Game.winners gives {winners!r}, not the outcome's winners {said!r}")
    listing = set(game.listing(state))
    legal_set = set(actions)
    unlisted = legal_set - listing
    if unlisted:
        text = ctx.text_of(state, next(iter(unlisted)))
        raise Failed(f"legal {text!r} is not listed")
    for action in listing - legal_set:
        reason = game.refusal(state, action)
        if not isinstance(reason, str) or not reason.strip() or "\n" in reason:
            raise Failed(f"listed, refused {ctx.text_of(state, action)!r}: bad refusal")
    return actions


def pure(ctx: Context, state: Any, action: Any, deep: bool) -> Any:
    """``apply(state, action)``, checking both are hashable values and (``deep``) that the
    state's hash and JSON did not change."""
    game = ctx.game
    hashes = []
    for what, value in (("state", state), ("action", action)):
        try:
            hashes.append(hash(value))
        except TypeError:
            raise Failed(f"the {what} {value!r:.60} is not hashable: not a value") from None
    if isinstance(action, str):
        raise Failed(f"action {action!r} is a string; text belongs in parse/format")
    before = game.to_json(state) if deep else None
    after = game.apply(state, action)
    if deep and (hash(state) != hashes[0] or game.to_json(state) != before):
        raise Failed(f"apply({ctx.text_of(state, action)!r}) changed its input state")
    return after


def deterministic(ctx: Context, states: list[Any], actions: list[Any]) -> None:
    """The same seed and actions give the same states."""
    game = ctx.game
    again = game.new(ctx.players, ctx.options, ctx.seed)
    if again != states[0] or game.to_json(again) != game.to_json(states[0]):
        raise Failed(f"new(seed={ctx.seed}) gave two different initial states")
    for number, action in enumerate(actions, start=1):
        again = game.apply(again, action)
        if again != states[number]:
            raise Failed(f"replaying the same actions differs after action {number}")


def record(
    ctx: Context, states: list[Any], actions: list[Any], rng: random.Random, save_load: bool
) -> None:
    """The game's record, from the start and from a position (via to_json/from_json), read
    back (``save_load``: through a real file) and replayed to the same end."""
    game = ctx.game
    start = rng.randrange(len(states)) if len(states) > 1 else 0
    for first in sorted({0, start}):
        position = None if first == 0 else game.to_json(states[first])
        match = Match(game, ctx.players, ctx.options, ctx.seed, position)
        for number, action in enumerate(actions[first:], start=first + 1):
            try:
                match.push(action)
            except ActionError:
                raise Failed(
                    f"from the position after action {first} (via to_json/from_json), "
                    f"action {number} {ctx.text_of(states[number - 1], action)!r} is not "
                    "legal: the position JSON loses something"
                ) from None
        written = match.record()
        if first == 0 and save_load:
            with tempfile.TemporaryDirectory() as folder:
                path = Path(folder) / "game.json"
                save(written, path)
                loaded = load(path)
        else:
            loaded = Record.from_text(written.to_text())
        if loaded != written:
            raise Failed("the record read back differs from the one written")
        where = "from the start" if first == 0 else f"from the position after {first}"
        try:
            again = Match.from_record(game, loaded)
        except RecordError as exc:
            raise Failed(f"the record replayed {where} fails: {exc}") from None
        if again.texts != match.texts:
            raise Failed(f"the record replayed {where} gives other action texts")
        one, two = game.to_json(states[-1]), game.to_json(again.state)
        if one != two:
            at = first_difference(one, two)
            raise Failed(
                f"the record replayed {where} ends in another position: at {at}, "
                f"{pick(one, at)} -> {pick(two, at)}"
            )
        if again.outcome() != match.outcome():
            raise Failed(f"the record replayed {where} has another outcome")

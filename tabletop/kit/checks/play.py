"""The checks of a game as it is played: ``legal``, ``pure``, ``deterministic`` and
``record`` (what each demands: :data:`tabletop.kit.checks.CHECKS`)."""

from __future__ import annotations

import random
import tempfile
from fractions import Fraction
from pathlib import Path
from typing import Any

from tabletop.core.errors import ActionError, RecordError
from tabletop.core.i18n.text import Domain, message_of
from tabletop.core.match import Match
from tabletop.core.records import Record, load, save
from tabletop.game import CHANCE, Actor
from tabletop.kit.checks.context import Context, Failed
from tabletop.kit.jsonpaths import first_difference, pick

_ = Domain("tabletop")


def legal(ctx: Context, state: Any) -> list[Any]:
    """The legal actions; empty exactly when the game is over, agreeing with ``listing``
    and ``refusal``."""
    game, players = ctx.game, ctx.players
    to_act, outcome, actions = game.to_act(state), game.outcome(state), list(game.legal(state))
    if outcome is None:
        if not _acting(to_act, players):
            raise Failed(_("the game is not over but to_act is {who}", who=repr(to_act)))
        if not actions:
            raise Failed(_("legal actions are empty before the end"))
        if to_act == CHANCE:
            _chance(ctx, state, actions)
        elif isinstance(to_act, frozenset):
            _simultaneous(ctx, state, to_act, actions)
    else:
        if to_act is not None:
            raise Failed(
                _(
                    "the game is over ({outcome}) but to_act is {who}",
                    outcome=str(outcome),
                    who=to_act,
                )
            )
        if actions:
            raise Failed(
                _.plural(
                    "the game is over but {n} action is legal",
                    "the game is over but {n} actions are legal",
                    len(actions),
                )
            )
        if not all(1 <= w <= players for w in outcome.winners):
            raise Failed(_("winners {winners} are not players", winners=str(outcome.winners)))
    winners = game.winners(state)
    if winners != (None if outcome is None else outcome.winners):
        said = None if outcome is None else outcome.winners
        raise Failed(
            _(
                "Game.winners gives {winners}, not the outcome's winners {said}",
                winners=repr(winners),
                said=repr(said),
            )
        )
    if isinstance(to_act, frozenset):
        return actions
    listing = set(game.listing(state))
    legal_set = set(actions)
    unlisted = legal_set - listing
    if unlisted:
        text = ctx.text_of(state, next(iter(unlisted)))
        raise Failed(_("legal {text} is not listed", text=repr(text)))
    for action in listing - legal_set:
        reason = game.refusal(state, action)
        if not isinstance(reason, str) or not reason.strip() or "\n" in reason:
            shown = repr(ctx.text_of(state, action))
            raise Failed(_("listed, refused {text}: bad refusal", text=shown))
    return actions


def _acting(to_act: Actor, players: int) -> bool:
    """A player, CHANCE, or a non-empty set of players."""
    if isinstance(to_act, frozenset):
        return bool(to_act) and all(1 <= p <= players for p in to_act)
    return to_act is not None and (to_act == CHANCE or 1 <= to_act <= players)


def _chance(ctx: Context, state: Any, actions: list[Any]) -> None:
    """A chance step: every outcome above 0, summing to 1, exactly the legal actions."""
    outcomes = list(ctx.game.chance_outcomes(state))
    total = sum((p for _o, p in outcomes), Fraction(0))
    exact = all(isinstance(p, (Fraction, int)) for _o, p in outcomes)
    if any(p <= 0 for _o, p in outcomes) or (
        total != 1 if exact else abs(float(total) - 1.0) > 1e-9
    ):
        raise Failed(
            _("chance outcomes must each be above 0 and sum to 1, not {total}", total=str(total))
        )
    if sorted(map(repr, (o for o, _p in outcomes))) != sorted(map(repr, actions)):
        raise Failed(_("at a chance step legal must list exactly the chance outcomes"))


def _simultaneous(ctx: Context, state: Any, acting: frozenset[int], actions: list[Any]) -> None:
    """A simultaneous step: each chooser has choices; legal is every joint action."""
    game = ctx.game
    sizes = [len(game.choices(state, p)) for p in sorted(acting)]
    if not all(sizes):
        raise Failed(_("a player to choose at a simultaneous step has no choices"))
    count = 1
    for size in sizes:
        count *= size
    if len(actions) != count:
        raise Failed(_("at a simultaneous step legal must list every joint action"))


def pure(ctx: Context, state: Any, action: Any, deep: bool) -> Any:
    """``apply(state, action)``, checking both are hashable values and (``deep``) that the
    state's hash and JSON did not change."""
    game = ctx.game
    hashes = []
    unhashable = (
        (_("the state {value} is not hashable: not a value"), state),
        (_("the action {value} is not hashable: not a value"), action),
    )
    for said, value in unhashable:
        try:
            hashes.append(hash(value))
        except TypeError:
            raise Failed(said.format(value=f"{value!r:.60}")) from None
    if isinstance(action, str):
        raise Failed(
            _("action {action} is a string; text belongs in parse/format", action=repr(action))
        )
    before = game.to_json(state) if deep else None
    after = game.apply(state, action)
    if deep and (hash(state) != hashes[0] or game.to_json(state) != before):
        shown = repr(ctx.text_of(state, action))
        raise Failed(_("apply({text}) changed its input state", text=shown))
    return after


def push(match: Match, action: Any) -> None:
    """Enter ``action`` (a joint action: each player's choice in turn) into ``match``."""
    acting = match.game.to_act(match.state)
    if isinstance(acting, frozenset):
        for player, choice in zip(sorted(acting), action, strict=True):
            match.push(choice, player)
    else:
        match.push(action)


def deterministic(ctx: Context, states: list[Any], actions: list[Any]) -> None:
    """The same seed and actions give the same states."""
    game = ctx.game
    again = ctx.config.new(ctx.seed)
    if again != states[0] or game.to_json(again) != game.to_json(states[0]):
        raise Failed(_("new(seed={seed}) gave two different initial states", seed=ctx.seed))
    other = ctx.config.new(ctx.seed + 1)
    if not game.info.hidden_information and game.view(other, None) != game.view(again, None):
        raise Failed(
            _(
                "the start depends on the seed, yet every view shows the whole position: "
                "its randomness is not declared as chance steps (Game.chance_outcomes), so "
                "a player's view can foresee it"
            )
        )

    for number, action in enumerate(actions, start=1):
        again = game.apply(again, action)
        if again != states[number]:
            raise Failed(
                _("replaying the same actions differs after action {number}", number=number)
            )


def record(
    ctx: Context, states: list[Any], actions: list[Any], rng: random.Random, save_load: bool
) -> None:
    """The game's record, from the start and from a position (via to_json/from_json), read
    back (``save_load``: through a real file) and replayed to the same end."""
    game = ctx.game
    start = rng.randrange(len(states)) if len(states) > 1 else 0
    for first in sorted({0, start}):
        position = None if first == 0 else game.to_json(states[first])
        match = Match.of(ctx.config, ctx.seed, position, draw_chance=False)
        for number, action in enumerate(actions[first:], start=first + 1):
            try:
                push(match, action)
            except ActionError:
                raise Failed(
                    _(
                        "from the position after action {first} (via to_json/from_json), "
                        "action {number} {text} is not legal: the position JSON loses something",
                        first=first,
                        number=number,
                        text=repr(ctx.text_of(states[number - 1], action)),
                    )
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
            raise Failed(_("the record read back differs from the one written"))
        where = (
            _("from the start") if first == 0 else _("from the position after {count}", count=first)
        )
        try:
            again = Match.from_record(game, loaded)
        except RecordError as exc:
            raise Failed(
                _(
                    "the record replayed {where} fails: {reason}",
                    where=where,
                    reason=message_of(exc),
                )
            ) from None
        if again.texts != match.texts:
            raise Failed(_("the record replayed {where} gives other action texts", where=where))
        one, two = game.to_json(states[-1]), game.to_json(again.state)
        if one != two:
            at = first_difference(one, two)
            raise Failed(
                _(
                    "the record replayed {where} ends in another position: at {at}, "
                    "{before} -> {after}",
                    where=where,
                    at=at,
                    before=str(pick(one, at)),
                    after=str(pick(two, at)),
                )
            )
        if again.outcome() != match.outcome():
            raise Failed(_("the record replayed {where} has another outcome", where=where))

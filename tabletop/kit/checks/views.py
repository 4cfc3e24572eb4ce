"""The ``views`` check: a view shows nothing hidden from its player, found without help
from the game by swapping two text values of the position JSON (two cards)."""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Iterator
from typing import Any

from tabletop.core.errors import ActionError, PositionError
from tabletop.core.i18n.text import Domain
from tabletop.core.match import Match
from tabletop.game import JSON
from tabletop.kit.checks.context import Context, Failed
from tabletop.kit.jsonpaths import PathT, dotted, first_difference, put

_ = Domain("tabletop")

SWAPS = 6  # value swaps tried per deep position (views)
MIN_SWAPS = 20  # accepted swaps before "nothing is hidden from a seat" is concluded
ANSWERS = 20  # listed texts, and played texts, whose answers are compared (about as many)
Leaf = tuple[PathT, str, int | None]


def views(ctx: Context, state: Any, rng: random.Random) -> None:
    """Swap two text values of the position JSON (two cards); when ``from_json`` takes
    it and the spectator sees no change, a player owning neither place (a key ``"N"``
    of a mapping keyed by player numbers is player N's) must see no change either."""
    game, tally = ctx.game, ctx.tally
    players = range(1, ctx.players + 1)
    for player in [None, *players]:
        json.dumps(game.view(state, player))
    if game.outcome(state) is not None:
        return
    data = game.to_json(state)
    seats: list[int | None] = [None, *players]
    leaves = list(text_leaves(data))
    for number in range(SWAPS):
        pair = swap_pair(leaves, seats[number % len(seats)], rng)
        if pair is None:
            continue
        (path_a, value_a, owner_a), (path_b, value_b, owner_b) = pair
        swapped = copy.deepcopy(data)
        put(swapped, path_a, value_b)
        put(swapped, path_b, value_a)
        try:
            other = ctx.config.from_json(swapped, ctx.seed)
        except PositionError:
            continue
        if game.to_json(other) == data:
            continue  # the game reads both the same way: nothing was swapped
        for seat in seats:
            tally.swaps[seat] = tally.swaps.get(seat, 0) + 1
            if game.view(other, seat) == game.view(state, seat):
                tally.hidden_from[seat] = tally.hidden_from.get(seat, 0) + 1
        if game.view(other, None) != game.view(state, None):
            continue
        where = f"{dotted(path_a)} <-> {dotted(path_b)}"
        for player in players:
            if player in (owner_a, owner_b):
                continue
            ctx.count("views", 1)
            mine, theirs = game.view(state, player), game.view(other, player)
            if mine != theirs:
                raise Failed(
                    _(
                        "player {player} sees a hidden change ({where}): view differs at {at}",
                        player=player,
                        where=where,
                        at=first_difference(mine, theirs),
                    )
                )
            if game.to_act(state) == player == game.to_act(other):
                same_answers(ctx, data, swapped, where, player)


def same_answers(ctx: Context, data: JSON, swapped: JSON, where: str, player: int) -> None:
    """The player to act gets the same listing, prompt and answers in both positions."""
    game = ctx.game
    one = Match.of(ctx.config, ctx.seed, data)
    two = Match.of(ctx.config, ctx.seed, swapped)
    if sorted(one.listing_text()) != sorted(two.listing_text()):
        raise Failed(
            _(
                "player {player}'s listing shows a hidden change ({where})",
                player=player,
                where=where,
            )
        )
    if game.prompt(one.state) != game.prompt(two.state):
        raise Failed(
            _(
                "player {player}'s prompt shows a hidden change ({where})",
                player=player,
                where=where,
            )
        )
    played = sorted(set(ctx.texts))
    listed = one.listing_text()  # both listings are the same texts (checked above)
    texts = dict.fromkeys(
        [*listed[:: max(1, len(listed) // ANSWERS)], *played[:: max(1, len(played) // ANSWERS)]]
    )
    for text in texts:
        if _answer(one, text) != _answer(two, text):
            raise Failed(
                _(
                    "the answer to {text} shows a hidden change ({where})",
                    text=repr(text),
                    where=where,
                )
            )


def hides_something(ctx: Context) -> None:
    """After all games: a game that declares hidden information must hide something
    from every seat (else every view shows every change: the views leak)."""
    if not ctx.game.info.hidden_information:
        return
    for seat, swaps in ctx.tally.swaps.items():
        if swaps >= MIN_SWAPS and not ctx.tally.hidden_from.get(seat):
            who = _("the spectator") if seat is None else _("player {seat}", seat=seat)
            ctx.fail(
                "views",
                _(
                    "the game declares hidden information, but {who} saw every one of "
                    "{count} swaps of two values in the position: nothing is hidden",
                    who=who,
                    count=swaps,
                ),
            )


def _answer(match: Match, text: str) -> str:
    try:
        return "accepted " + repr(match.check(text))
    except ActionError as exc:
        return str(exc)


def text_leaves(data: Any, path: PathT = (), owner: int | None = None) -> Iterator[Leaf]:
    """Every text value with its path and its owner (see the ``views`` check)."""
    if isinstance(data, dict):
        by_player = bool(data) and all(isinstance(k, str) and k.isdigit() for k in data)
        for key, value in data.items():
            who = int(key) if by_player else owner
            yield from text_leaves(value, (*path, key), who)
    elif isinstance(data, list):
        for index, value in enumerate(data):
            yield from text_leaves(value, (*path, index), owner)
    elif isinstance(data, str) and path:
        yield path, data, owner


def swap_pair(leaves: list[Leaf], seat: int | None, rng: random.Random) -> tuple[Leaf, Leaf] | None:
    """Two text values to swap, chosen to probe what ``seat`` may not see: none of the
    seat's own, and mostly one of another player's (a hand, a stand)."""
    mine = [leaf for leaf in leaves if seat is None or leaf[2] != seat]
    theirs = [leaf for leaf in mine if leaf[2] is not None]
    for _attempt in range(10):
        first = rng.choice(theirs) if theirs and rng.random() < 0.7 else rng.choice(mine or [None])
        if first is None:
            return None
        second = rng.choice(mine)
        if first[1] != second[1]:
            return first, second
    return None

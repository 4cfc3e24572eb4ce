"""A card game's position without its whole stock: a case's ``rest_in: stock`` deals the
cards its ``position`` does not place into that list, from the seeded start position.

The cards are the text items of the lists of the start position (``new(players, options,
seed)``'s ``to_json``: hands, piles, stock, melds); the case's position places some of
them; every card of the start not placed (counted with repeats, for two decks) goes to
the end of the list at ``rest_in``: first in the order of the start's own list there
(the seed's stock), then in the order the rest of the start holds them (the cards the
position took out of the seeded hands). The game's ``from_json`` then judges the position.
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Iterator
from typing import Any

from tabletop.core.configured import Configured
from tabletop.core.i18n.text import Domain
from tabletop.game import JSON

_ = Domain("tabletop")


class DealError(ValueError):
    """``rest_in`` names no place a list can go (the message says why)."""


def list_items(data: Any) -> Iterator[str]:
    """Every text item of a list, anywhere in a JSON value, in order (the cards)."""
    if isinstance(data, dict):
        for value in data.values():
            yield from list_items(value)
    elif isinstance(data, list):
        for value in data:
            if isinstance(value, str):
                yield value
            else:
                yield from list_items(value)


def deal_rest(table: Configured[Any, Any], seed: int, data: JSON, rest_in: str) -> JSON:
    """``data`` with the cards of the seeded start it does not place appended to the list
    at the dotted path ``rest_in`` (created when missing)."""
    start = table.game.to_json(table.new(seed))
    missing = Counter(list_items(start))
    missing.subtract(Counter(list_items(data)))
    rest: list[str] = []
    own: Any = start
    for key in rest_in.split("."):
        own = own.get(key) if isinstance(own, dict) else None
    for card in [*list_items({"": own}), *list_items(start)]:
        if missing[card] > 0:
            rest.append(card)
            missing[card] -= 1
    position = copy.deepcopy(data)
    parent: Any = position
    keys = rest_in.split(".")
    for key in keys[:-1]:
        child = parent.get(key) if isinstance(parent, dict) else None
        if child is None and isinstance(parent, dict):
            child = parent[key] = {}
        if not isinstance(child, dict):
            raise DealError(
                _(
                    "rest_in: {path} goes through {key}, which is not a mapping",
                    path=repr(rest_in),
                    key=repr(key),
                )
            )
        parent = child
    if not isinstance(parent, dict):
        raise DealError(_("rest_in: {path} is not a key of the position", path=repr(rest_in)))
    given = parent.get(keys[-1], [])
    if not isinstance(given, list):
        raise DealError(_("rest_in: the position's {path} is not a list", path=repr(rest_in)))
    parent[keys[-1]] = [*given, *rest]
    return position

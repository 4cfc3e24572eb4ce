"""Goofspiel's encoding facet for the research bridges, with OpenSpiel's ids: a bid of
card c is the action id c - 1 (each player's own choice at the simultaneous step), and the
prize card c turned up by chance the chance id c - 1, as in OpenSpiel's ``goofspiel``.

The observation of a view: each player's hand (num_cards bits a player), the prize card
(one-hot), the prizes turned up (bits), then each player's points over the most there are.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from tabletop.game import JSON, options_as
from tabletop_goofspiel.rules import DEAL, GoofspielOptions, State


def _cards(options: BaseModel) -> int:
    return options_as(GoofspielOptions, options).num_cards


def action_ids(players: int, options: BaseModel) -> int:
    return _cards(options)


def action_id(state: State, action: Any) -> int:
    return int(action) - 1  # one player's bid (a choice of the simultaneous step)


def action_of(state: State, action_id: int) -> int:
    if not 0 <= action_id < state.cards:
        raise ValueError(f"no bid has the id {action_id}")
    return action_id + 1


def chance_ids(players: int, options: BaseModel) -> int:
    return _cards(options)


def chance_id(state: State, outcome: Any) -> int:
    return int(outcome) - DEAL - 1


def chance_of(state: State, chance_id: int) -> int:
    if not 0 <= chance_id < state.cards:
        raise ValueError(f"no prize card has the id {chance_id}")
    return DEAL + chance_id + 1


def observation_blocks(players: int, options: BaseModel) -> list[tuple[str, int]]:
    cards = _cards(options)
    return [("hands", players * cards), ("prize", cards), ("prizes", cards), ("points", players)]


def observation_shape(players: int, options: BaseModel) -> tuple[int, ...]:
    return (sum(size for _name, size in observation_blocks(players, options)),)


def observation(view: JSON, player: int, players: int, options: BaseModel) -> list[float]:
    cards = _cards(options)
    out = [0.0] * observation_shape(players, options)[0]
    for seat, hand in enumerate(view["hands"]):
        for card in hand:
            out[seat * cards + card - 1] = 1.0
    at = players * cards
    if view["prize"]:
        out[at + view["prize"] - 1] = 1.0
    for card in view["prizes"]:
        out[at + cards + card - 1] = 1.0
    top = cards * (cards + 1) // 2
    for seat, points in enumerate(view["points"]):
        out[at + 2 * cards + seat] = points / top
    return out


def observer(players: int, options: BaseModel) -> Any:
    """The fast path of :func:`observation`: written from the state itself (the view is
    the whole state: nothing hidden) into a zero-filled buffer; the players of one
    simultaneous step observe one state, written once and then copied."""
    cards = _cards(options)
    at = players * cards
    top = cards * (cards + 1) // 2

    last: list[Any] = [None, None]  # the state observed last, and what was written

    def observe(state: State, player: int, out: Any) -> None:
        if state is last[0]:  # the same for every player (nothing hidden): copied at once
            out[:] = last[1]
            return
        write(state, out)
        last[0], last[1] = state, _copy(out)

    def write(state: State, out: Any) -> None:
        for seat, hand in enumerate(state.hands):
            base = seat * cards - 1
            for card in hand:
                out[base + card] = 1.0
        if state.prize:
            out[at + state.prize - 1] = 1.0
        for card in state.prizes:
            out[at + cards + card - 1] = 1.0
        for seat, points in enumerate(state.points):
            out[at + 2 * cards + seat] = points / top

    return observe


def _copy(out: Any) -> Any:
    """A copy of a written buffer that assigns back into one like it (a memoryview of
    floats, an array, a list or a numpy row)."""
    if isinstance(out, memoryview):
        return memoryview(bytes(out)).cast("f")
    return out.copy() if hasattr(out, "copy") else out[:]

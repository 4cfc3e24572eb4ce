"""Pig's encoding facet for the research bridges, with OpenSpiel's ids: ``roll`` is the
action id 0 and ``hold`` 1; the face f of the die is the chance id f - 1, as in
OpenSpiel's ``pig``.

The observation of a view: each player's score and the turn total over ``winscore``,
whose turn it is (one-hot) and whether the die is rolling.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from tabletop.game import JSON, options_as
from tabletop_pig.rules import CHANCE_BASE, HOLD, ROLL, PigOptions, State


def action_ids(players: int, options: BaseModel) -> int:
    return 2


def action_id(state: State, action: Any) -> int:
    return int(action)  # ROLL 0, HOLD 1


def action_of(state: State, action_id: int) -> int:
    if action_id not in (ROLL, HOLD):
        raise ValueError(f"no action has the id {action_id}")
    return action_id


def chance_ids(players: int, options: BaseModel) -> int:
    return options_as(PigOptions, options).diceoutcomes


def chance_id(state: State, outcome: Any) -> int:
    return int(outcome) - CHANCE_BASE - 1


def chance_of(state: State, chance_id: int) -> int:
    if not 0 <= chance_id < state.faces:
        raise ValueError(f"no face has the id {chance_id}")
    return CHANCE_BASE + chance_id + 1


def observation_blocks(players: int, options: BaseModel) -> list[tuple[str, int]]:
    return [("scores", players), ("turn_total", 1), ("turn", players), ("rolling", 1)]


def observation_shape(players: int, options: BaseModel) -> tuple[int, ...]:
    return (2 * players + 2,)


def observation(view: JSON, player: int, players: int, options: BaseModel) -> list[float]:
    top = float(options_as(PigOptions, options).winscore)
    out = [score / top for score in view["scores"]]
    out.append(view["turn_total"] / top)
    turn = [0.0] * players
    turn[view["turn"] - 1] = 1.0
    return [*out, *turn, 1.0 if view["rolling"] else 0.0]


def observer(players: int, options: BaseModel) -> Any:
    """The fast path of :func:`observation`: written from the state itself (nothing is
    hidden) into a zero-filled buffer."""
    top = float(options_as(PigOptions, options).winscore)

    def observe(state: State, player: int, out: Any) -> None:
        for seat, score in enumerate(state.scores):
            out[seat] = score / top
        out[players] = state.total / top
        out[players + state.turn] = 1.0
        out[2 * players + 1] = 1.0 if state.rolling else 0.0

    return observe

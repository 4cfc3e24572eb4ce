"""Pig's rules as pure functions of a small immutable state (P1-P4, as OpenSpiel's ``pig``).

Actions are ints: ``ROLL`` (0) and ``HOLD`` (1) for the player; a chance outcome, the face
of the die, is the int ``CHANCE_BASE + face`` (OpenSpiel numbers it ``face - 1``).
"""

from __future__ import annotations

from fractions import Fraction
from typing import NamedTuple

from pydantic import BaseModel, ConfigDict, Field

from tabletop.game import CHANCE, Domain, Outcome

_ = Domain("tabletop_pig")

ROLL, HOLD = 0, 1
CHANCE_BASE = 100  # a face f is the action CHANCE_BASE + f: never a player's action id


class PigOptions(BaseModel):
    """OpenSpiel's parameters, by their names (the keys stay; titles and help translated)."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)  # built at first use

    winscore: int = Field(
        default=100,
        ge=1,
        le=1000,
        title=_("points to win"),
        description=_("P3.1 points that win: 1 to 1000"),
    )
    horizon: int = Field(
        default=1000,
        ge=1,
        le=100_000,
        title=_("decision limit"),
        description=_("P3.1 decisions before a draw: 1 to 100000"),
    )
    diceoutcomes: int = Field(
        default=6,
        ge=2,
        le=20,
        title=_("faces of the die"),
        description=_("P2.2 faces of the die: 2 to 20"),
    )


class State(NamedTuple):
    """``rolling``: the die is in the air (a chance step); ``moves``: decisions so far."""

    scores: tuple[int, ...]
    turn: int  # the player whose turn it is, 1..N
    total: int  # the turn total
    rolling: bool
    moves: int
    winscore: int
    horizon: int
    faces: int


def initial(players: int, options: PigOptions) -> State:
    """P1.1: no points, player 1's turn, an empty turn total."""
    return State((0,) * players, 1, 0, False, 0, options.winscore, options.horizon,
                 options.diceoutcomes)


def over(state: State) -> bool:
    """P3.1: a player reached ``winscore``, or ``horizon`` decisions were made."""
    return state.moves >= state.horizon or max(state.scores) >= state.winscore


def to_act(state: State) -> int | None:
    if over(state):
        return None
    return CHANCE if state.rolling else state.turn


def legal(state: State) -> tuple[int, ...]:
    """P2.1, P2.4; at a chance step the faces (P2.2)."""
    if over(state):
        return ()
    if state.rolling:
        return tuple(CHANCE_BASE + face for face in range(1, state.faces + 1))
    if state.scores[state.turn - 1] + state.total >= state.winscore:
        return (HOLD,)
    return (ROLL, HOLD)


def chance_outcomes(state: State) -> list[tuple[int, Fraction]]:
    """P2.2: every face equally likely."""
    each = Fraction(1, state.faces)
    return [(CHANCE_BASE + face, each) for face in range(1, state.faces + 1)]


def _next(state: State) -> int:
    return state.turn % len(state.scores) + 1


def apply(state: State, action: int) -> State:
    if state.rolling:  # P2.2
        face = action - CHANCE_BASE
        if face == 1:
            return state._replace(turn=_next(state), total=0, rolling=False)
        return state._replace(total=state.total + face, rolling=False)
    if action == ROLL:
        return state._replace(rolling=True, moves=state.moves + 1)
    scores = list(state.scores)  # P2.3
    scores[state.turn - 1] += state.total
    return state._replace(scores=tuple(scores), turn=_next(state), total=0, moves=state.moves + 1)


def outcome(state: State) -> Outcome | None:
    if not over(state):
        return None
    for player, score in enumerate(state.scores, start=1):
        if score >= state.winscore:
            reason = _.plural("player {player} reached {n} point (P3.1)",
                              "player {player} reached {n} points (P3.1)", score, player=player)
            return Outcome((player,), reason, "score")
    reason = _.plural("{n} decision was made with no winner (P3.1)",
                      "{n} decisions were made with no winner (P3.1)", state.horizon)
    return Outcome((), reason, "horizon")


def refusal(state: State, action: int) -> str:
    if state.rolling:
        return _("the die is rolling: its face comes by chance (P2.2)")
    if action == ROLL:
        return _("your points and turn total reach {score}: you may only hold (P2.4)",
                 score=state.winscore)
    return _("not an action of Pig (P2.1)")

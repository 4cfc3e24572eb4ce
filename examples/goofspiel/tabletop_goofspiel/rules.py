"""Goofspiel's rules as pure functions of a small immutable state (G1-G3, as OpenSpiel's
``goofspiel`` with ``imp_info=false``).

A bid is the int value of the card (1..N); a joint action is a tuple of bids, one per
player in player order. A prize card turned up by chance is ``DEAL + value``.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Literal, NamedTuple

from pydantic import BaseModel, ConfigDict, Field

from tabletop.game import CHANCE, Domain, Outcome

_ = Domain("tabletop_goofspiel")

DEAL = 100  # a prize card c turned up by chance is DEAL + c: never a bid


class GoofspielOptions(BaseModel):
    """OpenSpiel's parameters, by their names (the keys and values stay; titles, value
    labels and help translated)."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)  # built at first use

    num_cards: int = Field(
        default=13,
        ge=3,
        le=13,
        title=_("cards per hand"),
        description=_("G1.1 cards per hand: 3 to 13"),
    )
    points_order: Literal["random", "descending", "ascending"] = Field(
        default="random",
        title=_("order of the prizes"),
        description=_("G1.2 the order of the prize cards"),
        json_schema_extra={
            "labels": {
                "random": _("random"),
                "descending": _("descending"),
                "ascending": _("ascending"),
            }
        },
    )
    returns_type: Literal["win_loss", "point_difference", "total_points"] = Field(
        default="win_loss",
        title=_("returns"),
        description=_("G3.2 what a learning framework is paid"),
        json_schema_extra={
            "labels": {
                "win_loss": _("win or loss"),
                "point_difference": _("point difference"),
                "total_points": _("total points"),
            }
        },
    )


class State(NamedTuple):
    hands: tuple[frozenset[int], ...]
    points: tuple[int, ...]
    prize: int  # the prize card turned up, 0 while none is
    prizes: tuple[int, ...]  # the prize cards turned up so far, in order
    winners: tuple[int, ...]  # who won each round, 0 for a discarded prize
    cards: int
    order: str


def initial(players: int, options: GoofspielOptions) -> State:
    """G1.1, G1.2: full hands; a fixed order turns its first prize up at once."""
    cards = options.num_cards
    hand = frozenset(range(1, cards + 1))
    state = State((hand,) * players, (0,) * players, 0, (), (), cards, options.points_order)
    return _turn_up(state)


def _turn_up(state: State) -> State:
    """The next prize card of a fixed order (G1.2); a random one waits for chance."""
    left = state.cards - len(state.prizes)
    if not left or state.order == "random":
        return state
    card = left if state.order == "descending" else state.cards - left + 1
    return state._replace(prize=card, prizes=(*state.prizes, card))


def over(state: State) -> bool:
    return len(state.winners) == state.cards


def to_act(state: State) -> int | frozenset[int] | None:
    if over(state):
        return None
    if not state.prize:
        return CHANCE
    return frozenset(range(1, len(state.hands) + 1))


def prizes_left(state: State) -> list[int]:
    return sorted(set(range(1, state.cards + 1)) - set(state.prizes))


def chance_outcomes(state: State) -> list[tuple[int, Fraction]]:
    """G1.2: each prize card left is as likely."""
    left = prizes_left(state)
    return [(DEAL + card, Fraction(1, len(left))) for card in left]


def choices(state: State, player: int) -> tuple[int, ...]:
    if over(state) or not state.prize:
        return ()
    return tuple(sorted(state.hands[player - 1]))


def apply(state: State, action: int | tuple[int, ...]) -> State:
    if isinstance(action, int):  # a prize card turned up by chance
        card = action - DEAL
        state = state._replace(prize=card, prizes=(*state.prizes, card))
    else:
        state = _bids(state, action)
    if len(state.winners) == state.cards - 1:  # G2.3: the last round plays itself
        if not state.prize:
            card = prizes_left(state)[0]
            state = state._replace(prize=card, prizes=(*state.prizes, card))
        state = _bids(state, tuple(min(hand) for hand in state.hands))
    return state


def _bids(state: State, bids: tuple[int, ...]) -> State:
    """G2.2, G2.3: the single highest bid takes the prize; the bids are discarded."""
    top = max(bids)
    points = list(state.points)
    winner = 0
    if bids.count(top) == 1:
        winner = bids.index(top) + 1
        points[winner - 1] += state.prize
    hands = tuple(hand - {bid} for hand, bid in zip(state.hands, bids, strict=True))
    after = state._replace(hands=hands, points=tuple(points), prize=0,
                           winners=(*state.winners, winner))
    return _turn_up(after) if not over(after) else after


def outcome(state: State) -> Outcome | None:
    """G3.1: the most points win; everyone equal is a draw."""
    if not over(state):
        return None
    best = max(state.points)
    winners = tuple(p for p, points in enumerate(state.points, start=1) if points == best)
    if len(winners) == len(state.points):
        reason = _.plural("everyone has {n} point: a draw (G3.1)",
                          "everyone has {n} points: a draw (G3.1)", best)
        return Outcome((), reason, "draw")
    return Outcome(winners, _("the most points, {points} (G3.1)", points=best), "points")


"""Goofspiel as a tabletop :class:`~tabletop.game.Game`: the rules of :mod:`.rules`, with
simultaneous steps (``to_act`` is the set of bidders, ``choices`` each one's hand, ``apply``
takes the bids together) and chance steps (a random prize order's next card)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from pydantic import BaseModel

from tabletop.game import (
    JSON,
    Domain,
    Game,
    GameInfo,
    NotationError,
    PositionError,
    describe,
    joint_actions,
    options_as,
    parse_int,
    whole,
)
from tabletop_goofspiel import rules
from tabletop_goofspiel.rules import DEAL, GoofspielOptions, State

_ = Domain("tabletop_goofspiel")
VERSION = "1.0.0"
Action = int | tuple[int, ...]


class GoofspielGame(Game[State, Action]):
    """Goofspiel (G1-G3): bid your cards, sealed and at once, for prize cards."""

    info = GameInfo(
        id="goofspiel",
        name="Goofspiel",
        version=VERSION,
        min_players=2,
        max_players=4,
        options=GoofspielOptions,
        summary=_("Bid your cards at the same time, sealed, for prize cards; most points win."),
        # a record's entries: per round a prize turned up and one sealed bid per player
        max_actions=lambda players, options: (
            (players + 1) * options_as(GoofspielOptions, options).num_cards
        ),
        points_decide=lambda options: (
            options_as(GoofspielOptions, options).returns_type != "win_loss"
        ),
    )

    def new(self, players: int, options: BaseModel, seed: int) -> State:
        return rules.initial(players, options_as(GoofspielOptions, options))

    to_act = staticmethod(rules.to_act)
    choices = staticmethod(rules.choices)
    apply = staticmethod(rules.apply)
    outcome = staticmethod(rules.outcome)

    def legal(self, state: State) -> Sequence[Action]:
        if rules.over(state):
            return ()
        if not state.prize:
            return [card for card, _p in rules.chance_outcomes(state)]
        return joint_actions(self, state)

    def chance_outcomes(self, state: State) -> Sequence[tuple[Action, Fraction]]:
        return rules.chance_outcomes(state)

    def scores(self, state: State) -> dict[int, int] | None:
        return dict(enumerate(state.points, start=1))


    def refusal(self, state: State, action: Action) -> str:
        if not state.prize:
            return _("the next prize card comes by chance (G1.2)")
        return _("you no longer hold that card (G2.3)")

    def parse(self, state: State, text: str) -> Action:
        words = text.strip().lower().split()
        word = words[0] if len(words) == 2 else ""
        value = parse_int(words[-1], 1, state.cards) if 1 <= len(words) <= 2 else None
        if not state.prize:
            if value is None or word not in ("", "deal"):
                raise NotationError(_("a prize card is 'deal 1' to 'deal {n}'", n=state.cards))
            return DEAL + value
        if value is None or word not in ("", "bid"):
            raise NotationError(_("a bid is 'bid 1' to 'bid {n}'", n=state.cards))
        return value

    def format(self, state: State, action: Action) -> str:
        if isinstance(action, tuple):
            return " & ".join(f"bid {bid}" for bid in action)
        return f"deal {action - DEAL}" if action > DEAL else f"bid {action}"

    def prompt(self, state: State) -> str:
        return _("bid a card for the prize {prize}", prize=state.prize)

    def view(self, state: State, player: int | None) -> JSON:
        return self.to_json(state)  # the bids are sealed by the core, not in the state

    def to_json(self, state: State) -> JSON:
        return {
            "hands": [sorted(hand) for hand in state.hands],
            "points": list(state.points),
            "prize": state.prize,
            "prizes": list(state.prizes),
            "winners": list(state.winners),
        }

    def from_json(self, data: JSON, players: int, options: BaseModel, seed: int) -> State:
        start = rules.initial(players, options_as(GoofspielOptions, options))
        cards, top = start.cards, start.cards * (start.cards + 1) // 2

        def number(value: Any, lo: int, hi: int) -> int:
            checked = whole(value, lo, hi)
            if checked is None:
                raise ValueError(_("{value} is not a whole number {lo}-{hi}",
                                   value=describe(value), lo=lo, hi=hi))
            return checked

        try:
            state = start._replace(
                hands=tuple(frozenset(number(c, 1, cards) for c in hand) for hand in data["hands"]),
                points=tuple(number(p, 0, top) for p in data["points"]),
                prize=number(data["prize"], 0, cards),
                prizes=tuple(number(c, 1, cards) for c in data["prizes"]),
                winners=tuple(number(w, 0, players) for w in data["winners"]),
            )
        except (KeyError, TypeError, ValueError) as exc:
            # a value out of range says so in the reader's language (a message); a missing
            # key or a wrong type, Python's words
            said = exc.args[0] if isinstance(exc, ValueError) and exc.args else str(exc)
            raise PositionError(
                _("a Goofspiel position needs hands, points, prize, prizes and winners "
                  "({problem})", problem=said)
            ) from None
        _check(state, players)
        return state

    def sample(
        self, view: JSON, player: int, players: int, options: BaseModel, rng: random.Random
    ) -> State:
        return self.from_json(view, players, options, 0)


def _check(state: State, players: int) -> None:
    """What cannot arise: hands of other sizes, a prize not turned up, cards out of range."""
    cards = state.cards
    played = len(state.winners)
    if len(state.hands) != players or len(state.points) != players:
        raise PositionError(_.plural("hands and points must fit {n} player",
                                     "hands and points must fit {n} players", players))
    if any(len(hand) != cards - played or not hand <= set(range(1, cards + 1))
           for hand in state.hands):
        raise PositionError(_("every hand holds {n} of the cards 1-{cards}", n=cards - played,
                              cards=cards))
    expected = played + (1 if state.prize else 0)
    if len(state.prizes) != expected or len(set(state.prizes)) != expected:
        raise PositionError(_("the prizes turned up do not match the rounds played"))
    if state.prize and state.prizes[-1] != state.prize:
        raise PositionError(_("the prize is the last card turned up"))
    if any(not 0 <= w <= players for w in state.winners) or min(state.points) < 0:
        raise PositionError(_("winners are players or 0, points are not negative"))



"""Test games of the shapes the core must carry: chance steps and simultaneous steps.

**Coin bids** (B1-B3): B1 each round a coin is tossed by chance (heads with probability
2/3); B2 then every player picks 0 or 1 at once, sealed; B3 each player whose pick says the
coin (1 heads, 0 tails) scores a point. After ``rounds`` rounds the most points win.

**Clairvoyant dice**: a dice game written the wrong way, its die drawn from a seed kept in
the open position, so every view foresees every roll (the kit must say so).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from fractions import Fraction
from typing import Any, NamedTuple

from pydantic import BaseModel, ConfigDict, Field

from tabletop.core.errors import NotationError, PositionError
from tabletop.game import CHANCE, JSON, Actor, Game, GameInfo, Outcome, joint_actions

HEADS, TAILS = 11, 10  # chance outcomes: never a pick


class CoinOptions(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    rounds: int = Field(default=3, ge=1, le=9, description="B3 rounds: 1 to 9")


class Coin(NamedTuple):
    left: int
    coin: int  # HEADS or TAILS once tossed, 0 before
    points: tuple[int, ...]


class CoinBidsGame(Game[Coin, Any]):
    """Coin bids: a chance step and a simultaneous step each round."""

    info = GameInfo("coinbids", "Coin bids", "1.0", 2, 3, CoinOptions, "A test of shapes.")

    def new(self, players: int, options: BaseModel, seed: int) -> Coin:
        assert isinstance(options, CoinOptions)
        return Coin(options.rounds, 0, (0,) * players)

    def to_act(self, state: Coin) -> Actor:
        if not state.left:
            return None
        return CHANCE if not state.coin else frozenset(range(1, len(state.points) + 1))

    def chance_outcomes(self, state: Coin) -> Sequence[tuple[int, Fraction]]:
        return [(HEADS, Fraction(2, 3)), (TAILS, Fraction(1, 3))]

    def choices(self, state: Coin, player: int) -> Sequence[int]:
        return (0, 1) if state.left and state.coin else ()

    def legal(self, state: Coin) -> Sequence[Any]:
        if not state.left:
            return ()
        if not state.coin:
            return (HEADS, TAILS)
        return joint_actions(self, state)

    def apply(self, state: Coin, action: Any) -> Coin:
        if isinstance(action, int):
            return state._replace(coin=action)
        said = 1 if state.coin == HEADS else 0
        points = tuple(p + (pick == said) for p, pick in zip(state.points, action, strict=True))
        return Coin(state.left - 1, 0, points)

    def outcome(self, state: Coin) -> Outcome | None:
        if state.left:
            return None
        best = max(state.points)
        winners = tuple(p for p, n in enumerate(state.points, 1) if n == best)
        if len(winners) == len(state.points):
            return Outcome((), "B3: a draw", "draw")
        return Outcome(winners, "B3: the most points", "points")

    def scores(self, state: Coin) -> dict[int, int] | None:
        return dict(enumerate(state.points, 1))

    def refusal(self, state: Coin, action: Any) -> str:
        return "B2: pick 0 or pick 1"

    def parse(self, state: Coin, text: str) -> Any:
        words = {"heads": HEADS, "tails": TAILS} if not state.coin else {"pick 0": 0, "pick 1": 1}
        if text.strip().lower() not in words:
            raise NotationError("B1/B2: write " + " or ".join(words))
        return words[text.strip().lower()]

    def format(self, state: Coin, action: Any) -> str:
        if isinstance(action, tuple):
            return " & ".join(f"pick {a}" for a in action)
        return {HEADS: "heads", TAILS: "tails"}.get(action, f"pick {action}")

    def view(self, state: Coin, player: int | None) -> JSON:
        return self.to_json(state)

    def to_json(self, state: Coin) -> JSON:
        return {"left": state.left, "coin": state.coin, "points": list(state.points)}

    def from_json(self, data: JSON, players: int, options: BaseModel, seed: int) -> Coin:
        try:
            state = Coin(int(data["left"]), int(data["coin"]), tuple(map(int, data["points"])))
        except (KeyError, TypeError, ValueError):
            raise PositionError("B: left, coin and points") from None
        if len(state.points) != players or state.coin not in (0, HEADS, TAILS):
            raise PositionError("B: one score per player, coin 0, 10 or 11")
        if not 0 <= state.left <= 9 or min(state.points) < 0 or max(state.points) > 9:
            raise PositionError("B: 0-9 rounds left, 0-9 points")
        return state


class Dice(NamedTuple):
    seed: int
    rolls: int
    total: int


class ClairvoyantGame(Game[Dice, int]):
    """Roll five times; 18 or more wins for player 1. The seed sits in the open state."""

    info = GameInfo("clairvoyant", "Clairvoyant dice", "1.0", 2, 2, CoinOptions, "Wrong.")

    def new(self, players: int, options: BaseModel, seed: int) -> Dice:
        return Dice(seed, 0, 0)

    def to_act(self, state: Dice) -> int | None:
        return None if state.rolls == 5 else 1 + state.rolls % 2

    def legal(self, state: Dice) -> Sequence[int]:
        return () if state.rolls == 5 else (0,)

    def apply(self, state: Dice, action: int) -> Dice:
        die = random.Random(f"{state.seed}:{state.rolls}").randint(1, 6)
        return Dice(state.seed, state.rolls + 1, state.total + die)

    def outcome(self, state: Dice) -> Outcome | None:
        if state.rolls < 5:
            return None
        return Outcome((1,) if state.total >= 18 else (2,), "18 or more", "total")

    def refusal(self, state: Dice, action: int) -> str:
        return "only roll"

    def parse(self, state: Dice, text: str) -> int:
        if text != "roll":
            raise NotationError("write roll")
        return 0

    def format(self, state: Dice, action: int) -> str:
        return "roll"

    def view(self, state: Dice, player: int | None) -> JSON:
        return self.to_json(state)

    def to_json(self, state: Dice) -> JSON:
        return dict(state._asdict())

    def from_json(self, data: JSON, players: int, options: BaseModel, seed: int) -> Dice:
        return Dice(int(data["seed"]), int(data["rolls"]), int(data["total"]))

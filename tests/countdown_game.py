"""A tiny test game for ``tabletop compare``: a countdown whose length and winner the
deal decides, so a rule change's effect is known exactly.

- C1 the deal (the game's seed and ``salt``) sets the length, 10 to 20 actions, and the
  winner, and gives the loser 0-2 points; the winner gets 3.
- C2 each action (``a`` or ``b``, alike) counts down by one; the players alternate.
- C3 ``short=true`` ends every game exactly 3 actions (3 turns) sooner, same deal.
- ``salt`` changes the deal but not its odds: a change of ``salt`` is a no-op in law.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, NamedTuple

from pydantic import BaseModel, ConfigDict, Field

from tabletop.core.errors import NotationError, PositionError
from tabletop.game import JSON, Game, GameInfo, Outcome
from tabletop.hookspecs import hookimpl

SHORTER = 3


class CountdownOptions(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    short: bool = Field(default=False, description="C3 every game 3 actions shorter")
    salt: int = Field(default=0, ge=0, le=1000, description="C1 another deal, same odds")


class Count(NamedTuple):
    left: int
    player: int
    winner: int
    loser_points: int


class CountdownGame(Game[Count, str]):
    """Count down to 0 (C2); the deal decided the winner (C1)."""

    info = GameInfo("countdown", "Countdown", "1.0", 2, 2, CountdownOptions, "A test countdown.")

    def new(self, players: int, options: BaseModel, seed: int) -> Count:
        assert isinstance(options, CountdownOptions)
        rng = random.Random(f"countdown:{seed}:{options.salt}")
        length = 10 + rng.randrange(11) - (SHORTER if options.short else 0)
        return Count(length, 1, 1 + rng.randrange(2), rng.randrange(3))

    def to_act(self, state: Count) -> int | None:
        return state.player if state.left else None

    def legal(self, state: Count) -> tuple[str, ...]:
        return ("a", "b") if state.left else ()

    def apply(self, state: Count, action: str) -> Count:
        return state._replace(left=state.left - 1, player=3 - state.player)

    def outcome(self, state: Count) -> Outcome | None:
        if state.left:
            return None
        return Outcome((state.winner,), "C1: the deal's winner", "completed")

    def scores(self, state: Count) -> dict[int, int] | None:
        return {state.winner: 3, 3 - state.winner: state.loser_points}

    def refusal(self, state: Count, action: str) -> str:
        return "C2: the actions are a and b"

    def parse(self, state: Count, text: str) -> str:
        if text not in ("a", "b"):
            raise NotationError("C2: write a or b")
        return text

    def format(self, state: Count, action: str) -> str:
        return action

    def view(self, state: Count, player: int | None) -> JSON:
        return self.to_json(state)  # nothing is hidden: the deal is open

    def to_json(self, state: Count) -> JSON:
        return dict(state._asdict())

    def from_json(self, data: JSON, players: int, options: BaseModel, seed: int) -> Count:
        try:
            return Count(**data)
        except TypeError:
            raise PositionError("a countdown has left, player, winner, loser_points") from None

    def rules_text(self) -> str:
        return __doc__ or ""


class CountdownPlugin:
    """Registers :class:`CountdownGame`."""

    @hookimpl
    def tabletop_register_games(self, register: Callable[[Any], None]) -> None:
        register(CountdownGame())

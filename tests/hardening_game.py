"""A small third-party-like game for the hardening tests: Nim on one heap.

Options as ``docs/plugins.md`` recommends them: ``size: Literal[3, 4]`` (the heap is
``size * 3``) and ``take: int`` within 1..3. Whole numbers are read with
:func:`tabletop.core.numbers.parse_int` and positions are checked strictly, so every refusal
the tests meet comes from the core's readers or from this game's one-line errors.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal, NamedTuple

from pydantic import BaseModel, ConfigDict, Field

from tabletop.core.errors import NotationError, PositionError
from tabletop.core.numbers import parse_int, quote
from tabletop.game import JSON, Game, GameInfo, Outcome
from tabletop.hookspecs import hookimpl


class HeapOptions(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    size: Literal[3, 4] = Field(default=3, description="H1 the heap holds size × 3 counters")
    take: int = Field(default=2, ge=1, le=3, description="H2 at most this many counters a turn")


class Heap(NamedTuple):
    left: int
    player: int
    most: int


class HeapGame(Game[Heap, int]):
    """Take 1..``take`` counters; who takes the last one wins (H3)."""

    info = GameInfo("heap", "Heap", "1.0", 2, 2, HeapOptions, "Nim on one heap.")

    def new(self, players: int, options: BaseModel, seed: int) -> Heap:
        assert isinstance(options, HeapOptions)
        return Heap(options.size * 3, 1, options.take)

    def to_act(self, state: Heap) -> int | None:
        return state.player if state.left else None

    def legal(self, state: Heap) -> tuple[int, ...]:
        return tuple(n for n in range(1, state.most + 1) if n <= state.left)

    def apply(self, state: Heap, action: int) -> Heap:
        return Heap(state.left - action, 3 - state.player, state.most)

    def outcome(self, state: Heap) -> Outcome | None:
        if state.left:
            return None
        return Outcome((3 - state.player,), "H3: took the last counter", "completed")

    def refusal(self, state: Heap, action: int) -> str:
        return f"H2: take 1 to {min(state.most, state.left)} counters"

    def parse(self, state: Heap, text: str) -> int:
        number = parse_int(text.removeprefix("take "), 1, 99)
        if number is None:
            raise NotationError(f"{quote(text)} is not 'take N'")
        return number

    def format(self, state: Heap, action: int) -> str:
        return f"take {action}"

    def view(self, state: Heap, player: int | None) -> JSON:
        return self.to_json(state)

    def to_json(self, state: Heap) -> JSON:
        return {"left": state.left, "player": state.player}

    def from_json(self, data: JSON, players: int, options: BaseModel, seed: int) -> Heap:
        assert isinstance(options, HeapOptions)
        if set(data) != {"left", "player"}:
            raise PositionError("a heap position has exactly the keys left and player")
        left, player = data["left"], data["player"]
        if type(left) is not int or not 0 <= left <= options.size * 3:
            raise PositionError(f"left must be a whole number 0..{options.size * 3}")
        if type(player) is not int or player not in (1, 2):
            raise PositionError("player must be 1 or 2")
        return Heap(left, player, options.take)

    def rules_text(self) -> str:
        return "H1 a heap of size × 3 counters. H2 take 1..take. H3 the last one wins."


class HeapPlugin:
    """Registers :class:`HeapGame`."""

    @hookimpl
    def tabletop_register_games(self, register: Callable[[Any], None]) -> None:
        register(HeapGame())

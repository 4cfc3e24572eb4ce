"""The Quartino game object: the tabletop contract over :mod:`.rules`.

Options (N2.2, N3.2, N4.1, N5.2) are a pydantic model at the edge, turned into the plain
:class:`~.rules.Config` stored in every state.
"""

from __future__ import annotations

import importlib.resources
import random
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from tabletop.game import JSON, AgentFactory, Game, GameInfo, Outcome

from . import rules
from .rules import Action, Config, State

if TYPE_CHECKING:
    from tabletop.agents.base import Level

VERSION = "0.1.0"


class QuartinoOptions(BaseModel):
    """Quartino's variants and the choices the rules leave to the players."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    situations: bool = Field(
        default=True,
        description="N4.1: start-of-turn check for the four-colours and column situations; "
        "false = the learning variant (1 placement a turn, columns stay)",
    )
    mirror: bool = Field(
        default=False,
        description="N3.2: a card also matches turned over (its mirror image)",
    )
    max_turns: int = Field(
        default=400,
        ge=1,
        description="N5.2: the game is a draw when this many turns have ended",
    )
    start: Literal["first", "lot"] = Field(
        default="first",
        description="N2.2: who starts: player 1 (first) or a player drawn by lot from the seed",
    )


def config(options: BaseModel) -> Config:
    """The rules' plain config from the options model."""
    assert isinstance(options, QuartinoOptions)  # the core builds info.options
    return Config(options.situations, options.mirror, options.max_turns)


def max_actions(players: int, options: BaseModel) -> int:
    """A true bound: per turn at most 3 placements and 1 ending action (N4.1, N5.2), plus
    a claim and its placement for each of the at most 4 cards per player (N4.3)."""
    return 4 * config(options).max_turns + 8 * players


class QuartinoGame(Game[State, Action]):
    """Quartino (Petr Doubek): recreate your 4 cards' colour patterns on the wheel."""

    info = GameInfo(
        id="quartino",
        name="Quartino",
        version=VERSION,
        min_players=2,
        max_players=4,
        options=QuartinoOptions,
        summary="Place pawns on a wheel to show the colour patterns of your 4 hidden cards.",
        hidden_information=True,
        max_actions=max_actions,
    )

    def new(self, players: int, options: BaseModel, seed: int) -> State:
        assert isinstance(options, QuartinoOptions)
        return rules.new_state(players, config(options), seed, by_lot=options.start == "lot")

    def to_act(self, state: State) -> int | None:
        return state.to_act or None

    # The hot path: the rules functions themselves, with no wrapper frame.
    legal = staticmethod(rules.legal)
    apply = staticmethod(rules.apply)

    def outcome(self, state: State) -> Outcome | None:
        if state.to_act:
            return None
        if state.winner:
            return Outcome(
                (state.winner,), f"N5.1: player {state.winner} completed their cards", "completed"
            )
        return Outcome(
            (), f"N5.2: a draw, {state.cfg.max_turns} turns ended without a winner", "turn-limit"
        )

    def refusal(self, state: State, action: Action) -> str:
        return rules.refusal(state, action)

    def parse(self, state: State, text: str) -> Action:
        from .notation import parse

        return parse(text)

    def format(self, state: State, action: Action) -> str:
        from .notation import format_action

        return format_action(action)

    def prompt(self, state: State) -> str:
        if not state.to_act:
            return "the game is over"
        if state.owed:
            return f"place a pawn ({state.owed} of {state.batch} owed)"
        return "claim a card or end the turn"

    def view(self, state: State, player: int | None) -> JSON:
        from . import positions  # imported on use: `tabletop games` stays fast

        return positions.view(state, player)

    def to_json(self, state: State) -> JSON:
        from . import positions

        return positions.to_json(state)

    def from_json(self, data: JSON, players: int, options: BaseModel, seed: int) -> State:
        from . import positions

        return positions.from_json(data, players, config(options))

    def render(self, view: JSON, player: int | None) -> Any:
        from .render import render

        return render(view, player)

    def rules_text(self) -> str:
        return (
            importlib.resources.files(__package__ or "tabletop_quartino")
            .joinpath("README.md")
            .read_text("utf-8")
        )

    def hint(self, view: JSON, player: int, options: BaseModel) -> str:
        from .advice import hint  # reads the view only (``mirror`` is in it)

        return hint(view, player)

    def sample(
        self, view: JSON, player: int, players: int, options: BaseModel, rng: random.Random
    ) -> State:
        from . import positions

        return positions.sample(view, player, players, config(options), rng.randrange(2**31))

    def evaluate(self, state: State, player: int) -> float | None:
        from .evaluation import evaluate

        return evaluate(state, player)

    def agents(self) -> Mapping[str, AgentFactory]:
        from .agents import BasicAgent

        return {"basic": BasicAgent}

    def levels(self) -> Mapping[str, Level]:
        from .agents import LEVELS

        return LEVELS

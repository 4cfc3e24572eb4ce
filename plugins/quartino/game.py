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

from tabletop.game import JSON, AgentFactory, Game, GameInfo, Outcome, position_example

from . import rules
from .rules import Action, Config, State

if TYPE_CHECKING:
    from tabletop.players import Level

VERSION = "0.1.0"


MAX_TURNS = 10_000  # N5.2: a bound far above any real game (400 by default)


# What `tabletop rules` says of the position JSON, above an example.
POSITION_KEYS = """\
The keys are those of "Position JSON (N9)" above: `board`, `supply`, `stands`,
`done`, `to_act`, `owed`, and the optional `turns`, `batch`, `check`, `out_of_play`."""


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
        le=MAX_TURNS,
        description=f"N5.2: the game is a draw when this many turns have ended (1-{MAX_TURNS})",
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

    def position_format(self) -> str:
        return POSITION_KEYS + "\n\n" + position_example(self)

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

    # Encodings (tabletop.bridges): 229 action ids, 217 numbers observed (see .encoding).
    def action_ids(self, players: int, options: BaseModel) -> int | None:
        from .encoding import IDS

        return IDS

    def action_id(self, state: State, action: Action) -> int:
        from .encoding import action_id

        return action_id(action)

    def action_of(self, state: State, action_id: int) -> Action:
        from .encoding import action_of

        return action_of(action_id)

    def observation_shape(self, players: int, options: BaseModel) -> tuple[int, ...]:
        from .encoding import SIZE

        return (SIZE,)

    def observation(self, view: JSON, player: int, players: int, options: BaseModel) -> list[float]:
        from .encoding import observation

        return observation(view, player)

    def evaluate(self, state: State, player: int) -> float | None:
        from .evaluation import evaluate

        return evaluate(state, player)

    def agents(self) -> Mapping[str, AgentFactory]:
        from .agents import BasicAgent

        return {"basic": BasicAgent}

    def levels(self) -> Mapping[str, Level]:
        from .agents import LEVELS

        return LEVELS

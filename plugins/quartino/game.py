"""The Quartino game object: the tabletop contract wired to the modules.

The rules are in :mod:`.rules`, with the options (N2.2, N3.2, N4.1, N5.2: a pydantic model
at the edge) and the plain :class:`~tabletop_quartino.rules.Config` stored in every state;
the position JSON and the views in :mod:`.position`, the notation in :mod:`.notation`, the
agents, levels, evaluation and hint in :mod:`.agents` (a package: ``hint``, ``evaluation``,
``search``), the deck in :mod:`.cards`.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from tabletop.game import (
    JSON,
    AgentFactory,
    Domain,
    Game,
    GameInfo,
    IdLister,
    Observer,
    options_as,
    position_example,
    translate,
)
from tabletop_quartino import encoding, rules
from tabletop_quartino.rules import Action, QuartinoOptions, State, config

if TYPE_CHECKING:
    from tabletop.agents.base import Level

VERSION = "0.1.0"
_ = Domain("tabletop_quartino")


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
        summary=_("Place pawns on a wheel to show the colour patterns of your 4 hidden cards."),
        hidden_information=True,
        max_actions=max_actions,
    )

    def new(self, players: int, options: BaseModel, seed: int) -> State:
        by_lot = options_as(QuartinoOptions, options).start == "lot"
        return rules.new_state(players, config(options), seed, by_lot=by_lot)

    def to_act(self, state: State) -> int | None:
        return state.to_act or None

    # The hot path: the rules functions themselves, with no wrapper frame.
    legal = staticmethod(rules.legal)
    apply = staticmethod(rules.apply)

    outcome = staticmethod(rules.outcome)

    def winners(self, state: State) -> tuple[int, ...] | None:
        if state.to_act:  # the outcome's winners without its sentence (N5.1, N5.2)
            return None
        return (state.winner,) if state.winner else ()

    def refusal(self, state: State, action: Action) -> str:
        return rules.refusal(state, action)

    def hides(self, state: State, action: Action) -> bool:
        return rules.hides(state, action)

    def parse(self, state: State, text: str) -> Action:
        from tabletop_quartino.notation import parse

        return parse(text)

    def format(self, state: State, action: Action) -> str:
        from tabletop_quartino.notation import format_action

        return format_action(action)

    prompt = staticmethod(rules.prompt)

    def view(self, state: State, player: int | None) -> JSON:
        from tabletop_quartino import position  # imported on use: `games` stays fast

        return position.view(state, player)

    def to_json(self, state: State) -> JSON:
        from tabletop_quartino import position

        return position.to_json(state)

    def from_json(self, data: JSON, players: int, options: BaseModel, seed: int) -> State:
        from tabletop_quartino import position

        return position.from_json(data, players, config(options))

    def render(self, view: JSON, player: int | None) -> Any:
        from tabletop_quartino.render import render

        return render(view, player)

    def position_format(self) -> str:
        from tabletop_quartino.position import POSITION_KEYS

        return translate(POSITION_KEYS) + "\n\n" + position_example(self)

    def hint(self, view: JSON, player: int, options: BaseModel) -> str:
        from tabletop_quartino.agents.hint import hint  # the view only (``mirror`` is in it)

        return hint(view, player)

    def sample(
        self, view: JSON, player: int, players: int, options: BaseModel, rng: random.Random
    ) -> State:
        from tabletop_quartino import position

        return position.sample(view, player, players, config(options), rng.randrange(2**31))

    # Encodings (tabletop.bridges): 229 action ids, 217 numbers observed (see .encoding),
    # imported with the game: an import inside ``action_id`` cost 4.4 of its 4.7 us, paid
    # for each of the ~50 legal actions of a step (issue 26).
    def action_ids(self, players: int, options: BaseModel) -> int | None:
        return encoding.IDS

    def action_id(self, state: State, action: Action) -> int:
        return encoding.action_id(action)

    def action_of(self, state: State, action_id: int) -> Action:
        return encoding.action_of(action_id)

    def observation_shape(self, players: int, options: BaseModel) -> tuple[int, ...]:
        return (encoding.SIZE,)

    def observation(self, view: JSON, player: int, players: int, options: BaseModel) -> list[float]:
        return encoding.observation(view, player)

    def observer(self, players: int, options: BaseModel) -> Observer:
        return encoding.observer()

    def id_lister(self, players: int, options: BaseModel) -> IdLister:
        return encoding.legal_ids

    def evaluate(self, state: State, player: int) -> float | None:
        from tabletop_quartino.agents.evaluation import evaluate

        return evaluate(state, player)

    def agents(self) -> Mapping[str, AgentFactory]:
        from tabletop_quartino.agents import BasicAgent

        return {"basic": BasicAgent}

    def levels(self) -> Mapping[str, Level]:
        from tabletop_quartino.agents import LEVELS

        return LEVELS

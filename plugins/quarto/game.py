"""Quarto as a tabletop :class:`Game`: the contract wired to the modules.

The rules, the options and their plain config are in :mod:`.rules`, the position JSON in
:mod:`.position`, the notation in :mod:`.notation`, the agents, levels and hint in
:mod:`.agents` (the perfect agent in :mod:`.agents.perfect`), the coach in :mod:`.coach`,
the exact solver in :mod:`.solver` (over :mod:`.search`, :mod:`.kernel`, :mod:`.symmetry`).
"""

from __future__ import annotations

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
    position_example,
    translate,
)
from tabletop_quarto import notation, position, rules
from tabletop_quarto.rules import OVER, QuartoOptions, State

if TYPE_CHECKING:
    from tabletop.agents.base import Level
    from tabletop.coach.base import Coach

VERSION = "1.0.0"
_ = Domain("tabletop_quarto")


class QuartoGame(Game[State, int]):
    """Quarto (Q1-Q8) with the ``squares`` and ``attributes`` variants and both claim modes."""

    info = GameInfo(
        id="quarto",
        name="Quarto",
        version=VERSION,
        min_players=2,
        max_players=2,
        options=QuartoOptions,
        summary=_("Place the piece your opponent picks; four in a line sharing a trait wins."),
        max_actions=lambda players, options: 34,
    )

    def new(self, players: int, options: BaseModel, seed: int) -> State:
        return rules.initial(rules.rules_for(options))

    # The hot path: the rules functions themselves, with no wrapper frame.
    to_act = staticmethod(rules.to_act)
    legal = staticmethod(rules.legal)
    listing = staticmethod(rules.listing)
    apply = staticmethod(rules.apply)

    outcome = staticmethod(rules.outcome)

    refusal = staticmethod(rules.refusal)

    def winners(self, state: State) -> tuple[int, ...] | None:
        if state.phase != OVER:  # the outcome's winners without win_text (Q6.1)
            return None
        return (state.player,) if state.player else ()

    def parse(self, state: State, text: str) -> int:
        return notation.parse(text)

    def format(self, state: State, action: int) -> str:
        return notation.format_action(action)

    prompt = staticmethod(rules.prompt)

    def view(self, state: State, player: int | None) -> JSON:
        return position.to_json(state)  # Q1.3: nothing is hidden in Quarto

    def to_json(self, state: State) -> JSON:
        return position.to_json(state)

    def from_json(self, data: JSON, players: int, options: BaseModel, seed: int) -> State:
        return position.from_json(data, rules.rules_for(options))

    def render(self, view: JSON, player: int | None) -> Any:
        from tabletop_quarto.render import render

        return render(view)

    def position_format(self) -> str:
        return translate(position.POSITION_KEYS) + "\n\n" + position_example(self)

    def hint(self, view: JSON, player: int, options: BaseModel) -> str:
        from tabletop_quarto.agents import hint

        return hint(view, rules.rules_for(options))

    def coach(self, level: str) -> Coach | None:
        """Level 5 (the strongest) is exact where the solver settles (tabletop_quarto.coach);
        the other levels get the generic coach (their search)."""
        if level != "5":
            return None
        from tabletop_quarto.coach import QuartoCoach

        return QuartoCoach()

    def agents(self) -> Mapping[str, AgentFactory]:
        from tabletop_quarto.agents import AGENTS

        return AGENTS

    def levels(self) -> Mapping[str, Level]:
        from tabletop_quarto.agents import LEVELS

        return LEVELS

    # Encodings (tabletop.bridges): the action ints are the ids (see .encoding).
    def action_ids(self, players: int, options: BaseModel) -> int | None:
        from tabletop_quarto.encoding import action_ids

        return action_ids(options)

    def action_id(self, state: State, action: int) -> int:
        return action

    def action_of(self, state: State, action_id: int) -> int:
        return action_id

    def observation_shape(self, players: int, options: BaseModel) -> tuple[int, ...]:
        from tabletop_quarto.encoding import SIZE

        return (SIZE,)

    def observation(self, view: JSON, player: int, players: int, options: BaseModel) -> list[float]:
        from tabletop_quarto.encoding import observation

        return observation(view, player, options)

    def observer(self, players: int, options: BaseModel) -> Observer:
        from tabletop_quarto.encoding import observer

        return observer(options)

    def id_lister(self, players: int, options: BaseModel) -> IdLister:
        return rules.legal  # the action ints are the ids

    def solve(self, state: State, seconds: float | None) -> JSON | None:
        from tabletop_quarto.solver import describe, solve, summary

        solution = solve(state, seconds=seconds)
        return {**describe(solution, state), "summary": summary(solution, state)}

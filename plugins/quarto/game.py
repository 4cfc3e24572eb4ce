"""Quarto as a tabletop :class:`Game`: the rules contract bound to the modules.

The rules, the options and their plain config are in :mod:`.rules`, the position JSON in
:mod:`.position`, the notation in :mod:`.notation`. The facets are found by their module
names (:mod:`tabletop.core.facets`): the agents, levels and solver in :mod:`.agents` (the
perfect agent in :mod:`.agents.perfect`), the coach and the hint in :mod:`.coach`, the
encodings in :mod:`.encoding`, the drawing in :mod:`.render`; the exact solver is
:mod:`.solver` (over :mod:`.search`, :mod:`.kernel`, :mod:`.symmetry`).
"""

from __future__ import annotations

from pydantic import BaseModel

from tabletop.game import JSON, Domain, Game, GameInfo
from tabletop_quarto import notation, position, rules
from tabletop_quarto.rules import OVER, QuartoOptions, State

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
        return rules.initial(rules.config(players, options))

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
        return position.from_json(data, rules.config(players, options))

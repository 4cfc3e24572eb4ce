"""The Quartino game object: the rules contract bound to the modules.

The rules are in :mod:`.rules`, with the options (N2.2, N3.2, N4.1, N5.2: a pydantic model
at the edge) and the plain :class:`~tabletop_quartino.rules.Config` stored in every state;
the position JSON and the views in :mod:`.position`, the notation in :mod:`.notation`, the
deck in :mod:`.cards`. The facets are found by their module names
(:mod:`tabletop.core.facets`): the agents, levels and evaluation in :mod:`.agents` (a
package: ``hint``, ``evaluation``, ``search``), the hint in :mod:`.coach`, the encodings in
:mod:`.encoding`, the drawing in :mod:`.render`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from fractions import Fraction

from pydantic import BaseModel

from tabletop.game import CHANCE, JSON, Domain, Game, GameInfo
from tabletop_quartino import notation, position, rules
from tabletop_quartino.rules import DEAL, Action, QuartinoOptions, State, config

VERSION = "0.1.0"
_ = Domain("tabletop_quartino")


def max_actions(players: int, options: BaseModel) -> int:
    """A true bound: per turn at most 3 placements and 1 ending action (N4.1, N5.2), plus
    a claim and its placement for each of the at most 4 cards per player (N4.3)."""
    return 4 * config(players, options).max_turns + 8 * players


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
        # N2: the deal (and the lot) are chance steps; the match draws them from its seed
        return rules.new_state(players, config(players, options))

    def to_act(self, state: State) -> int | None:
        return state.to_act or None  # CHANCE (-1) during the deal and the lot

    def chance_outcomes(self, state: State) -> Sequence[tuple[Action, Fraction]]:
        return rules.chance_outcomes(state)

    def tells(
        self, state: State, action: Action, actor: int, viewer: int | None, now: State
    ) -> bool | None:
        """A card dealt is told to the player it goes to (N2.1, N7), to the others once the
        game is over (every stand is shown then); the lot is told to all (N2.2)."""
        if actor != CHANCE:
            return None
        if action[0] == DEAL:
            return viewer == rules.dealing(state) or not now.to_act
        return True

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
        return notation.parse(text)

    def format(self, state: State, action: Action) -> str:
        return notation.format_action(action)

    prompt = staticmethod(rules.prompt)

    def view(self, state: State, player: int | None) -> JSON:
        return position.view(state, player)

    def to_json(self, state: State) -> JSON:
        return position.to_json(state)

    def from_json(self, data: JSON, players: int, options: BaseModel, seed: int) -> State:
        return position.from_json(data, players, config(players, options))

    def sample(
        self, view: JSON, player: int, players: int, options: BaseModel, rng: random.Random
    ) -> State:
        cfg = config(players, options)
        return position.sample(view, player, players, cfg, rng.randrange(2**31))

"""Connect Four as a tabletop :class:`~tabletop.game.Game`: the rules contract bound to the
modules.

The rules and the options are in :mod:`.rules`, the position JSON in :mod:`.position`, the
notation in :mod:`.notation`. The facets are found by their module names: the evaluation
and the levels in :mod:`.agents`, the hint in :mod:`.coach`, the encodings in
:mod:`.encoding`, the drawing in :mod:`.render` (``docs/plugins.md``, "Facets").
"""

from __future__ import annotations

from pydantic import BaseModel
from tabletop.game import JSON, Domain, Game, GameInfo, Outcome

from tabletop_connect4 import notation, position, rules
from tabletop_connect4.rules import ConnectFourOptions, State, config

VERSION = "1.0.0"
_ = Domain("tabletop_connect4")  # the catalogue: tabletop_connect4/locale/<lang>/...


def _max_actions(players: int, options: BaseModel) -> int:
    return config(players, options).cells


class ConnectFourGame(Game[State, int]):
    """Connect Four (C1-C6): drop discs, gravity, a line of ``connect`` wins.

    Actions are column numbers from 0; the notation numbers them from 1.
    """

    info = GameInfo(
        id="connect4",
        name="Connect Four",
        version=VERSION,
        min_players=2,
        max_players=2,
        options=ConnectFourOptions,
        summary=_("Drop discs into columns; four in a row, across, up or diagonally, wins."),
        max_actions=_max_actions,
    )

    def new(self, players: int, options: BaseModel, seed: int) -> State:
        return rules.initial(config(players, options))  # no chance in Connect Four

    # The hot path: the board functions themselves, with no wrapper frame.
    to_act = staticmethod(rules.to_act)
    legal = staticmethod(rules.legal)
    apply = staticmethod(rules.apply)

    def outcome(self, state: State) -> Outcome | None:
        return rules.outcome(state)

    def winners(self, state: State) -> tuple[int, ...] | None:
        if state.winner:  # the outcome's winners without its sentence (C3.1, C4.1)
            return (state.winner,)
        return () if state.moves == state.geo.cells else None

    def refusal(self, state: State, action: int) -> str:
        return rules.refusal(state, action)

    def parse(self, state: State, text: str) -> int:
        return notation.parse(text, state.geo.columns)

    def format(self, state: State, action: int) -> str:
        return notation.format_action(action)

    def prompt(self, state: State) -> str:
        return rules.prompt(state)

    def view(self, state: State, player: int | None) -> JSON:
        # Perfect information: everyone sees the position, the line length and any line.
        data = position.to_json(state)
        data["connect"] = state.geo.connect
        data["line"] = position.line_cells(state)
        return data

    def to_json(self, state: State) -> JSON:
        return position.to_json(state)

    def from_json(self, data: JSON, players: int, options: BaseModel, seed: int) -> State:
        return position.from_json(data, config(players, options))

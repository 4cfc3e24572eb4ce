"""Connect Four in the old shape (before issue 34): every facet a method of the Game.

A copy of ``examples/connect4``'s game.py as it was, kept to test that a plugin written
against the old contract still works (DeprecationWarnings aside). Its methods call
Connect Four's own modules (rules, position, notation, agents, encoding, render), so only
the shape of the Game is old; this package has no facet modules of its own.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel
from tabletop_connect4 import notation, position, rules
from tabletop_connect4.rules import ConnectFourOptions, State, config

from tabletop.game import JSON, Domain, Game, GameInfo, IdLister, Observer, Outcome

if TYPE_CHECKING:
    from tabletop.agents.base import Level

VERSION = "1.0.0"
_ = Domain("tabletop_connect4")  # the catalogue: tabletop_connect4/locale/<lang>/...


def _max_actions(players: int, options: BaseModel) -> int:
    return config(2, options).cells


class OldFourGame(Game[State, int]):
    """Connect Four (C1-C6): drop discs, gravity, a line of ``connect`` wins.

    Actions are column numbers from 0; the notation numbers them from 1.
    """

    info = GameInfo(
        id="oldfour",
        name="Old-shape Four",
        version=VERSION,
        min_players=2,
        max_players=2,
        options=ConnectFourOptions,
        summary=_("Drop discs into columns; four in a row, across, up or diagonally, wins."),
        max_actions=_max_actions,
    )

    def new(self, players: int, options: BaseModel, seed: int) -> State:
        return rules.initial(config(2, options))  # no chance in Connect Four

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
        return position.from_json(data, config(2, options))

    def render(self, view: JSON, player: int | None) -> Any:
        from tabletop_connect4.render import render

        return render(view)

    def hint(self, view: JSON, player: int, options: BaseModel) -> str:
        from tabletop_connect4.agents import hint

        return hint(position.from_json(view, config(2, options)), player)

    # Encodings (tabletop.bridges): the column is the action id (see .encoding).
    def action_ids(self, players: int, options: BaseModel) -> int | None:
        return config(2, options).columns

    def action_id(self, state: State, action: int) -> int:
        return action

    def action_of(self, state: State, action_id: int) -> int:
        return action_id

    def observation_shape(self, players: int, options: BaseModel) -> tuple[int, ...]:
        from tabletop_connect4.encoding import size

        return (size(options),)

    def observation(self, view: JSON, player: int, players: int, options: BaseModel) -> list[float]:
        from tabletop_connect4.encoding import observation

        return observation(view, player, players, options)

    def observer(self, players: int, options: BaseModel) -> Observer:
        from tabletop_connect4.encoding import observer

        return observer(players, options)

    def id_lister(self, players: int, options: BaseModel) -> IdLister:
        legal = rules.legal  # the column is the id

        def ids(state: State) -> list[int]:
            return list(legal(state))

        return ids

    def evaluate(self, state: State, player: int) -> float | None:
        from tabletop_connect4.agents import evaluate

        return evaluate(state, player)

    def levels(self) -> Mapping[str, Level]:
        from tabletop_connect4.agents import LEVELS

        return LEVELS

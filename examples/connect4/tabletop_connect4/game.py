"""Connect Four as a tabletop :class:`~tabletop.game.Game`: the contract over ``board``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel
from tabletop.game import JSON, Game, GameInfo, IdLister, Observer, Outcome, options_as

from tabletop_connect4 import board, notation, position
from tabletop_connect4.board import MARKS, Geometry, State
from tabletop_connect4.evaluate import evaluate
from tabletop_connect4.options import ConnectFourOptions

if TYPE_CHECKING:
    from tabletop.agents.base import Level

VERSION = "1.0.0"


def geometry_for(options: BaseModel) -> Geometry:
    """The board of an options model (C6.1)."""
    opts = options_as(ConnectFourOptions, options)
    return board.geometry(opts.columns, opts.rows, opts.connect)


def _max_actions(players: int, options: BaseModel) -> int:
    return geometry_for(options).cells


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
        summary="Drop discs into columns; four in a row, across, up or diagonally, wins.",
        max_actions=_max_actions,
    )

    def new(self, players: int, options: BaseModel, seed: int) -> State:
        return board.initial(geometry_for(options))  # no chance in Connect Four

    # The hot path: the board functions themselves, with no wrapper frame.
    to_act = staticmethod(board.to_act)
    legal = staticmethod(board.legal)
    apply = staticmethod(board.apply)

    def outcome(self, state: State) -> Outcome | None:
        if state.winner:
            cells = position.line_cells(state)
            (c1, r1), (c2, r2) = cells[0], cells[-1]
            return Outcome(
                (state.winner,),
                f"{state.geo.connect} in a row for player {state.winner} "
                f"({MARKS[state.winner]}) from column {c1} row {r1} "
                f"to column {c2} row {r2} (C3.1)",
                "line",
            )
        if state.moves == state.geo.cells:
            return Outcome((), "the board is full and nobody has a line: a draw (C4.1)", "draw")
        return None

    def winners(self, state: State) -> tuple[int, ...] | None:
        if state.winner:  # the outcome's winners without its sentence (C3.1, C4.1)
            return (state.winner,)
        return () if state.moves == state.geo.cells else None

    def refusal(self, state: State, action: int) -> str:
        if board.over(state):
            return "the game is over; no disc may be dropped (C3.1, C4.1)"
        return f"column {action + 1} is full; drop into a column with room (C2.3)"

    def parse(self, state: State, text: str) -> int:
        return notation.parse(text, state.geo.columns)

    def format(self, state: State, action: int) -> str:
        return notation.format_action(action)

    def prompt(self, state: State) -> str:
        player = board.to_act(state)
        if player is None:
            return "game over"
        return f"drop a disc ({MARKS[player]}) into a column 1-{state.geo.columns}"

    def view(self, state: State, player: int | None) -> JSON:
        # Perfect information: everyone sees the position, the line length and any line.
        data = position.to_json(state)
        data["connect"] = state.geo.connect
        data["line"] = position.line_cells(state)
        return data

    def to_json(self, state: State) -> JSON:
        return position.to_json(state)

    def from_json(self, data: JSON, players: int, options: BaseModel, seed: int) -> State:
        return position.from_json(data, geometry_for(options))

    def render(self, view: JSON, player: int | None) -> Any:
        from tabletop_connect4.render import render

        return render(view)

    def hint(self, view: JSON, player: int, options: BaseModel) -> str:
        from tabletop_connect4.advice import hint

        return hint(position.from_json(view, geometry_for(options)), player)

    # Encodings (tabletop.bridges): the column is the action id (see .encoding).
    def action_ids(self, players: int, options: BaseModel) -> int | None:
        return geometry_for(options).columns

    def action_id(self, state: State, action: int) -> int:
        return action

    def action_of(self, state: State, action_id: int) -> int:
        return action_id

    def observation_shape(self, players: int, options: BaseModel) -> tuple[int, ...]:
        from tabletop_connect4.encoding import size

        return (size(options),)

    def observation(self, view: JSON, player: int, players: int, options: BaseModel) -> list[float]:
        from tabletop_connect4.encoding import observation

        return observation(view, player, options)

    def observer(self, players: int, options: BaseModel) -> Observer:
        from tabletop_connect4.encoding import observer

        return observer(options)

    def id_lister(self, players: int, options: BaseModel) -> IdLister:
        legal = board.legal  # the column is the id

        def ids(state: State) -> list[int]:
            return list(legal(state))

        return ids

    def evaluate(self, state: State, player: int) -> float | None:
        return evaluate(state, player)

    def levels(self) -> Mapping[str, Level]:
        from tabletop_connect4.agents import LEVELS

        return LEVELS

"""The rules on bitboards: options, geometry, state, legal drops, gravity and lines (C1-C6).

A board of ``columns`` × ``rows`` cells is an int with ``rows + 1`` bits per column:
cell (column ``c``, row ``r``), both from 0, is bit ``c * (rows + 1) + r``. The extra
top bit of each column is always 0, so shifting a board never carries a line from one
column into the next. Each player's discs are one such int.

:class:`ConnectFourOptions` is the options model (pydantic, at the edge); the plain config
the rules read is its :class:`Geometry` (:func:`config`).
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator
from tabletop.game import Domain, Outcome, options_as

_ = Domain("tabletop_connect4")

MARKS = {1: "X", 2: "O"}


class ConnectFourOptions(BaseModel):
    """Variants combine freely, as long as a line fits on the board (C6.1)."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)  # built at first use

    columns: int = Field(
        default=7, ge=4, le=10, description=_("C6.1 the number of columns (C1.1): 4 to 10")
    )
    rows: int = Field(
        default=6, ge=4, le=10, description=_("C6.1 the number of rows (C1.1): 4 to 10")
    )
    connect: int = Field(
        default=4, ge=3, le=6, description=_("C6.1 how many discs in a line win (C3.1): 3 to 6")
    )

    @field_validator("connect")
    @classmethod
    def _fits(cls, value: int, info: ValidationInfo) -> int:
        longest = max(info.data.get("columns", 7), info.data.get("rows", 6))
        if value > longest:
            raise ValueError(_("a line of {n} does not fit on this board (C6.1)", n=value))
        return value


class Geometry(NamedTuple):
    """Everything precomputed for one board size and line length (one per options)."""

    columns: int
    rows: int
    connect: int
    height: int  # bits per column: rows + 1
    bottom: int  # the bottom cell of every column
    full: int  # every cell of the board
    column_masks: tuple[int, ...]  # the cells of each column
    bottoms: tuple[int, ...]  # the bottom cell of each column
    tops: tuple[int, ...]  # the top cell of each column
    directions: tuple[int, ...]  # bit distances: up, right, up-right, down-right
    windows: tuple[int, ...]  # every line of ``connect`` cells on the board

    @property
    def cells(self) -> int:
        """How many cells the board has (the most actions a game can take)."""
        return self.columns * self.rows

    def bit(self, column: int, row: int) -> int:
        """The bit of a cell (both from 0)."""
        return 1 << (column * self.height + row)

    def cell(self, bit: int) -> tuple[int, int]:
        """(column, row) of a single-bit board, both from 0."""
        index = bit.bit_length() - 1
        return divmod(index, self.height)


@lru_cache(maxsize=64)
def geometry(columns: int, rows: int, connect: int) -> Geometry:
    """The geometry of a board (cached: states of one configuration share it)."""
    height = rows + 1
    column_masks = tuple(((1 << rows) - 1) << (c * height) for c in range(columns))
    bottoms = tuple(1 << (c * height) for c in range(columns))
    tops = tuple(1 << (c * height + rows - 1) for c in range(columns))
    directions = (1, height, height + 1, height - 1)
    steps = ((0, 1), (1, 0), (1, 1), (1, -1))
    windows: list[int] = []
    for dc, dr in steps:
        for c in range(columns):
            for r in range(rows):
                end_c, end_r = c + dc * (connect - 1), r + dr * (connect - 1)
                if 0 <= end_c < columns and 0 <= end_r < rows:
                    window = 0
                    for i in range(connect):
                        window |= 1 << ((c + dc * i) * height + r + dr * i)
                    windows.append(window)
    return Geometry(
        columns,
        rows,
        connect,
        height,
        sum(bottoms),
        sum(column_masks),
        column_masks,
        bottoms,
        tops,
        directions,
        tuple(windows),
    )


def config(players: int, options: BaseModel) -> Geometry:
    """The board of an options model (C6.1): the plain config the rules read (every
    plugin spells it so, docs/plugins.md; two players)."""
    opts = options_as(ConnectFourOptions, options)
    return geometry(opts.columns, opts.rows, opts.connect)


class State(NamedTuple):
    """A position: each player's discs, how many were dropped, the winner (0: none yet)."""

    x: int  # player 1's discs
    o: int  # player 2's discs
    moves: int
    winner: int
    geo: Geometry


def initial(geo: Geometry) -> State:
    """The empty board, player 1 to drop first (C2.1)."""
    return State(0, 0, 0, 0, geo)


def has_line(discs: int, geo: Geometry) -> bool:
    """Whether ``discs`` hold ``connect`` in a line in any direction (C3.1, C3.2)."""
    if geo.connect == 4:  # the usual game: two shifts per direction
        for d in geo.directions:
            pairs = discs & (discs >> d)
            if pairs & (pairs >> (2 * d)):
                return True
        return False
    steps = range(1, geo.connect)
    for d in geo.directions:
        run = discs
        for i in steps:
            run &= discs >> (d * i)
            if not run:
                break
        if run:
            return True
    return False


def over(state: State) -> bool:
    """A line was made (C3.1) or the board is full (C4.1)."""
    return bool(state.winner) or state.moves == state.geo.cells


def to_act(state: State) -> int | None:
    """Player 1 on even move numbers, player 2 on odd ones (C2.1); None when over."""
    if state.winner or state.moves == state.geo.cells:
        return None
    return 1 + (state.moves & 1)


def legal(state: State) -> tuple[int, ...]:
    """The columns (from 0) that are not full (C2.2, C2.3); none once the game is over."""
    geo = state.geo
    if state.winner or state.moves == geo.cells:
        return ()
    occupied = state.x | state.o
    return tuple(c for c, top in enumerate(geo.tops) if not occupied & top)


def landing(state: State, column: int) -> int:
    """The cell a disc dropped into ``column`` falls to (C2.2): adding the column's bottom
    bit to its stack of discs carries up to the first empty cell."""
    geo = state.geo
    return ((state.x | state.o) + geo.bottoms[column]) & geo.column_masks[column]


def apply(state: State, action: int) -> State:
    """Drop the mover's disc into column ``action`` (a legal one: unchecked)."""
    x, o, moves, _, geo = state
    cell = ((x | o) + geo.bottoms[action]) & geo.column_masks[action]
    if moves & 1:
        o |= cell
        return State(x, o, moves + 1, 2 if has_line(o, geo) else 0, geo)
    x |= cell
    return State(x, o, moves + 1, 1 if has_line(x, geo) else 0, geo)


def winning_line(discs: int, geo: Geometry) -> list[tuple[int, int]]:
    """The cells (column, row from 0) of one line of ``discs``, lowest-left first; [] if none."""
    for window in geo.windows:
        if discs & window == window:
            cells = []
            rest = window
            while rest:
                low = rest & -rest
                cells.append(geo.cell(low))
                rest ^= low
            return sorted(cells)
    return []


def threats(mine: int, theirs: int, geo: Geometry) -> int:
    """Empty cells that would complete a line of ``mine`` (whether playable now or not)."""
    occupied = mine | theirs
    need = geo.connect - 1
    found = 0
    for window in geo.windows:
        if not window & theirs and (window & mine).bit_count() == need:
            found |= window & ~occupied
    return found


def playable(state: State) -> int:
    """The cell each non-full column's next disc would land on."""
    geo = state.geo
    return ((state.x | state.o) + geo.bottom) & geo.full


def outcome(state: State) -> Outcome | None:
    """A line wins (C3.1), a full board without one is a draw (C4.1); None while playing.
    The reason names the line's ends as the position shows them (column, row from 1)."""
    if state.winner:
        line = winning_line(state.x if state.winner == 1 else state.o, state.geo)
        (c1, r1), (c2, r2) = [(c + 1, r + 1) for c, r in (line[0], line[-1])]
        reason = _(
            "{connect} in a row for player {player} ({mark}) from column {c1} row {r1} "
            "to column {c2} row {r2} (C3.1)",
            connect=state.geo.connect,
            player=state.winner,
            mark=MARKS[state.winner],
            c1=c1,
            r1=r1,
            c2=c2,
            r2=r2,
        )
        return Outcome((state.winner,), reason, "line")
    if state.moves == state.geo.cells:
        return Outcome((), _("the board is full and nobody has a line: a draw (C4.1)"), "draw")
    return None


def refusal(state: State, action: int) -> str:
    """Why dropping into column ``action`` is not allowed here (C2.3, C3.1, C4.1)."""
    if over(state):
        return _("the game is over; no disc may be dropped (C3.1, C4.1)")
    return _("column {column} is full; drop into a column with room (C2.3)", column=action + 1)


def prompt(state: State) -> str:
    """What the player to act is asked for (C2.1)."""
    player = to_act(state)
    if player is None:
        return _("game over")
    return _(
        "drop a disc ({mark}) into a column 1-{columns}",
        mark=MARKS[player],
        columns=state.geo.columns,
    )

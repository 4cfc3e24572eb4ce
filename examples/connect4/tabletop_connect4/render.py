"""Drawing a Connect Four view with rich: the columns numbered, red and yellow discs."""

from __future__ import annotations

from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text
from tabletop.game import Domain, translate

STYLES = {"X": "bold red", "O": "bold yellow"}
_ = Domain("tabletop_connect4")
NAMES = {"X": _("red"), "O": _("yellow")}
DISC = "●"


def render(view: dict[str, Any], player: int | None = None) -> Any:
    """The board from its rows (top first); the winning line's discs on a white ground."""
    rows: list[str] = view.get("board", [])
    columns = len(rows[0]) if rows else 0
    line = {(c, r) for c, r in view.get("line", [])}
    table = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
    for number in range(1, columns + 1):
        table.add_column(str(number), justify="center", min_width=3)
    for index, row in enumerate(rows):
        r = len(rows) - index
        cells = []
        for c, char in enumerate(row, start=1):
            if char in STYLES:
                style = STYLES[char] + (" on grey93" if (c, r) in line else "")
                cells.append(Text(DISC, style=style))
            else:
                cells.append(Text("·", style="grey50"))
        table.add_row(*cells)
    parts: list[Any] = [table]
    to_act = view.get("to_act")
    if to_act in (1, 2):
        mark = "X" if to_act == 1 else "O"
        said = _(
            "player {player} ({colour} {disc}) to drop; {connect} in a row wins",
            player=to_act,
            colour=NAMES[mark],
            disc=DISC,
            connect=view.get("connect", 4),
        )
        before, _disc, after = translate(said).partition(DISC)  # the disc in its colour
        parts.append(
            Text(before, style="dim")
            + Text(DISC if _disc else "", style=STYLES[mark])
            + Text(after, style="dim")
        )
    return Group(*parts)

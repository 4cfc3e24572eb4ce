"""Drawing a Quarto view with rich: the board with coordinates, the piece in hand, the pool.

Each piece is drawn so the 16 tell apart at a glance: colour (light = yellow, dark =
blue), shape (round ● ○, square ■ □), top (solid ● ■, hollow ○ □) and height (tall
pieces stand two glyphs high). Its code is written under it.
"""

from __future__ import annotations

from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text

from tabletop.game import Domain, translate
from tabletop_quarto.notation import parse_piece
from tabletop_quarto.pieces import FILES, SQUARE_NAMES, piece_words
from tabletop_quarto.position import POSITION_KEYS
from tabletop_quarto.rules import PLACE_BASE, QUARTO, State

LIGHT = "bold yellow1"
DARK = "bold dodger_blue1"
_ = Domain("tabletop_quarto")


def glyph(code: str) -> tuple[str, str]:
    """(glyph, style) of a piece: shape and top give the glyph, colour the style."""
    piece = parse_piece(code)
    square, hollow = piece >> 2 & 1, piece >> 3 & 1
    mark = ("●", "○", "■", "□")[square * 2 + hollow]
    return mark, DARK if piece & 1 else LIGHT


def piece_cell(code: str | None, highlight: bool = False) -> Text:
    """Three lines: the top glyph (tall pieces only), the glyph, the code."""
    if code is None:
        return Text("\n  ·  \n", style="grey50")
    mark, style = glyph(code)
    tall = parse_piece(code) >> 1 & 1
    top = f"  {mark}  " if tall else "     "
    text = Text(top + "\n" + f"  {mark}  " + "\n", style=style)
    text.append(code, style="reverse " + style if highlight else "dim")
    return text


def render(view: dict[str, Any], player: int | None = None) -> Any:
    """The board (rank 4 at the top), the piece in hand and the pool."""
    board = view.get("board", {})
    last = view.get("last_placed")
    table = Table(show_header=True, show_lines=True, header_style="bold", pad_edge=False)
    table.add_column("", justify="right", style="bold")
    for f in FILES:
        table.add_column(f, justify="center", min_width=5)
    for rank in range(4, 0, -1):
        cells = [piece_cell(board.get(f"{f}{rank}"), f"{f}{rank}" == last) for f in FILES]
        table.add_row(Text(f"\n{rank}\n"), *cells)
    parts: list[Any] = [table]
    hand = view.get("in_hand")
    if hand:
        holder = Table.grid(padding=(0, 1))
        holder.add_column(vertical="middle")
        holder.add_column(justify="center")
        holder.add_row(Text(translate(_("in hand:")), style="bold"), piece_cell(hand, True))
        parts.append(holder)
    pool = view.get("pool", [])
    pool_table = Table.grid(padding=(0, 1))
    for _piece in pool:
        pool_table.add_column(justify="center")
    if pool:
        pool_table.add_row(*(piece_cell(code) for code in pool))
        parts.append(Text(translate(_("pool ({n}):", n=len(pool))), style="bold"))
        parts.append(pool_table)
    parts.append(
        Text(translate(_("light")) + " ", style=LIGHT)
        + Text(translate(_("dark")) + " ", style=DARK)
        + Text(
            translate(
                _(
                    " ● round solid  ○ round hollow  ■ square solid  □ square hollow  "
                    "(two glyphs high = tall)"
                )
            ),
            style="dim",
        )
    )
    return Group(*parts)


def position_keys() -> str:
    """What the keys of Quarto's position JSON mean (``tabletop rules``)."""
    return translate(POSITION_KEYS)


def action_text(state: State, action: int) -> str:
    """An action in the reader's words (Q2.3 in notation): "give dark, tall, round,
    hollow" / "dát kámen tmavý, …", "place it on b2"."""
    if action < PLACE_BASE:
        return _("give the piece {piece}", piece=piece_words(action))
    if action < QUARTO:
        return _("place it on {square}", square=SQUARE_NAMES[action - PLACE_BASE])
    return _("claim Quarto") if action == QUARTO else _("nothing to claim")

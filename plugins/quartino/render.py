"""Drawing a Quartino view with rich (imported lazily by the game's ``render``).

The wheel is laid out on a 3×3 grid, ring clockwise from the top::

    r7 r0 r1
    r6  c r2
    r5 r4 r3

Each field shows its top colour as a coloured block, its height and its stack; each of
the player's cards is drawn as the same small wheel with its four colours.
"""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from tabletop.game import CHANCE, JSON, Domain, Msg, translate
from tabletop_quartino.cards import COLOURS, FIELDS, deck
from tabletop_quartino.position import POSITION_KEYS
from tabletop_quartino.rules import CLAIM, DEAL, LOT, PLACE, Action, State, dealing

_ = Domain("tabletop_quartino")

BLOCK = {
    "Y": "black on yellow",
    "B": "white on blue",
    "G": "black on green",
    "P": "black on magenta",
}
INK = {"Y": "bold yellow", "B": "bold blue", "G": "bold green", "P": "bold magenta"}
# Grid cell (row, column) of each field: c in the middle, r0 at the top, clockwise.
CELL = {
    "c": (1, 1),
    "r0": (0, 1),
    "r1": (0, 2),
    "r2": (1, 2),
    "r3": (2, 2),
    "r4": (2, 1),
    "r5": (2, 0),
    "r6": (1, 0),
    "r7": (0, 0),
}


def _grid(cells: dict[str, RenderableType], blank: RenderableType) -> Table:
    table = Table.grid(padding=(0, 1))
    for _ in range(3):
        table.add_column(justify="center")
    rows: list[list[RenderableType]] = [[blank] * 3 for _ in range(3)]
    for name, cell in cells.items():
        r, c = CELL[name]
        rows[r][c] = cell
    for row in rows:
        table.add_row(*row)
    return table


def _field(name: str, stack: list[str]) -> Panel:
    top = stack[-1] if stack else None
    block = Text(f"  {top}  " if top else "  ·  ", style=BLOCK[top] if top else "dim")
    column = Text()
    for i, colour in enumerate(stack):
        if i:
            column.append(" ")
        column.append(colour, style=INK[colour])
    body = Group(block, column if stack else Text(translate(_("empty")), style="dim"))
    return Panel(body, title=f"{name} ({len(stack)})", width=13, padding=(0, 1))


def card_picture(code: str) -> Group:
    """A card as the wheel section it shows: centre + its ring fields at k = 0 (N1.3)."""
    d = deck()
    card = d.index[code]
    cells: dict[str, RenderableType] = {"c": Text(f" {code[0]} ", style=BLOCK[code[0]])}
    for field, colour in zip(d.plain[0], d.ring[card], strict=True):
        letter = COLOURS[colour]
        cells[FIELDS[field]] = Text(f" {letter} ", style=BLOCK[letter])
    return Group(_grid(cells, Text(" · ", style="dim")), Text(code, justify="center"))


def _status(view: JSON, player: int | None) -> Text:
    text = Text("Quartino  ", style="bold")
    if view.get("status") == "over":
        winner = view.get("winner")
        text.append(
            translate(
                _("game over: player {player} wins", player=winner)
                if winner
                else _("game over: a draw (N5.2)")
            )
        )
        return text
    to_act = view.get("to_act")
    if to_act == CHANCE:  # the deal or the lot (N2): a chance step, no one's turn
        text.append(translate(_("the cards are being dealt")))
        return text
    who = _("your turn") if to_act == player else _("player {player} to act", player=to_act)
    owed = int(view.get("owed") or 0)
    what = (
        _("place a pawn ({owed} of {batch} owed)", owed=owed, batch=view.get("batch") or owed)
        if owed
        else _("claim a card or end the turn")
    )
    said = translate(who) + ": " + translate(what)
    text.append(said, style="bold cyan" if to_act == player else "")
    turn = _(
        "turn {turn} (draw after {max_turns})",
        turn=int(view.get("turns") or 0) + 1,
        max_turns=view.get("max_turns"),
    )
    text.append("   " + translate(turn))
    return text


COLOUR_WORDS = {"Y": _("yellow"), "B": _("blue"), "G": _("green"), "P": _("pink")}


def check_words(check: dict[str, Any]) -> str:
    """The start check (N4.1) in the reader's words, from the view's machine fields (its
    ``text`` stays English, for records and scripts); the board's own msgids."""
    parts: list[str] = []
    if not check.get("situations"):
        parts.append(translate(_("no start check (learning variant)")))
    else:
        if check.get("column"):
            said = _("“column”: {fields} emptied", fields=", ".join(check["column"]))
            parts.append(translate(said))
        if check.get("four_colours"):
            names = ", ".join(translate(COLOUR_WORDS.get(c, c)) for c in check["four_colours"])
            parts.append(translate(_("“4 colours” ({colours})", colours=names)))
        if not parts:
            parts.append(translate(_("no situation")))
    if check.get("lapsed"):
        parts.append(translate(_("the supply is empty, placements lapse")))
    else:
        owed = int(check.get("owed") or 0)
        parts.append(translate(_.plural("{n} placement owed", "{n} placements owed", owed)))
    return translate(_("; ")).join(parts)


def render(view: JSON, player: int | None) -> RenderableType:
    """The board, supply, start check, cards and whose turn it is, from ``view`` only."""
    parts: list[RenderableType] = [_status(view, player)]
    check: dict[str, Any] | None = view.get("check")
    if check:
        said = _(
            "start check (player {player}): {text}",
            player=check["player"],
            text=check_words(check),
        )
        parts.append(Text(translate(said)))
    board: dict[str, list[str]] = view.get("board", {})
    fields = {name: _field(name, board.get(name) or []) for name in FIELDS}
    parts.append(_grid(dict(fields), Text("")))
    supply = Text(translate(_("supply:")) + " ")
    for colour, n in view.get("supply", {}).items():
        supply.append(f"{colour}", style=INK.get(colour, ""))
        supply.append(f"×{n}  ")
    parts.append(supply)
    stand: list[str] | None = view.get("stand")
    if stand is not None:
        cards = Table.grid(padding=(0, 3))
        for _card in stand:
            cards.add_column()
        if stand:
            cards.add_row(*(card_picture(code) for code in stand))
        parts.append(
            Panel(
                cards if stand else Text(translate(_("no cards left"))),
                title=translate(_("your stand")),
                expand=False,
            )
        )
    table = Table(title=None, show_edge=False, box=None, padding=(0, 2))
    table.add_column(translate(_("player")))
    table.add_column(translate(_("stand")))
    table.add_column(translate(_("done")))
    stands: dict[str, list[str]] = view.get("stands", {})
    for p, size in view.get("stand_size", {}).items():
        held = (
            ", ".join(stands[p])
            if p in stands
            else translate(_.plural("{n} card", "{n} cards", size))
        )
        table.add_row(p, held, ", ".join(view.get("done", {}).get(p, [])) or "-")
    parts.append(table)
    out = view.get("out_of_play")
    if out is not None:
        parts.append(Text(translate(_("out of play: {cards}", cards=", ".join(out))), style="dim"))
    return Group(*parts)


def position_keys() -> str:
    """What the keys of Quartino's position JSON mean (``tabletop rules``)."""
    return translate(POSITION_KEYS)


def unseen_text(state: State, action: Action) -> str | None:
    """What a viewer not told ``action`` reads instead of its text: a card dealt to another
    player (N2.1, N7) is "player 2 was dealt a card" (a message of this plugin's catalogue,
    a ``str`` the core translates for its reader); None (the generic sentence) else."""
    if action[0] == DEAL and state.to_act == CHANCE:
        return _("player {player} was dealt a card", player=dealing(state))
    return None


# A placement in the reader's words: one sentence per colour, for the languages' cases.
PLACED = (
    _("place yellow on {field}"),
    _("place blue on {field}"),
    _("place green on {field}"),
    _("place pink on {field}"),
)


def card_words(card: int) -> str:
    """A card (N1) as people read it: its centre's colour, then the ring's, "pink |
    yellow blue green" for ``P|YBG``."""
    code = deck().codes[card]
    centre, ring = code.split("|")
    words = [COLOUR_WORDS[c] for c in ring]
    return Msg.joined(" | ", [COLOUR_WORDS[centre], Msg.joined(" ", words)])


def action_text(state: State, action: Action) -> str:
    """An action in the reader's words (N6 in notation): "place green on c" / "položit
    zelenou na c"; a dealt card is named (only its owner is told it, N7)."""
    if action.kind == PLACE:
        return PLACED[action.a].format(field=FIELDS[action.b])
    if action.kind == CLAIM:
        return _("claim the card {card} at {k}", card=card_words(action.a), k=action.b)
    if action.kind == DEAL:
        return _(
            "player {player} was dealt the card {card}",
            player=dealing(state),
            card=card_words(action.a),
        )
    if action.kind == LOT:
        return _("player {player} begins, by lot", player=action.a)
    return _("end the turn")

"""The terminal drawing of a Čtverák view (rich; imported only when something is drawn)."""

from __future__ import annotations

from rich.console import Group
from rich.table import Table
from rich.text import Text

from tabletop.game import JSON

SYMBOL = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RED = {"H", "D"}


def card_text(code: str) -> Text:
    """One card as a small face: rank and suit symbol, red or black; jokers stand out."""
    if code == "X":
        return Text(" ★X ", style="bold magenta on white")
    rank = "10" if code[0] == "T" else code[0]
    style = "bold red on white" if code[1] in RED else "bold black on white"
    return Text(f"{rank:>3}{SYMBOL[code[1]]}", style=style)


def cards_text(codes: list[str], numbered: bool = False) -> Text:
    """Cards side by side (numbered #1.. for quick input)."""
    out = Text()
    for i, code in enumerate(codes, 1):
        if out:
            out.append("  ")
        if numbered:
            out.append(f"#{i} ", style="dim")
        out.append_text(card_text(code))
    return out if codes else Text("—", style="dim")


def meld_text(number: int, codes: list[str]) -> Text:
    """A meld with its number and marks: čtverka clean/dirty (joker čtverka = 2), or open."""
    out = Text(f"{number}: ", style="bold")
    out.append_text(cards_text(codes))
    if len(codes) < 4:
        out.append("  open", style="yellow")
    elif all(c == "X" for c in codes):
        out.append("  joker čtverka ×2", style="bold magenta")
    elif "X" in codes:
        out.append("  dirty čtverka", style="cyan")
    else:
        out.append("  clean čtverka ✓", style="bold green")
    return out


def render(view: JSON, player: int | None) -> Group:
    """Header, stock and piles, every player's melds and hand size, then the own hand."""
    n = int(view["players"])
    parts: list[Text | Table] = []
    head = Text("Čtverák", style="bold")
    if view["to_act"] is None:
        winners = view.get("winners") or []
        result = "draw" if not winners else "won by player " + ", ".join(map(str, winners))
        head.append(f" — game over, {result}")
    else:
        head.append(f" — player {view['to_act']} to act, step: {view['step']}")
        if view["step"] == "meld":
            head.append(" (discard owed)" if view["discard_owed"] else " (no discard owed)")
    if player is not None:
        head.append(f"   you are player {player}", style="dim")
    parts.append(head)
    if view.get("reason"):
        parts.append(Text(view["reason"], style="italic"))

    table = Table.grid(padding=(0, 2))
    table.add_column(style="bold")
    table.add_column()
    stock = Text(f"{view['stock']} cards")
    if view.get("stock_exhausted"):
        stock.append(f"  (ran out; idle turns {view['idle_turns']}/{2 * n})", style="yellow")
    table.add_row("stock", stock)
    for i, pile in enumerate(view["piles"], 1):
        row = cards_text(pile[-3:]) if pile else Text("— (only the base)", style="dim")
        if len(pile) > 3:
            row = Text(f"… {len(pile) - 3} below  ", style="dim").append_text(row)
        table.add_row(f"pile {i}", row)
    parts.append(table)

    melds = Table.grid(padding=(0, 2))
    melds.add_column(style="bold")
    melds.add_column()
    melds.add_column()
    for p in range(1, n + 1):
        key = str(p)
        label = f"P{p}" + (" (you)" if p == player else "")
        info = Text(f"{view['hand_sizes'][key]} in hand, {view['ctverky'][key]} čtverky")
        mine = view["melds"][key]
        lines = Text("\n").join(meld_text(i, m) for i, m in enumerate(mine, 1))
        melds.add_row(label, info, lines if mine else Text("no melds", style="dim"))
    parts.append(melds)

    if view.get("bases"):
        parts.append(Text("bases: ").append_text(cards_text(view["bases"])))
    if view.get("hands") and view["to_act"] is None:
        for p in range(1, n + 1):
            parts.append(Text(f"P{p} held: ").append_text(cards_text(view["hands"][str(p)])))
    if view.get("hand") is not None:
        parts.append(Text("your hand: ", style="bold").append_text(cards_text(view["hand"], True)))
    if view["allows"]:
        parts.append(Text("allows: " + ", ".join(view["allows"]), style="dim"))
    return Group(*parts)

"""The terminal drawing of a Čtverák view (rich; imported only when something is drawn)."""

from __future__ import annotations

from rich.console import Group
from rich.table import Table
from rich.text import Text

from tabletop.game import JSON, Domain, Msg, translate
from tabletop_ctverak.cards import JOKER, RANKS, SUITS
from tabletop_ctverak.position import POSITION_KEYS
from tabletop_ctverak.rules import (
    ADD,
    DEAL_CARD,
    DISCARD,
    DRAW,
    MELD,
    STOCK,
    TAKE,
    Action,
    State,
    deal_target,
    dealt,
)

_ = Domain("tabletop_ctverak")

SYMBOL = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RED = {"H", "D"}
# The turn's steps (the view's machine words) as a person reads them.
STEPS = {
    "refill": _("refill"),
    "meld": _("meld"),
    "over": _("over"),
    "deal": _("deal"),
    "draw": _("drawing from the stock"),
}


def unseen_text(state: State, action: Action) -> str | None:
    """What a viewer not told a chance outcome reads instead of its text (issue 35): the
    card dealt or drawn is named to its owner only (K8); None for any other action."""
    kind = action[0]
    if kind == TAKE:
        return _("player {player} drew a card from the stock", player=state.player)
    if kind != DEAL_CARD:
        return None
    target = deal_target(state.cfg.players, dealt(state), state.cfg.hand)
    if target:
        return _("player {player} was dealt a card", player=target)
    return _("a base was dealt face down to pile {pile} (K2.2)", pile=len(state.bases) + 1)


def card_words(card: int) -> str:
    """A card as people read it (K1.2): ``7♥``, ``10♠``, the joker by its name."""
    if card == JOKER:
        return _("joker")
    rank = RANKS[card >> 2]
    return ("10" if rank == "T" else rank) + SYMBOL[SUITS[card & 3]]


def cards_words(cards: tuple[int, ...]) -> str:
    return Msg.joined(" ", [card_words(c) for c in cards])


def action_text(state: State, action: Action) -> str:
    """An action in the reader's words (K7 in notation): "meld 7♠ 7♥" / "vyložit 7♠ 7♥";
    a dealt or drawn card is named (only its owner is told it, K8)."""
    kind = action[0]
    if kind == DRAW:
        if action[1] == STOCK:
            return _("draw from the stock")
        return _("take the top card of pile {pile}", pile=action[1])
    if kind == MELD:
        return _("meld {cards}", cards=cards_words(action[1:]))
    if kind == ADD:
        return _("add {cards} to meld {meld}", cards=cards_words(action[2:]), meld=action[1])
    if kind == DISCARD:
        return _("discard {card} onto pile {pile}", card=card_words(action[1]), pile=action[2])
    if kind == TAKE:
        return _("the stock gave {card}", card=card_words(action[1]))
    if kind == DEAL_CARD:
        target = deal_target(state.cfg.players, dealt(state))
        if target:
            return _("player {player} was dealt {card}", player=target, card=card_words(action[1]))
        pile = len(state.bases) + 1
        return _(
            "{card} was dealt face down as the base of pile {pile}",
            card=card_words(action[1]),
            pile=pile,
        )
    return _("end the turn")


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
        out.append("  " + translate(_("open")), style="yellow")
    elif all(c == "X" for c in codes):
        out.append("  " + translate(_("joker čtverka ×2")), style="bold magenta")
    elif "X" in codes:
        out.append("  " + translate(_("dirty čtverka")), style="cyan")
    else:
        out.append("  " + translate(_("clean čtverka ✓")), style="bold green")
    return out


def render(view: JSON, player: int | None) -> Group:
    """Header, stock and piles, every player's melds and hand size, then the own hand."""
    n = int(view["players"])
    parts: list[Text | Table] = []
    head = Text("Čtverák", style="bold")
    if view["to_act"] is None:
        winners = view.get("winners") or []
        result = (
            _("game over, draw")
            if not winners
            else _("game over, won by player {players}", players=", ".join(map(str, winners)))
        )
        head.append(" — " + translate(result))
    else:
        step = STEPS.get(view["step"], view["step"])
        said = _("player {player} to act, step: {step}", player=view["to_act"], step=step)
        head.append(" — " + translate(said))
        if view["step"] == "meld":
            owed = _("(discard owed)") if view["discard_owed"] else _("(no discard owed)")
            head.append(" " + translate(owed))
    if player is not None:
        head.append("   " + translate(_("you are player {player}", player=player)), style="dim")
    parts.append(head)
    if view.get("reason"):
        parts.append(Text(translate(view["reason"]), style="italic"))

    table = Table.grid(padding=(0, 2))
    table.add_column(style="bold")
    table.add_column()
    # English keeps its one form ("1 cards" as before); the catalogues have every form
    stock = Text(translate(_.plural("{n} cards", "{n} cards", int(view["stock"]))))
    if view.get("stock_exhausted"):
        idle = _("(ran out; idle turns {idle}/{limit})", idle=view["idle_turns"], limit=2 * n)
        stock.append("  " + translate(idle), style="yellow")
    table.add_row(translate(_("stock")), stock)
    for i, pile in enumerate(view["piles"], 1):
        row = (
            cards_text(pile[-3:]) if pile else Text(translate(_("— (only the base)")), style="dim")
        )
        if len(pile) > 3:
            below = _("… {n} below", n=len(pile) - 3)
            row = Text(translate(below) + "  ", style="dim").append_text(row)
        table.add_row(translate(_("pile {number}", number=i)), row)
    parts.append(table)

    melds = Table.grid(padding=(0, 2))
    melds.add_column(style="bold")
    melds.add_column()
    melds.add_column()
    for p in range(1, n + 1):
        key = str(p)
        label = f"P{p}" + (" " + translate(_("(you)")) if p == player else "")
        info = Text(
            translate(
                _.plural(
                    "{hand} in hand, {n} čtverky",
                    "{hand} in hand, {n} čtverky",
                    int(view["ctverky"][key]),
                    hand=view["hand_sizes"][key],
                )
            )
        )
        mine = view["melds"][key]
        lines = Text("\n").join(meld_text(i, m) for i, m in enumerate(mine, 1))
        melds.add_row(label, info, lines if mine else Text(translate(_("no melds")), style="dim"))
    parts.append(melds)

    if view.get("bases"):
        parts.append(Text(translate(_("bases:")) + " ").append_text(cards_text(view["bases"])))
    if view.get("hands") and view["to_act"] is None:
        for p in range(1, n + 1):
            held = translate(_("P{player} held:", player=p)) + " "
            parts.append(Text(held).append_text(cards_text(view["hands"][str(p)])))
    if view.get("hand") is not None:
        mine_text = Text(translate(_("your hand:")) + " ", style="bold")
        parts.append(mine_text.append_text(cards_text(view["hand"], True)))
    if view["allows"]:
        allows = _("allows: {rules}", rules=", ".join(map(shown_rule, view["allows"])))
        parts.append(Text(translate(allows), style="dim"))
    return Group(*parts)


# The placeholders of the view's ``allows`` (machine words there), as the reader reads them.
PLACEHOLDERS = {
    "<cards>": _("<cards>"),
    "<meld>": _("<meld>"),
    "<card>": _("<card>"),
    "<pile>": _("<pile>"),
}


def shown_rule(rule: str) -> str:
    """An entry of the view's ``allows`` (``discard <card> <pile>``) with its placeholders
    in the reader's language (``discard <karta> <hromádka>``); the notation stays."""
    return " ".join(translate(PLACEHOLDERS[w]) if w in PLACEHOLDERS else w for w in rule.split())


def position_keys() -> str:
    """What the keys of Čtverák's position JSON mean (``tabletop rules``)."""
    return translate(POSITION_KEYS)

"""Reading a player's view: which cards match where, how close they are, and the hint text.

Everything here works from the view JSON only (N7), so agents and hints see no more than
the player does.
"""

from __future__ import annotations

from collections.abc import Container, Sequence
from typing import Any, NamedTuple

from tabletop.game import JSON, Domain, Msg
from tabletop_quartino.agents.evaluation import needs
from tabletop_quartino.cards import COLOURS, FIELDS, deck
from tabletop_quartino.rules import owed_text

_ = Domain("tabletop_quartino")


class Fit(NamedTuple):
    """How well a card fits the board at its best rotation."""

    hits: int  # fields of the card (of 4) showing the right top colour
    k: int
    missing: tuple[tuple[int, int], ...]  # (field, colour) still wrong at that rotation


def view_tops(view: JSON) -> list[int]:
    """The top colour of every field (-1 for an empty field), from the view's board."""
    board: dict[str, Any] = view.get("board", {})
    tops = []
    for name in FIELDS:
        stack = board.get(name) or []
        tops.append(COLOURS.index(stack[-1]) if stack else -1)
    return tops


def rotations(tops: Sequence[int], card: int, mirror: bool) -> list[int]:
    """The rotations k at which ``card`` matches the tops (N3.2)."""
    matching = (k for k, need in needs(card, mirror) if all(tops[f] == c for f, c in need))
    return list(dict.fromkeys(matching))


def best_fit(
    tops: Sequence[int], card: int, mirror: bool, allowed: Container[int] = range(8)
) -> Fit:
    """The rotation (of ``allowed``) where most of ``card``'s fields already show the
    right colour."""
    best = Fit(-1, 0, ())
    for k, need in needs(card, mirror):
        if k not in allowed:
            continue
        missing = tuple((f, c) for f, c in need if tops[f] != c)
        count = 4 - len(missing)
        if count > best.hits:
            best = Fit(count, k, missing)
    return best


def hint(view: JSON, player: int, allowed: Container[int] = range(8)) -> str:
    """Which of the player's cards match now and at which k (of the rotations a claim may
    name, ``allowed``: fewer on a research variant's smaller ring, N3.2); never claims
    for them."""
    stand: list[str] | None = view.get("stand")
    if view.get("status") == "over":
        return _("the game is over")
    if stand is None:
        return _("no hints: a spectator sees no cards")
    if not stand:
        return _("you hold no card")
    d = deck()
    tops = view_tops(view)
    mirror = bool(view.get("mirror"))
    lines = []
    for code in stand:
        ks = [k for k in rotations(tops, d.index[code], mirror) if k in allowed]
        if ks:
            where = ", ".join(f"k={k}" for k in ks)
            lines.append(
                _("{code} matches at {where}: claim {code} {k}", code=code, where=where, k=ks[0])
            )
    if lines:
        owed = int(view.get("owed") or 0)
        if view.get("to_act") != player:
            lines.append(_("(claim on your turn, after your placements; the board may change)"))
        elif owed:
            lines.append(
                _("(first place the {owed} owed; they may change the board)", owed=owed_text(owed))
            )
        return Msg.joined("\n", lines)
    fits = sorted(
        ((best_fit(tops, d.index[code], mirror, allowed), code) for code in stand),
        key=lambda fc: -fc[0].hits,
    )
    fit, code = fits[0]
    if not fit.hits:
        return _("no card matches now; the board shows none of your cards' colours in place")
    wanted = Msg.joined(
        ", ", [_("{colour} on {field}", colour=COLOURS[c], field=FIELDS[f]) for f, c in fit.missing]
    )
    return _(
        "no card matches now; closest: {code}, {hits} of 4 at k={k} (needs {needs})",
        code=code,
        hits=fit.hits,
        k=fit.k,
        needs=wanted,
    )

"""Games ended at the table rather than by the rules' actions: a player ran out of time,
resigned, or every person agreed to a draw (:class:`~tabletop.core.records.Forfeit`).

Such an end is the table's, never the game's: the rules module is not asked, the record
keeps it beside the actions, and a replay of the record ends the same way.
"""

from __future__ import annotations

from typing import Any

from tabletop.core.i18n.text import Domain
from tabletop.core.records import Forfeit
from tabletop.game import Game, Outcome

_ = Domain("tabletop")
NO_DRAWS = _("this game has no draws; play on, or resign")


def ended(forfeit: Forfeit, players: int) -> Outcome:
    """The outcome of ``forfeit``: the others win a loss on time or a resignation (kinds
    "time" and "resigned"); an agreed draw has no winners (kind "agreed-draw")."""
    who = forfeit.player
    others = tuple(p for p in range(1, players + 1) if p != who)
    if forfeit.reason == "resigned":
        return Outcome(others, _("player {who} resigned", who=who), "resigned")
    if forfeit.reason == "agreed-draw":
        return Outcome((), _("the players agreed to a draw"), "agreed-draw")
    return Outcome(others, _("player {who} ran out of time on the move clock", who=who), "time")


def draws(game: Game[Any, Any]) -> bool:
    """Whether ``game`` lets the players agree to a draw (:attr:`Game.draws`)."""
    return bool(getattr(game, "draws", True))

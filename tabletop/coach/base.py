"""The coach's vocabulary: what it answers about a turn (:class:`Assessment`) and what a
coach is (:class:`Coach`), as a game's coach facet returns it (:mod:`tabletop.coach.facet`).

A coach judges every legal action of a turn from the :class:`~tabletop.agents.base.Turn`
an agent would get: the acting player's view, never the true state. A leaf module like
:mod:`tabletop.agents.base`: nothing from ``tabletop`` is imported at run time.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from tabletop.agents.base import Turn

WIN, DRAW, LOSS = "win", "draw", "loss"


@dataclass(frozen=True)
class Judgement:
    """One legal action as the coach sees it, for the player to act.

    ``chance`` is the player's chance to win after it, 0 to 1: an estimate, or, when
    ``exact``, the game-theoretic value (1 a win, 1/N a draw among N, 0 a loss, named in
    ``value``); ``moves`` is then how long the game lasts with best play, in the game's
    own unit (Quarto: placements), when known. ``visits`` says how much the estimate
    rests on (playouts or samples), ``margin`` its 95% margin when the coach measured
    one (else a hint assumes won-or-lost playouts); ``why`` is a sentence of why, where
    the game can say it; ``text`` is the action in notation, ``said`` in the reader's
    words where known (the game's ``action_text``; hints and reviews show it).
    """

    action: Any
    text: str
    chance: float
    exact: bool = False
    value: str | None = None
    moves: int | None = None
    visits: int = 0
    why: str = ""
    margin: float | None = None
    said: str = ""


@dataclass(frozen=True)
class Assessment:
    """Every legal action of a turn, judged and ranked best first, and how."""

    player: int
    judgements: tuple[Judgement, ...]
    method: str  # how the values were found, for people ("the exact solver", "MCTS ...")

    @property
    def best(self) -> Judgement:
        return self.judgements[0]

    @property
    def exact(self) -> bool:
        """Every action's value is exact."""
        return all(j.exact for j in self.judgements)

    def of(self, action: Any) -> Judgement:
        """The judgement of ``action`` (one of the turn's legal actions)."""
        for judgement in self.judgements:
            if judgement.action == action:
                return judgement
        raise KeyError(action)

    def rank(self, action: Any) -> int:
        """``action``'s place in the ranking, 0 for the best."""
        return [j.action for j in self.judgements].index(action)


class Coach(Protocol):
    """Judges every legal action of ``turn`` from ``turn.view`` alone (the same turn, and
    the generator in the same state, give the same assessment)."""

    def assess(self, turn: Turn) -> Assessment: ...


def ranked(judgements: Sequence[Judgement]) -> tuple[Judgement, ...]:
    """``judgements`` best first: the higher chance; among exact equal values a win in
    fewer moves, a loss in more (resisting longest), else the order given."""

    def key(item: tuple[int, Judgement]) -> tuple[float, float, int]:
        index, j = item
        moves = 0.0 if j.moves is None else float(j.moves)
        hurry = -moves if j.value == WIN else moves if j.value == LOSS else 0.0
        return (-j.chance, -hurry, index)

    return tuple(j for _, j in sorted(enumerate(judgements), key=key))

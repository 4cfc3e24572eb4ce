"""Quartino's own agents. They read ``turn.view``, ``turn.legal`` and ``turn.rng`` only."""

from __future__ import annotations

from typing import Any

from tabletop.players import Turn

from .advice import best_fit, rotations, view_tops
from .cards import deck
from .rules import CLAIM, END, PLACE, Action, State


class BasicAgent:
    """Claims whenever one of its cards matches (never falsely); otherwise places the pawn
    that brings its cards closest to matching (each card scored by how many of its 4 fields
    show the right top colour at its best rotation, 4**count summed over the cards), ties
    broken by the rng; ends the turn when nothing better is left."""

    def act(self, turn: Turn) -> Any:
        legal: list[Action] = [a for a in turn.legal if isinstance(a, Action)]
        view = turn.view
        d = deck()
        stand = [d.index[code] for code in view.get("stand", [])]
        mirror = bool(view.get("mirror"))
        tops = view_tops(view)
        places = [a for a in legal if a.kind == PLACE]
        if places:
            return self._best_place(places, tops, stand, mirror, turn)
        offered = {(a.a, a.b) for a in legal if a.kind == CLAIM}
        for card in stand:
            for k in rotations(tops, card, mirror):
                if (card, k) in offered:
                    return next(a for a in legal if a.kind == CLAIM and (a.a, a.b) == (card, k))
        ends = [a for a in legal if a.kind == END]
        return ends[0] if ends else turn.legal[turn.rng.randrange(len(turn.legal))]

    @staticmethod
    def _best_place(
        places: list[Action], tops: list[int], stand: list[int], mirror: bool, turn: Turn
    ) -> Action:
        best: list[Action] = []
        best_score = -1
        for a in places:
            new = list(tops)
            new[a.b] = a.a
            score = sum(4 ** best_fit(new, card, mirror).hits for card in stand)
            if score > best_score:
                best, best_score = [a], score
            elif score == best_score:
                best.append(a)
        return best[turn.rng.randrange(len(best))]


def progress(state: State, player: int) -> float:
    """How far ``player`` is, 0…1: done cards count 1, a card on the stand up to 1/2
    ((hits/4)² at its best rotation, N3.2), over all the player's cards."""
    done, stand = state.done[player - 1], state.stands[player - 1]
    if not done and not stand:
        return 0.0
    tops = [stack[-1] if stack else -1 for stack in state.board]
    near = sum((best_fit(tops, card, state.cfg.mirror).hits / 4) ** 2 for card in stand)
    return (len(done) + near / 2) / (len(done) + len(stand))


def evaluate(state: State, player: int) -> float:
    """0 (lost) … 1 (won): 1/2 plus half the lead of ``player``'s progress over the best
    other player's (a draw is 1/2)."""
    if not state.to_act:
        return 0.5 if not state.winner else float(state.winner == player)
    others = [progress(state, p) for p in range(1, len(state.stands) + 1) if p != player]
    return 0.5 + (progress(state, player) - max(others, default=0.0)) / 2

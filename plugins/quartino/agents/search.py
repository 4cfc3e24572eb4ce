"""Quartino's own tree search: a turn planner over the choices that matter (levels 3-5).

It is the core's search (:mod:`tabletop.agents.search`) with its own playouts
(:class:`TurnPlayouts`). With the default ones the search spends most playouts on false
claims (a false claim passes the turn exactly like ``end``, N4.4) and on random playouts
that never finish a card. These differ:

- **Moves** (:func:`moves`): while placements are owed, the pawns the mover's cards still
  need at their best readings (``slack`` pawns worse than the best still count; all
  placements when the supply has none of those colours, N4.2); otherwise the true claims
  (N4.3), and ``end`` only when no card matches. A false claim is never better than
  ``end``, and a true claim is never worse than ending.
- **Tree**: the player's own turn only (``horizon`` turns: placements, claims, the chain
  after each claim). A playout finishes the turn with :func:`policy`, then scores.
  Playing the next players' turns out with sampled cards was tried and lost to this
  (their sampled cards add more noise than the look-ahead adds knowledge).
- **Scores** (:func:`scores`): each player's progress (:mod:`.evaluation`); the
  searching player's own from their cards, every other's from the mean of the cards the
  searcher has not seen (N7), with the placements the player to act is owed (so leaving
  the next player a column or four colours, N4.1, costs what it gives them). A player's
  reward is either their lead over the best other (clipped) or, with ``sharpness``, their
  share of a softmax over everyone's progress, which weighs every rival, not only the
  leader, and never saturates.
- **Determinisations** come from ``game.sample`` (the other stands drawn from the unseen
  cards), one per playout, sharing one tree (single-observer ISMCTS, availability counts).

The budget is counted in playouts (``turn.budget.iterations``), so the same seed gives
the same move; ``turn.budget.seconds`` only caps it.
"""

from __future__ import annotations

import math
import random
from typing import Any

from tabletop.agents.base import Turn
from tabletop.agents.search import SearchAgent
from tabletop_quartino.agents.evaluation import VALUE, expected_progress, needs, progress, tops_of
from tabletop_quartino.cards import deck
from tabletop_quartino.position import unseen_cards
from tabletop_quartino.rules import END_TURN, Action, State, apply, claim, legal, place


def true_claims(state: State) -> list[Action]:
    """The claims of the player to act that match now (N3.2), one per card (lowest k)."""
    tops = tops_of(state)
    mirror, ring = state.cfg.mirror, state.cfg.ring
    centre = deck().centre
    found = []
    for card in state.stands[state.to_act - 1]:
        if centre[card] != tops[0]:
            continue
        for k, need in needs(card, mirror, ring):
            if all(tops[f] == c for f, c in need):
                found.append(claim(card, k))
                break
    return found


def moves(state: State, slack: int = 1) -> tuple[Action, ...]:
    """The actions worth searching: placements while owed; else true claims, or ``end``."""
    if not state.to_act:
        return ()
    if state.owed:
        return placements(state, slack)
    claims = true_claims(state)
    return tuple(claims) if claims else (END_TURN,)


def placements(state: State, slack: int = 1) -> tuple[Action, ...]:
    """Placements towards the mover's cards: every pawn some reading of a card still needs,
    among the readings at most ``slack`` pawns worse than the best one (N3.2); all legal
    placements when none of those colours is in the supply (N4.2)."""
    tops = tops_of(state)
    supply = state.supply
    mirror, ring = state.cfg.mirror, state.cfg.ring
    lists: list[tuple[int, list[tuple[int, int]]]] = []
    least = 4
    for card in state.stands[state.to_act - 1]:
        for _, need in needs(card, mirror, ring):
            gaps = [(f, c) for f, c in need if tops[f] != c]
            n = len(gaps)
            if n <= least + slack:
                lists.append((n, gaps))
                least = min(least, n)
    chosen: set[Action] = set()
    for n, gaps in lists:
        if n <= least + slack:
            chosen.update(place(c, f) for f, c in gaps if supply[c])
    if not chosen:
        return legal(state)
    return tuple(sorted(chosen))


def policy(state: State, rng: random.Random) -> Action:
    """A cheap playout move: claim what matches; place a pawn that the mover's card closest
    to matching still needs (a random one of its best readings); else any placement."""
    if not state.owed:
        claims = true_claims(state)
        return claims[0] if claims else END_TURN
    tops = tops_of(state)
    supply = state.supply
    mirror, ring = state.cfg.mirror, state.cfg.ring
    best_hits = -1
    options: list[tuple[int, int]] = []
    for card in state.stands[state.to_act - 1]:
        for _, need in needs(card, mirror, ring):
            missing = [(f, c) for f, c in need if tops[f] != c]
            hits = 4 - len(missing)
            usable = [(f, c) for f, c in missing if supply[c]]
            if not usable:
                continue
            if hits > best_hits:
                best_hits, options = hits, usable
            elif hits == best_hits:
                options.extend(usable)
    if options:
        field, colour = options[rng.randrange(len(options))]
        return Action(0, colour, field)
    actions = legal(state)
    return actions[rng.randrange(len(actions))]


def scores(
    state: State,
    observer: int,
    unseen: list[int],
    scale: float,
    value: tuple[float, ...] = VALUE,
    sharpness: float = 0.0,
) -> list[float]:
    """Reward per player (index 0 unused): the result if over; else from each player's
    progress, ``observer``'s from their own cards, the others' from the cards ``observer``
    has not seen (so the sampled stands add no noise): the lead over the best other, times
    ``scale``, clipped to 0…1 around 1/2; or, when ``sharpness`` is set, the player's share
    of ``exp(sharpness * progress)`` over all players (the shares sum to 1)."""
    players = len(state.stands)
    if not state.to_act:
        if not state.winner:
            return [0.0] + [1.0 / players] * players
        return [0.0] + [float(p == state.winner) for p in range(1, players + 1)]
    tops = tops_of(state)
    prog = [0.0] * (players + 1)
    for p in range(1, players + 1):
        if p == observer:
            prog[p] = progress(state, p, tops, value)
        else:
            prog[p] = expected_progress(state, p, unseen, tops, value)
    if sharpness:
        weights = [math.exp(sharpness * prog[p]) for p in range(1, players + 1)]
        total = sum(weights)
        return [0.0] + [w / total for w in weights]
    out = [0.0]
    for p in range(1, players + 1):
        lead = prog[p] - max(prog[q] for q in range(1, players + 1) if q != p)
        out.append(min(1.0, max(0.0, 0.5 + lead * scale)))
    return out


class TurnPlayouts:
    """One move's playouts: the tree over :func:`moves` until the turn ``stop``, each
    playout finishing the turn with :func:`policy`, leaves scored by :func:`scores`."""

    def __init__(self, planner: QuartinoSearch, turn: Turn, base: State) -> None:
        self.slack = planner.slack
        self.stop = base.turns + planner.horizon
        self.observer = turn.player
        self.unseen = unseen_cards(turn.view, base.cfg.cards)
        self.scale, self.value, self.sharpness = planner.scale, planner.value, planner.sharpness

    def moves(self, state: State) -> tuple[Action, ...]:
        return moves(state, self.slack) if state.turns < self.stop else ()

    def finish(self, state: State, rng: random.Random) -> State:
        while state.to_act and state.turns < self.stop:
            state = apply(state, policy(state, rng))
        return state

    def rewards(self, state: State) -> list[float]:
        return scores(state, self.observer, self.unseen, self.scale, self.value, self.sharpness)


class QuartinoSearch(SearchAgent):
    """The planner: the core's ISMCTS (:class:`tabletop.agents.search.SearchAgent`, 500
    playouts unless budgeted) over :func:`moves` for ``horizon`` turns (1: its own), each
    playout finishing the turn with :func:`policy`; leaves scored by :func:`scores`
    (``scale``: reward per card of lead; ``value``: see :data:`.evaluation.VALUE`;
    ``sharpness``: softmax shares instead of the lead)."""

    def __init__(
        self,
        exploration: float = 0.3,
        horizon: int = 1,
        scale: float = 0.25,
        slack: int = 1,
        value: tuple[float, ...] = VALUE,
        sharpness: float = 0.0,
    ) -> None:
        super().__init__(exploration, playouts=self._turn_playouts, iterations=500)
        self.value = value
        self.sharpness = sharpness
        self.horizon = horizon
        self.scale = scale
        self.slack = slack

    def _turn_playouts(self, turn: Turn, base: Any) -> TurnPlayouts:
        return TurnPlayouts(self, turn, base)

"""The ``perfect`` Quarto agent: exact play once the solver answers in time, searched and
checked moves before.

Each move gets ``seconds`` of :func:`tabletop_quarto.solver.solve`: the seat's budget
(``turn.budget.seconds``) when it has one, else 2 s, counted on the thinking thread's CPU
clock (:data:`tabletop_quarto.search.clock`: a busy machine slows a move, never cuts its
proof); with ``nodes`` the search is also capped by positions searched, which makes the
agent reproducible (time caps are not).

- in the positions of the opening book (:mod:`tabletop_quarto.book`), the book's best
  action: exact, at once; at a placement of the book's deepest layer (its value known,
  the positions after it not held), the first placement the solver proves to keep that
  value (most placements keep a draw; the position after one is a give with a piece more
  on the board, which the solver settles in well under a second);
- a true claim is always made (``quarto`` with ``claim=manual``, Q5.2/Q5.3), and ``done``
  is said after the 16th placement when there is nothing to claim (Q5.4);
- when the solver finishes, its best action is played: perfect play (a won game is
  won as fast as possible, a lost one resists longest);
- when it does not (the opening), the generic tree search (``playouts`` a move, its tree
  kept between moves) ranks the moves, and the first of its best ``CANDIDATES`` that the
  solver cannot refute within the horizon of its own deepest finished search is played
  (the same positions budget again); failing that, the solver's own guess, which takes
  every forced win and avoids every forced loss within that horizon;
- if not even the solver's first iteration finishes, the ``basic`` agent's one-ply rule
  decides.
"""

from __future__ import annotations

from dataclasses import replace

from tabletop.agents.base import Budget, Turn
from tabletop.agents.search import SearchAgent
from tabletop_quarto.agents import BasicAgent
from tabletop_quarto.book import better, choices, lookup
from tabletop_quarto.position import from_json
from tabletop_quarto.rules import OVER, PLACE, PLACE_BASE, QUARTO, State, apply, config, legal
from tabletop_quarto.search import clock
from tabletop_quarto.solver import Solution, solve, value_within

PLAYOUTS = 3000  # the tree search's budget in the opening: level 4's
CANDIDATES = 3  # the search's best moves the solver is asked to check, in order
KEEPING = 0.7  # the share of a move's time for proving a placement keeps the book's value
GUESS_NODES = 200_000  # the quick search that orders the placements to prove


class PerfectAgent:
    """Plays the solver's best action within ``seconds`` and ``nodes`` (positions searched)
    per move, and in the opening a searched move the solver cannot refute (see the module
    docstring); ``playouts=0`` plays the solver's guess there instead."""

    def __init__(
        self, seconds: float | None = 2.0, nodes: int | None = None, playouts: int = PLAYOUTS
    ) -> None:
        self.seconds = seconds
        self.nodes = nodes
        self.playouts = playouts
        self._search = SearchAgent()

    def act(self, turn: Turn) -> int:
        legal = turn.legal
        state = from_json(turn.view, config(turn.players, turn.options))
        known = choices(state)  # the opening book: exact, at once
        if known:
            best = next(iter(known))
            for action, result in known.items():
                if better(result, known[best]):
                    best = action
            return best
        seconds = turn.budget.seconds if turn.budget.seconds is not None else self.seconds
        deadline = None if seconds is None else clock() + seconds
        value = lookup(state)  # a placement of the book's deepest layer: its value
        if value is not None:  # KEEPING of the time to prove a placement keeps it
            until = None if seconds is None else clock() + KEEPING * seconds
            kept = self._keeping(state, value[0], until)
            if kept is not None:
                return kept
            seconds = None if deadline is None else max(0.05, deadline - clock())
        solution = solve(state, seconds=seconds, nodes=self.nodes)
        if solution.best is None or solution.best not in legal:
            return BasicAgent().act(turn)
        if solution.exact or solution.value != 0 or not self.playouts:
            return solution.best
        return self._opening(turn, state, solution, deadline)

    def _keeping(self, state: State, value: int, deadline: float | None) -> int | None:
        """The first placement the solver proves keeps ``value`` (the book's, for the
        player placing), None when the time runs out first."""
        guess = solve(state, nodes=GUESS_NODES).best  # a quick search's pick: tried first
        places = [a for a in legal(state) if PLACE_BASE <= a < QUARTO]
        for place in sorted(places, key=lambda a: a != guess):
            after = apply(state, place)
            if after.phase == OVER:  # a win, or the 16th piece with no line: a draw
                if (1 if after.player == state.player else 0) >= value:
                    return int(place)
                continue
            left = None if deadline is None else deadline - clock()
            if left is not None and left <= 0:
                return None
            found = solve(after, seconds=left, nodes=self.nodes)  # the giver's value
            if found.exact and found.value >= value:
                return int(place)
        return None

    def _opening(self, turn: Turn, state: State, solution: Solution, deadline: float | None) -> int:
        """The search's best moves in order, the first the solver cannot refute within
        the horizon its guess was checked to; else the guess."""
        assert solution.best is not None
        left = None if deadline is None else max(0.0, deadline - clock())
        budget = Budget(iterations=self.playouts, seconds=left)
        ranked = self._search.ranked(replace(turn, budget=budget))
        # a placement uses up one of the horizon's placements; a give none
        horizon = solution.depth - (1 if state.phase == PLACE else 0)
        for action in ranked[:CANDIDATES]:
            if action == solution.best:
                return solution.best
            left = None if deadline is None else deadline - clock()
            if left is not None and left <= 0:
                break
            after = apply(state, action)  # not over: the solver saw no win at horizon 2
            value = value_within(after, horizon, seconds=left, nodes=self.nodes)
            if value is None:
                break
            if (value if after.player == state.player else -value) >= 0:
                return int(action)
        return solution.best

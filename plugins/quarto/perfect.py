"""The ``perfect`` Quarto agent: exact play once the solver answers in time, deep search before.

Each move gets ``seconds`` of :func:`tabletop_quarto.solver.solve`: the seat's budget
(``turn.budget.seconds``) when it has one, else 2 s; with ``nodes`` the search is also
capped by positions searched, which makes the agent reproducible (time caps are not).

- a true claim is always made (``quarto`` with ``claim=manual``, Q5.2/Q5.3), and ``done``
  is said after the 16th placement when there is nothing to claim (Q5.4);
- when the solver finishes, its best action is played: perfect play (a won game is
  won as fast as possible, a lost one resists longest);
- when it does not, the action of its deepest finished iteration is played: it takes
  every forced win and avoids every forced loss within that horizon;
- if not even the first iteration finishes, the ``basic`` agent's one-ply rule decides.
"""

from __future__ import annotations

from tabletop.agents.base import Turn
from tabletop_quarto.agents import BasicAgent
from tabletop_quarto.position import from_json
from tabletop_quarto.solver import solve


class PerfectAgent:
    """Plays the solver's best action within ``seconds`` and ``nodes`` (positions searched)
    per move (see the module docstring)."""

    def __init__(self, seconds: float | None = 2.0, nodes: int | None = None) -> None:
        self.seconds = seconds
        self.nodes = nodes

    def act(self, turn: Turn) -> int:
        from tabletop_quarto.game import rules_for

        legal = turn.legal
        state = from_json(turn.view, rules_for(turn.options))
        seconds = turn.budget.seconds if turn.budget.seconds is not None else self.seconds
        solution = solve(state, seconds=seconds, nodes=self.nodes)
        if solution.best is not None and solution.best in legal:
            return solution.best
        return BasicAgent().act(turn)

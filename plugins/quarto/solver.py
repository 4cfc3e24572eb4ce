"""The exact Quarto solver: the value of a position for the player to act, and a best action.

``solve(state)`` answers from the PLACE and GIVE phases of every variant (``squares``,
restricted ``attributes``, either claim mode) and is deterministic for a node budget.

- **Value**: +1 win, 0 draw, -1 loss for the player to act; ``placements`` counts the
  placements until the end under best play (the winner hurries, the loser resists; a
  draw fills the board). A true claim available now is a win in 0 placements.
- **Best action**: in the PLACE phase the place action of the best turn (``then`` is the
  give planned with it, and is what solving the next GIVE position finds again); in the
  GIVE phase a give action; ``quarto`` when a true claim is open; ``done`` after the 16th
  placement with nothing to claim.
- **claim=manual** (Q5.2-Q5.4): a perfect player claims every win at once, so the value
  under manual claims equals the value with automatic wins (Q5.1). The search runs with
  automatic semantics; patterns left unclaimed on the board are dead (Q5.3) and never
  count again, which the search respects because it only looks at patterns through the
  square just filled.
- **Budget** (``seconds`` / ``nodes``): the search deepens by placements (iterative
  deepening) and stops when the budget runs out. ``seconds`` are the thinking thread's
  CPU seconds (:data:`tabletop_quarto.search.clock`): under load a move takes longer on
  the wall clock, with the same proof. A forced win or loss found within the
  horizon is exact; otherwise ``exact`` is False, ``value`` is 0 ("not known") and
  ``best`` is the action of the deepest finished iteration (it avoids every loss that
  iteration could see).
- **Engines**: the C kernel (``tabletop_quarto._kernel``, built by ``pip install -e .``
  when a compiler is present) when it is importable, else the plain-Python
  :mod:`tabletop_quarto.search`. Both run the same algorithm and give the same values.
"""

from __future__ import annotations

from typing import Any, Literal, NamedTuple, Protocol

from tabletop.game import Domain
from tabletop_quarto.rules import (
    ANSWER,
    DONE,
    GIVE,
    LAST_CLAIM,
    OVER,
    PLACE,
    PLACE_BASE,
    QUARTO,
    State,
    legal,
)
from tabletop_quarto.search import WIN, BudgetExceeded, Search, clock, columns

_ = Domain("tabletop_quarto")

Engine = Literal["auto", "python", "kernel"]


class Solution(NamedTuple):
    """What :func:`solve` found for the player to act."""

    value: int  # +1 win, 0 draw, -1 loss (0 also when not exact: unknown)
    placements: int  # placements until the end under best play
    best: int | None  # a best action (see the module docstring)
    exact: bool  # False when the budget ran out first
    then: int | None = None  # PLACE phase: the give that goes with ``best``
    nodes: int = 0  # positions searched
    depth: int = 0  # placements ahead the deepest finished search saw (all of them if exact)


class _Root(Protocol):
    @property
    def nodes(self) -> int: ...

    def root(self, rem: int, alpha: int, beta: int) -> tuple[int, int, int]: ...


class _PythonRoot:
    """The plain-Python engine behind the common root interface."""

    def __init__(self, state: State, max_nodes: int | None, deadline: float | None) -> None:
        self.search = Search(state.rules, max_nodes, deadline)
        self.state = state
        self.cols = columns(state.board, state.occupied)

    @property
    def nodes(self) -> int:
        return self.search.nodes

    def root(self, rem: int, alpha: int, beta: int) -> tuple[int, int, int]:
        st, search = self.state, self.search
        if st.phase == PLACE:
            score = search.place(
                st.board, st.occupied, self.cols, st.pool, st.hand, 0, rem, alpha, beta, True
            )
        else:
            score = search.give(st.board, st.occupied, self.cols, st.pool, rem, alpha, beta)
        return score, *search.best


def kernel_available() -> bool:
    """Whether the compiled kernel is built (``pip install -e .`` with a C compiler)."""
    from tabletop_quarto import kernel

    return kernel.available()


def _engine(state: State, engine: Engine, max_nodes: int | None, deadline: float | None) -> _Root:
    if engine != "python":
        from tabletop_quarto import kernel

        if kernel.available():
            return kernel.KernelRoot(state, max_nodes, deadline)
        if engine == "kernel":
            raise RuntimeError("the compiled Quarto kernel is not built")
    return _PythonRoot(state, max_nodes, deadline)


def solve(
    state: State,
    *,
    seconds: float | None = None,
    nodes: int | None = None,
    engine: Engine = "auto",
) -> Solution:
    """Solve ``state`` for the player to act (see the module docstring)."""
    settled = _settled(state)
    if settled is not None:
        return settled
    deadline = None if seconds is None else clock() + seconds
    search = _engine(state, engine, nodes, deadline)
    empties = 16 - state.occupied.bit_count()
    budget = seconds is not None or nodes is not None
    # Iterative deepening when there is a budget: 2, 4, 6, … placements, then the whole
    # game once it is at most 6 placements further (the last steps cost nearly as much).
    horizons = [*range(2, empties - 5, 2), empties] if budget else [empties]
    guess: tuple[int, int] | None = None
    depth = 0
    try:
        for horizon in horizons:
            score, square, give = search.root(horizon, -1, 1)
            if score > 0:
                return _win(search, state, score, square, give)
            if score < 0:
                return _loss(search, state, horizon, score, square, give)
            if horizon >= empties:
                return _solution(state, 0, empties, square, give, True, search.nodes, empties)
            guess, depth = (square, give), horizon
    except BudgetExceeded:
        pass
    if guess is None:
        return Solution(0, empties, None, False, None, search.nodes)
    return _solution(state, 0, empties, *guess, False, search.nodes, depth)


def value_within(
    state: State,
    horizon: int,
    *,
    seconds: float | None = None,
    nodes: int | None = None,
    engine: Engine = "auto",
) -> int | None:
    """+1, 0 or -1: whether the player to act wins by force, neither, or loses by force
    within ``horizon`` placements (one search, no deepening); None when the budget runs
    out first."""
    settled = _settled(state)
    if settled is not None:
        return settled.value
    deadline = None if seconds is None else clock() + seconds
    search = _engine(state, engine, nodes, deadline)
    empties = 16 - state.occupied.bit_count()
    try:
        score, _, _ = search.root(max(1, min(horizon, empties)), -1, 1)
    except BudgetExceeded:
        return None
    return (score > 0) - (score < 0)


def _settled(state: State) -> Solution | None:
    """The solution of a position that needs no search: a true claim wins now, and with
    nothing to claim on a full board the game is drawn; None for any other."""
    if state.phase == OVER:
        raise ValueError("the game is over: nobody is to act (Q6.1)")
    if QUARTO in legal(state):  # Q5.2/Q5.3: a true claim wins now
        return Solution(1, 0, QUARTO, True)
    if state.phase in (LAST_CLAIM, ANSWER):  # Q5.4: nothing to claim, the board is full
        return Solution(0, 0, DONE, True)
    return None


def _solution(
    state: State,
    value: int,
    placements: int,
    square: int,
    give: int,
    exact: bool,
    nodes: int,
    depth: int,
) -> Solution:
    # A lost position the search settles without trying a move (every move loses as fast)
    # leaves no move recorded: any legal one then resists as long (Q3.2, Q3.3).
    if state.phase == GIVE:
        if give < 0 or not state.pool >> give & 1:
            give = next(a for a in legal(state) if a < PLACE_BASE)
        return Solution(value, placements, give, exact, None, nodes, depth)
    if square < 0 or state.occupied >> square & 1:
        square = next(a for a in legal(state) if PLACE_BASE <= a < QUARTO) - PLACE_BASE
    then = give if give >= 0 and state.pool >> give & 1 and give != state.hand else None
    return Solution(value, placements, PLACE_BASE + square, exact, then, nodes, depth)


def _win(search: _Root, state: State, score: int, square: int, give: int) -> Solution:
    """The fastest win, by null-window tests "win within k placements?" (horizon k)."""
    low, high = 1, WIN - score  # a win within ``high`` placements is proven
    move = (square, give)
    try:
        while low < high:
            mid = (low + high) // 2
            got, s, g = search.root(mid, WIN - mid - 1, WIN - mid)
            if got >= WIN - mid:
                high, move = WIN - got, (s, g)
            else:
                low = mid + 1
    except BudgetExceeded:
        return _solution(state, 1, high, *move, False, search.nodes, high)
    return _solution(state, 1, high, *move, True, search.nodes, high)


def _loss(
    search: _Root, state: State, horizon: int, score: int, square: int, give: int
) -> Solution:
    """The longest resistance, by null-window tests "lose no sooner than k placements?"."""
    low, high = 1, WIN + score  # every line loses within ``high`` placements
    move = (square, give)
    try:
        while low < high:
            mid = (low + high + 1) // 2
            got, s, g = search.root(horizon, mid - WIN - 1, mid - WIN)
            if got >= mid - WIN:
                low, move = WIN + got, (s, g)
            else:
                high = min(mid - 1, WIN + got)
    except BudgetExceeded:
        return _solution(state, -1, high, *move, False, search.nodes, horizon)
    return _solution(state, -1, low, *move, True, search.nodes, low)


def describe(solution: Solution, state: State) -> dict[str, Any]:
    """The solution as JSON for ``tabletop solve --json`` (actions in notation).

    ``value`` is ``win``/``draw``/``loss`` for ``player``, or ``unknown`` when the budget
    ran out first; ``placements`` is null unless exact.
    """
    from tabletop_quarto.notation import format_action

    known = solution.exact or solution.value != 0
    return {
        "player": state.player,
        "value": OUTCOMES[solution.value] if known else "unknown",
        "placements": solution.placements if solution.exact else None,
        "best": None if solution.best is None else format_action(solution.best),
        "then": None if solution.then is None else format_action(solution.then),
        "exact": solution.exact,
        "depth": solution.depth,
        "nodes": solution.nodes,
    }


def summary(solution: Solution, state: State) -> str:
    """One line for ``tabletop solve``: the value for the player to act and a best action.

    A position the budget could not settle says so and names the best guess.
    """
    data = describe(solution, state)
    best: str = data["best"] or _("none")
    if data["then"]:
        best = _("{best}, then {then}", best=best, then=data["then"])
    player = state.player
    if not solution.exact:
        if solution.value > 0:
            return _(
                "player {player} wins, in how many placements is beyond the budget; best: {best}",
                player=player,
                best=best,
            )
        if solution.value < 0:
            return _(
                "player {player} loses, in how many placements is beyond the budget; best: {best}",
                player=player,
                best=best,
            )
        return _.plural(
            "too deep for the budget: no exact value for player {player} (no forced end "
            "within {n} placement); best guess: {best}",
            "too deep for the budget: no exact value for player {player} (no forced end "
            "within {n} placements); best guess: {best}",
            solution.depth,
            player=player,
            best=best,
        )
    count = solution.placements
    if solution.value == 0:
        return _.plural(
            "draw with best play ({n} placement to fill the board); best for player "
            "{player}: {best}",
            "draw with best play ({n} placements to fill the board); best for player "
            "{player}: {best}",
            count,
            player=player,
            best=best,
        )
    if solution.value > 0:
        return _.plural(
            "player {player} wins in {n} placement with best play; best: {best}",
            "player {player} wins in {n} placements with best play; best: {best}",
            count,
            player=player,
            best=best,
        )
    return _.plural(
        "player {player} loses in {n} placement with best play; best: {best}",
        "player {player} loses in {n} placements with best play; best: {best}",
        count,
        player=player,
        best=best,
    )


OUTCOMES = {1: "win", 0: "draw", -1: "loss"}

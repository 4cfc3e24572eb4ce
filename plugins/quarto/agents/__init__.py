"""Quarto's own agents, levels, hint and solver (its computer-player facet). ``basic``:
wins when it can, never hands over a piece that wins at once; ``perfect``
(:mod:`.perfect`): the exact solver's play."""

from __future__ import annotations

from collections.abc import Mapping

from tabletop.agents.base import Agent, AgentFactory, Budget, Level, Turn
from tabletop.game import JSON, Domain
from tabletop_quarto.pieces import CODES, SQUARE_NAMES, encode
from tabletop_quarto.position import from_json
from tabletop_quarto.rules import (
    DONE,
    GIVE,
    PLACE,
    PLACE_BASE,
    QUARTO,
    Rules,
    State,
    config,
    wins_through,
)

_ = Domain("tabletop_quarto")


def winning_squares(board: int, occupied: int, piece: int, state: State) -> list[int]:
    """Empty squares where ``piece`` would complete a winning pattern (Q4.2)."""
    code = encode(piece)
    return [
        s
        for s in range(16)
        if not occupied >> s & 1
        and wins_through(board | code << (8 * s), occupied | 1 << s, s, state.rules)
    ]


def safe_pieces(board: int, occupied: int, pool: int, state: State) -> list[int]:
    """Pieces of ``pool`` the opponent cannot win with at once."""
    return [
        p for p in range(16) if pool >> p & 1 and not winning_squares(board, occupied, p, state)
    ]


class BasicAgent:
    """One ply: take a win (or a true claim); place where the most safe pieces remain to give;
    give a safe piece when there is one."""

    def act(self, turn: Turn) -> int:
        legal = turn.legal
        if QUARTO in legal:
            return QUARTO
        state = from_json(turn.view, config(turn.players, turn.options))
        rng = turn.rng
        if state.phase == PLACE:
            wins = winning_squares(state.board, state.occupied, state.hand, state)
            if wins:
                return PLACE_BASE + rng.choice(wins)
            best: list[int] = []
            best_safe = -1
            code = encode(state.hand)
            for action in legal:
                s = action - PLACE_BASE
                board = state.board | code << (8 * s)
                safe = len(safe_pieces(board, state.occupied | 1 << s, state.pool, state))
                if safe > best_safe:
                    best, best_safe = [action], safe
                elif safe == best_safe:
                    best.append(action)
            return rng.choice(best)
        if state.phase == GIVE:
            safe_gives = safe_pieces(state.board, state.occupied, state.pool, state)
            return rng.choice(safe_gives) if safe_gives else int(rng.choice(list(legal)))
        return DONE if DONE in legal else int(rng.choice(list(legal)))


def hint(view: JSON, rules: Rules) -> str:
    """Where the piece in hand wins, or which pieces are safe to give."""
    state = from_json(view, rules)
    if state.phase == PLACE:
        wins = winning_squares(state.board, state.occupied, state.hand, state)
        if wins:
            squares = ", ".join(SQUARE_NAMES[s] for s in wins)
            return _("{piece} wins on {squares}", piece=CODES[state.hand], squares=squares)
        return _("{piece} completes no line yet", piece=CODES[state.hand])
    if state.phase == GIVE:
        safe = safe_pieces(state.board, state.occupied, state.pool, state)
        if not safe:
            return _("every piece in the pool lets the opponent win")
        return _("safe to give: {pieces}", pieces=" ".join(CODES[p] for p in safe))
    return _("nothing to suggest")


# Positions the perfect agent may search a move: at most about 1.3 s here with the
# compiled kernel (1.5-3.5 million a second) and with plain Python (17-50 thousand). A
# budget in positions, not seconds, makes the agent reproducible; the 2 s cap (of the
# thread's CPU time, so a loaded machine cannot cut a proof) is only a safety net.
KERNEL_NODES = 2_000_000
PYTHON_NODES = 20_000


def _perfect() -> Agent:
    from tabletop_quarto.agents.perfect import PerfectAgent
    from tabletop_quarto.kernel import available

    return PerfectAgent(nodes=KERNEL_NODES if available() else PYTHON_NODES)


def _search() -> Agent:
    from tabletop.agents.search import SearchAgent

    return SearchAgent()


AGENTS: Mapping[str, AgentFactory] = {"basic": BasicAgent, "perfect": _perfect}

LEVELS: Mapping[str, Level] = {
    "2": Level("2", _("basic: wins when it can, never hands over a winning piece"), BasicAgent),
    "3": Level("3", _("MCTS (UCT), {n} playouts a move", n=300), _search, Budget(iterations=300)),
    "4": Level("4", _("MCTS (UCT), {n} playouts a move", n=3000), _search, Budget(iterations=3000)),
    "5": Level(
        "5",
        _(
            "perfect: the exact solver, 2,000,000 positions a move (20,000 without the "
            "compiled kernel; ≤ 2 s); in the opening, level 4's search checked by the solver"
        ),
        _perfect,
        Budget(seconds=2.0),
    ),
}


def solve(state: State, seconds: float | None) -> JSON:
    """The exact value of ``state`` (:mod:`tabletop_quarto.solver`, imported on use: the
    kernel is only built for ``tabletop solve`` and the coach)."""
    from tabletop_quarto.solver import describe, summary
    from tabletop_quarto.solver import solve as solved

    solution = solved(state, seconds=seconds)
    return {**describe(solution, state), "summary": summary(solution, state)}

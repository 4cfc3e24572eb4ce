"""Quarto's coach: every legal action solved exactly where the solver settles it in
budget, the search's estimate otherwise, each with a sentence of why (Q4, Q5).

Each action is applied and the position after it read from the opening book
(:mod:`tabletop_quarto.book`) or solved
(:func:`tabletop_quarto.solver.solve`), the positions budget shared among the actions
still to solve. A give that lets the opponent win at once is named with its refutation
("they place it on c3, completing the round pieces in column c"); a value found is
exact, with the placements to the end under best play when the solver measured them.
Actions the solver leaves open get the generic search's win chance (said as such).
"""

from __future__ import annotations

from dataclasses import replace

from pydantic import BaseModel

from tabletop.agents.base import Budget, Turn
from tabletop.agents.search import SearchAgent
from tabletop.coach.base import DRAW, LOSS, WIN, Assessment, Judgement, ranked
from tabletop.coach.search import SearchCoach
from tabletop.game import JSON, Count, Domain
from tabletop_quarto import agents
from tabletop_quarto.agents import KERNEL_NODES, PYTHON_NODES, winning_squares
from tabletop_quarto.book import solved
from tabletop_quarto.notation import format_action
from tabletop_quarto.pieces import CODES, FILES, LINES, SQUARE_NAMES, shared_values
from tabletop_quarto.position import from_json
from tabletop_quarto.rules import (
    GIVE,
    OVER,
    PLACE_BASE,
    QUARTO,
    VALUE_TEXT,
    Rules,
    State,
    apply,
    claim_is_true,
    config,
    piece_at,
)
from tabletop_quarto.search import clock
from tabletop_quarto.solver import solve

_ = Domain("tabletop_quarto")
PLAYOUTS = 3000  # the search for what the solver leaves open: level 4's
UNSURE = 0.5  # the margin of the search's chance where the solver settles nothing

# Every sentence a person reads, in one place (for the catalogues): Msgs, filled in with
# .format and translated where they are shown.
SOLVED = _("the exact solver, {nodes} positions a turn")
SEARCHED = _(
    "level 4's search, {playouts} playouts at most; the solver settled no action within "
    "{nodes} positions"
)
MIXED = _("the exact solver where it settled, level 4's search elsewhere")
WINS_NOW = _("wins now: completes the {values} pieces {where}")
CLAIM_NOW = _("wins now: the claim is true, {values} pieces {where} (Q5.2)")
CLAIM_NEXT = _("wins now: completes the {values} pieces {where}; claim it with quarto (Q5.2)")
GIVE_LOSES = _(
    "giving {piece} loses: they place it on {square}, completing the {values} pieces {where}"
)
ALL_GIVES_LOSE = _("loses: every piece you could give then lets them win at once")
THEN = _("{said}, then {then}")
WINS_SOMEHOW = _("wins with best play (how fast is beyond the budget)")
DRAWS = _("holds the draw")
LOSES_SOMEHOW = _("loses with best play (how fast is beyond the budget)")


def pattern_place(pattern: tuple[int, ...]) -> str:
    """Where a pattern lies, as a whole phrase (its preposition and case are the
    language's): ``in row 3``, ``in column c``, ``on the diagonal a1-d4``, ``in the block
    b2-c3`` (Q4.1, Q4.4; Czech ``v řadě 3``, ``ve sloupci c``)."""
    if pattern in LINES:
        index = LINES.index(pattern)
        if index < 4:
            return _("in row {n}", n=index + 1)
        if index < 8:
            return _("in column {file}", file=FILES[index - 4])
    first, last = SQUARE_NAMES[pattern[0]], SQUARE_NAMES[pattern[-1]]
    if pattern in LINES:
        return _("on the diagonal {first}-{last}", first=first, last=last)
    return _("in the block {first}-{last}", first=first, last=last)


def completed(board: int, occupied: int, square: int, rules: Rules) -> tuple[str, str] | None:
    """The first winning pattern through ``square`` and the values it shares, named."""
    for pattern in rules.patterns:
        if square in pattern and all(occupied >> s & 1 for s in pattern):
            pieces = tuple((board >> (8 * s)) & 15 for s in pattern)
            values = shared_values(pieces, rules.attr8)
            if values:
                named = [VALUE_TEXT.get(v, v) for v in values]
                joined = named[0]
                for value in named[1:]:
                    joined = _("{first} and {second}", first=joined, second=value)
                return pattern_place(pattern), joined
    return None


def wins_in(moves: int) -> str:
    """``wins in 3 placements with best play`` (the language's plural form)."""
    return _.plural(
        "wins in {n} placement with best play", "wins in {n} placements with best play", moves
    )


def loses_in(moves: int, reply: str | None = None) -> str:
    """``loses in 3 placements …``: with their best reply, or whatever is given then."""
    if reply is None:
        return _.plural(
            "loses in {n} placement with best play, whatever you give then",
            "loses in {n} placements with best play, whatever you give then",
            moves,
        )
    return _.plural(
        "loses in {n} placement with best play; their best reply: {reply}",
        "loses in {n} placements with best play; their best reply: {reply}",
        moves,
        reply=reply,
    )


class QuartoCoach:
    """The exact coach (``nodes`` positions a turn, shared among its actions; the turn's
    budget: its seconds cap the whole, three quarters for the solver on its CPU clock, the
    rest for the search; its iterations are the search's playouts)."""

    def __init__(self, nodes: int | None = None) -> None:
        if nodes is None:
            from tabletop_quarto.kernel import available

            nodes = KERNEL_NODES if available() else PYTHON_NODES
        self.nodes = nodes
        self.method = SOLVED.format(nodes=Count(nodes))

    def assess(self, turn: Turn) -> Assessment:
        state = from_json(turn.view, config(turn.players, turn.options))
        seconds = turn.budget.seconds
        # the solver's share, on its clock (the thread's CPU: load slows it, never cuts it)
        deadline = None if seconds is None else clock() + 0.75 * seconds
        legal = list(turn.legal)
        known: dict[int, Judgement] = {}
        left = self.nodes
        for index, action in enumerate(legal):
            remaining = None if deadline is None else deadline - clock()
            if remaining is not None and remaining <= 0:
                break
            found, used = self._solve(state, action, left // (len(legal) - index), remaining)
            left -= used
            if found is not None:
                known[action] = found
        open_ = [a for a in legal if a not in known]
        guessed: list[Judgement] = []
        if open_:
            guessed = self._search(turn, open_, seconds)
        method = self.method
        if guessed:
            method = (
                MIXED
                if known
                else SEARCHED.format(
                    playouts=Count(PLAYOUTS, grouped=False), nodes=Count(self.nodes)
                )
            )
        return Assessment(state.player, ranked([*known.values(), *guessed]), method)

    def _search(self, turn: Turn, open_: list[int], seconds: float | None) -> list[Judgement]:
        """The generic search's win chance of the actions the solver left open."""
        playouts = turn.budget.iterations or PLAYOUTS
        coach = SearchCoach(SearchAgent(), Budget(playouts), self.method)
        rest = None if seconds is None else 0.25 * seconds
        searched = coach.assess(replace(turn, budget=Budget(playouts, rest)))
        # The solver found no forced end after these within its horizon: the search's
        # chance (random playouts, not perfect play) is a guess, as unsure as a chance can
        # be (±50%); a review never condemns an action on it (tabletop.coach.review).
        return [replace(j, margin=UNSURE) for j in searched.judgements if j.action in set(open_)]

    def _solve(
        self, state: State, action: int, nodes: int, seconds: float | None
    ) -> tuple[Judgement | None, int]:
        """``action`` judged exactly, and the positions it took; None when not settled."""
        player, text = state.player, format_action(action)
        placing = PLACE_BASE <= action < QUARTO
        after = apply(state, action)
        if after.phase == OVER:
            if after.player == player:
                won = self._won(after, action)
                return Judgement(action, text, 1.0, True, WIN, int(placing), 0, won), 0
            return Judgement(action, text, 0.5, True, DRAW, int(placing), 0, DRAWS), 0
        mine = after.player == player
        known = solved(after)  # the opening book: exact, no search
        if known is not None:
            value = known[0] if mine else -known[0]
            placed = known[1] + int(placing)
            why = self._why(state, action, after, value, placed, None)
            chance = {1: 1.0, 0: 0.5, -1: 0.0}[value]
            name = {1: WIN, 0: DRAW, -1: LOSS}[value]
            return Judgement(action, text, chance, True, name, placed, 0, why), 0
        solution = solve(after, nodes=max(1, nodes), seconds=seconds)
        if not solution.exact and solution.value == 0:
            return None, solution.nodes
        value = solution.value if mine else -solution.value
        moves = solution.placements + int(placing) if solution.exact else None
        why = self._why(state, action, after, value, moves, solution.best)
        chance = {1: 1.0, 0: 0.5, -1: 0.0}[value]
        name = {1: WIN, 0: DRAW, -1: LOSS}[value]
        used = solution.nodes
        return Judgement(action, text, chance, True, name, moves, used, why), used

    @staticmethod
    def _won(after: State, action: int, form: str = WINS_NOW) -> str:
        """What the placement just made completes, said with ``form`` (a claim: CLAIM_NOW)."""
        found = completed(after.board, after.occupied, after.last, after.rules)
        if found is None:
            return WINS_SOMEHOW
        pattern, values = found
        form = CLAIM_NOW if action == QUARTO else form
        return form.format(values=values, where=pattern)

    @staticmethod
    def _why(
        state: State, action: int, after: State, value: int, moves: int | None, best: int | None
    ) -> str:
        if PLACE_BASE <= action < QUARTO and claim_is_true(after):
            return QuartoCoach._won(after, action, CLAIM_NEXT)
        if action < PLACE_BASE and value < 0:
            squares = winning_squares(state.board, state.occupied, action, state)
            if squares:
                square = squares[0]
                code = action | ((~action & 15) << 4)
                board = state.board | code << (8 * square)
                found = completed(board, state.occupied | 1 << square, square, state.rules)
                if found is not None:
                    pattern, values = found
                    return GIVE_LOSES.format(
                        piece=CODES[action],
                        square=SQUARE_NAMES[square],
                        values=values,
                        where=pattern,
                    )
        if value > 0:
            if moves is None:
                return WINS_SOMEHOW
            said = wins_in(moves)
            if after.phase == GIVE and best is not None and after.player == state.player:
                return THEN.format(said=said, then=format_action(best))
            return said
        if value == 0:
            return DRAWS
        if moves is None:
            return LOSES_SOMEHOW
        if after.phase == GIVE and after.player == state.player:
            if after.pool and all(
                winning_squares(after.board, after.occupied, p, after)
                for p in range(16)
                if after.pool >> p & 1
            ):
                return ALL_GIVES_LOSE
            return loses_in(moves)
        reply = _("none") if best is None else format_action(best)
        return loses_in(moves, reply)


__all__ = ["QuartoCoach", "completed", "pattern_place", "piece_at"]


def coach(level: str) -> QuartoCoach | None:
    """Level 5 (the strongest) is exact where the solver settles; the other levels get the
    generic coach (their search)."""
    return QuartoCoach() if level == "5" else None


def hint(view: JSON, player: int, options: BaseModel) -> str:
    """Which squares win now and which pieces are safe to give (from the view)."""
    return agents.hint(view, config(2, options))  # Quarto is for two (Q1)

"""Quarto's position JSON (Q8): writing it, and reading it with every impossibility named."""

from __future__ import annotations

from typing import Any

from tabletop.game import Domain, NotationError, PositionError, describe, whole
from tabletop_quarto.notation import PIECE_HELP, parse_piece, parse_square
from tabletop_quarto.pieces import CODES, SQUARE_NAMES, encode
from tabletop_quarto.rules import (
    ANSWER,
    FULL,
    GIVE,
    LAST_CLAIM,
    OVER,
    PHASE_NAMES,
    PLACE,
    Rules,
    State,
    piece_at,
    wins_through,
)

KEYS = {"board", "in_hand", "to_act", "last_placed", "pool", "phase", "winners"}
_ = Domain("tabletop_quarto")

# What `tabletop rules` says of the position JSON, above an example.
POSITION_KEYS = _("""\
`board` maps squares (`a1`..`d4`) to piece codes (`DTRH`: dark/light, tall/short,
round/square, hollow/flat, Q1.1-Q1.2); `pool` lists the pieces not yet given; `in_hand` is
the piece given and not yet placed (null when none); `phase` is `give`, `place`, `claim`,
`answer` or `over`; `to_act` the player to act (null when over); `last_placed` the square of
the latest placement (for a claim, Q5.2); `winners` once over.""")


def to_json(state: State) -> dict[str, Any]:
    """The position JSON: the four keys of Q8 plus ``pool``, ``phase`` and ``winners``."""
    over = state.phase == OVER
    return {
        "board": {
            SQUARE_NAMES[s]: CODES[piece_at(state, s)] for s in range(16) if state.occupied >> s & 1
        },
        "in_hand": CODES[state.hand] if state.hand >= 0 else None,
        "to_act": None if over else state.player,
        "last_placed": SQUARE_NAMES[state.last] if state.last >= 0 else None,
        "pool": [CODES[p] for p in range(16) if state.pool >> p & 1],
        "phase": PHASE_NAMES[state.phase],
        "winners": [state.player] if over and state.player else [],
    }


def _fail(message: str) -> PositionError:
    return PositionError(_("impossible Quarto position: {message}", message=message))


def _piece(value: Any, where: str) -> int:
    """A piece code (``DTRH``), its number as text (``"15"``) or an int 0-15 (Q2.1, Q2.2)."""
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 16:
        return value
    if isinstance(value, str):
        try:
            return parse_piece(value)
        except NotationError:
            pass
    raise _fail(
        _(
            "{where}: {value} is not a piece; {help}",
            where=where,
            value=describe(value),
            help=PIECE_HELP,
        )
    )


def _square(value: Any, where: str) -> int:
    if isinstance(value, str):
        try:
            return parse_square(value)
        except NotationError:
            pass
    raise _fail(
        _(
            "{where}: {value} is not a square: files a-d, ranks 1-4, e.g. b2 (Q1.1)",
            where=where,
            value=describe(value),
        )
    )


def from_json(data: dict[str, Any], rules: Rules) -> State:
    """The state for a position JSON; PositionError names what cannot arise.

    Strict: exact types, pieces all different (Q1.2), the player to act follows from the
    number of placements (Q2.4, Q3.2, Q3.3), a finished game shows its win or its full
    board (Q5, Q6.1). ``last_placed`` may be left out (or null) by a hand-written position (no
    claim can then be made on the previous placement); ``phase`` is inferred when absent.
    """
    if not isinstance(data, dict):
        raise _fail(_("the position must be a JSON object, not {value}", value=describe(data)))
    unknown = [key for key in data if key not in KEYS]
    if unknown:
        raise _fail(
            _(
                "unknown key {key}; keys are {keys} (Q8)",
                key=describe(unknown[0]),
                keys=", ".join(sorted(KEYS)),
            )
        )
    board_in = data.get("board", {})
    if not isinstance(board_in, dict):
        raise _fail(
            _("'board' must map squares to pieces, e.g. {example} (Q8)", example='{"b2": "DTRH"}')
        )
    board = occupied = 0
    seen: dict[int, str] = {}
    for name, code in board_in.items():
        square = _square(name, "board")
        piece = _piece(code, f"board {name}")
        if piece in seen:
            raise _fail(
                _(
                    "piece {piece} is on both {first} and {second} (Q1.2)",
                    piece=CODES[piece],
                    first=seen[piece],
                    second=name,
                )
            )
        if occupied >> square & 1:
            raise _fail(_("square {square} is given twice", square=SQUARE_NAMES[square]))
        seen[piece] = SQUARE_NAMES[square]
        board |= encode(piece) << (8 * square)
        occupied |= 1 << square
    placed = len(seen)
    hand_in = data.get("in_hand")
    hand = -1 if hand_in is None else _piece(hand_in, "in_hand")
    if hand >= 0 and placed == 16:
        raise _fail(_("17 pieces: the board is full and a piece is in hand (Q1.2)"))
    if hand >= 0 and hand in seen:
        raise _fail(
            _(
                "the piece in hand {piece} is also on {square} (Q1.2)",
                piece=CODES[hand],
                square=seen[hand],
            )
        )
    pool = FULL & ~sum(1 << p for p in seen)
    if hand >= 0:
        pool &= ~(1 << hand)
    _check_pool(data, pool)
    last = _last(data, occupied)
    phase = _phase(data, hand, occupied, rules)
    winners = _winners(data.get("winners"))
    if phase == OVER:
        if data.get("to_act") is not None:
            raise _fail(
                _(
                    "'to_act' is {value} but the game is over; it must be null",
                    value=describe(data.get("to_act")),
                )
            )
        winner = _over(board, occupied, placed, hand, last, winners, rules)
        return State(board, occupied, pool, hand, winner, OVER, last, rules)
    if winners:
        raise _fail(_("'winners' is not empty but the game is not over (Q6.1)"))
    due = _due(phase, placed)
    to_act = data.get("to_act")
    if whole(to_act, 1, 2) != due:
        raise _fail(
            _(
                "'to_act' is {value}; with {placed} pieces placed in phase {phase} it is "
                "player {due} (Q2.4, Q3.2, Q3.3)",
                value=describe(to_act),
                placed=placed,
                phase=PHASE_NAMES[phase],
                due=due,
            )
        )
    if not rules.manual:
        square = _winning_square(board, occupied, rules)
        if square >= 0:
            raise _fail(
                _(
                    "a winning pattern through {square} is already on the board; "
                    "with claim=auto the game would have ended (Q5.1)",
                    square=SQUARE_NAMES[square],
                )
            )
    return State(board, occupied, pool, hand, due, phase, last, rules)


def _due(phase: int, placed: int) -> int:
    """Who acts: player 1 gives first (Q2.4); the placer gives next (Q3.3); Q5.4 after."""
    if phase == LAST_CLAIM:
        return 1
    if phase == ANSWER:
        return 2
    giver = 1 if placed % 2 == 0 else 2
    return giver if phase == GIVE else 3 - giver


def _check_pool(data: dict[str, Any], pool: int) -> None:
    """``pool`` is derived; when given it must list exactly the pieces left (Q1.2)."""
    given = data.get("pool")
    if given is None:
        return
    if not isinstance(given, list) or len(given) > 16:
        raise _fail(_("'pool' must list the pieces neither on the board nor in hand (Q1.2)"))
    pieces = {_piece(code, "pool") for code in given}
    if len(pieces) != len(given) or sum(1 << p for p in pieces) != pool:
        raise _fail(
            _("'pool' must list exactly the pieces neither on the board nor in hand (Q1.2)")
        )


def _last(data: dict[str, Any], occupied: int) -> int:
    last_in = data.get("last_placed")
    if last_in is None:
        return -1
    last = _square(last_in, "last_placed")
    if not occupied >> last & 1:
        raise _fail(_("last_placed {square} is an empty square", square=SQUARE_NAMES[last]))
    return last


def _winners(value: Any) -> list[int]:
    if value is None:
        return []
    if not isinstance(value, list) or len(value) > 1 or any(whole(w, 1, 2) is None for w in value):
        raise _fail(_("'winners' must be [], [1] or [2], not {value}", value=describe(value)))
    return list(value)


def _winning_square(board: int, occupied: int, rules: Rules) -> int:
    """A square of a winning pattern on the board, or -1 (Q4.2)."""
    for square in range(16):
        if occupied >> square & 1 and wins_through(board, occupied, square, rules):
            return square
    return -1


def _over(
    board: int, occupied: int, placed: int, hand: int, last: int, winners: list[int], rules: Rules
) -> int:
    """The winner (0: draw) of a finished position, after checking it shows why (Q5, Q6.1)."""
    if placed == 0:
        raise _fail(
            _(
                "the game is over on an empty board: it ends only by a win (Q5) or a full "
                "board (Q6.1)"
            )
        )
    if not winners:
        if placed < 16:
            raise _fail(
                _("a draw with {placed} pieces placed: a draw needs all 16 (Q6.1)", placed=placed)
            )
        if not rules.manual and _winning_square(board, occupied, rules) >= 0:
            raise _fail(
                _("a draw with a winning pattern on the board: with claim=auto it won (Q5.1)")
            )
        return 0
    winner = winners[0]
    if last < 0:
        raise _fail(
            _(
                "player {winner} won, but no winning placement is named ('last_placed', Q5)",
                winner=winner,
            )
        )
    if not wins_through(board, occupied, last, rules):
        raise _fail(
            _(
                "player {winner} won, but no winning pattern runs through the last placement "
                "{square} (Q4.2, Q5.2)",
                winner=winner,
                square=SQUARE_NAMES[last],
            )
        )
    placer = 2 if placed % 2 else 1
    if not rules.manual:
        before = board & ~(0xFF << (8 * last))
        if (
            hand >= 0
            or winner != placer
            or _winning_square(before, occupied & ~(1 << last), rules) >= 0
        ):
            raise _fail(
                _(
                    "with claim=auto the placement that completes a pattern wins at once: "
                    "player {placer} placed the last piece, no piece is in hand, no earlier "
                    "pattern (Q5.1)",
                    placer=placer,
                )
            )
        return winner
    # claim=manual: the placer claims at once (Q5.2), or the opponent as their first action
    # holding the given piece (Q5.3), or after the placer's done on a full board (Q5.4).
    if winner == placer and hand < 0:
        return winner
    if winner != placer and (hand >= 0 or placed == 16):
        return winner
    raise _fail(
        _(
            "player {winner} cannot have claimed: the placer claims before giving, the opponent "
            "claims while holding the piece given or after done (Q5.2-Q5.4)",
            winner=winner,
        )
    )


def _phase(data: dict[str, Any], hand: int, occupied: int, rules: Rules) -> int:
    named = data.get("phase")
    if named is None:
        if hand >= 0:
            return PLACE
        if occupied == FULL:
            return LAST_CLAIM if rules.manual else OVER
        return GIVE
    if named not in PHASE_NAMES:
        raise _fail(
            _(
                "unknown phase {phase}; phases are {phases}",
                phase=describe(named),
                phases=", ".join(PHASE_NAMES),
            )
        )
    phase = PHASE_NAMES.index(named)
    if phase != OVER and (phase == PLACE) != (hand >= 0):
        raise _fail(_("a piece is in hand exactly when it is to be placed (Q3.3)"))
    if phase in (LAST_CLAIM, ANSWER) and (occupied != FULL or not rules.manual):
        raise _fail(
            _(
                "phase {phase} only follows the 16th placement with claim=manual (Q5.4)",
                phase=repr(named),
            )
        )
    if phase == GIVE and occupied == FULL:
        raise _fail(_("no piece is left to give: the board is full (Q5.4)"))
    if phase == OVER and hand >= 0 and not rules.manual:
        raise _fail(
            _(
                "the game is over with a piece in hand: with claim=auto it ends at a "
                "placement (Q5.1)"
            )
        )
    return phase

"""Quarto's rules as pure functions over an immutable int state (Q3-Q6), and its options.

Actions are ints: ``0-15`` give that piece, ``16-31`` place on square ``a - 16``,
``QUARTO`` claims (Q5.2), ``DONE`` ends the game after the 16th placement (Q5.4).

:class:`QuartoOptions` is the options model (variants Q4.4, Q4.5 and claim modes Q5.1,
Q5.2; pydantic, at the edge); the plain config the rules read is its :class:`Rules`
(:func:`config`). The end reason, the refusals and the prompt are here too.
"""

from __future__ import annotations

from typing import Any, Literal, NamedTuple

from pydantic import BaseModel, ConfigDict, Field, field_serializer, field_validator

from tabletop.game import Domain, Msg, Outcome, options_as
from tabletop_quarto.pieces import (
    ATTRIBUTES,
    CODES,
    SQUARE_NAMES,
    attribute_mask,
    encode,
    patterns,
    piece_words,
    shared_values,
)

PLACE_BASE = 16
QUARTO = 32
DONE = 33

GIVE, PLACE, LAST_CLAIM, ANSWER, OVER = range(5)
PHASE_NAMES = ("give", "place", "claim", "answer", "over")

FULL = 0xFFFF
_ = Domain("tabletop_quarto")
# The attribute values as the end reason names them (pieces.VALUE_NAMES), translatable.
VALUE_TEXT = {
    "light": _("light"),
    "dark": _("dark"),
    "short": _("short"),
    "tall": _("tall"),
    "round": _("round"),
    "square": _("square"),
    "solid": _("solid"),
    "hollow": _("hollow"),
}

Attribute = Literal["colour", "height", "shape", "top"]


class QuartoOptions(BaseModel):
    """Variants combine freely (Q4.6)."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)  # built at first use

    squares: bool = Field(
        False,
        title=_("squares"),
        description=_("Q4.4 advanced: the nine 2×2 blocks also win (19 patterns)"),
    )
    attributes: frozenset[Attribute] = Field(
        frozenset(ATTRIBUTES),  # type: ignore[arg-type]
        title=_("attributes"),
        description=_(
            "Q4.5 beginners: the attributes that count, comma-separated "
            "(e.g. colour or colour,height)"
        ),
        json_schema_extra={
            "allowed": _("any non-empty comma list of {names}", names="colour, height, shape, top")
        },
    )
    claim: Literal["auto", "manual"] = Field(
        "auto",
        title=_("claim"),
        json_schema_extra={"labels": {"auto": _("automatic"), "manual": _("manual")}},
        description=_(
            "Q5.1 auto: a winning placement wins at once; Q5.2 manual: only the "
            "action 'quarto' wins, a missed claim may be taken by the opponent (Q5.3)"
        ),
    )

    @field_validator("attributes", mode="before")
    @classmethod
    def _split(cls, value: Any) -> Any:
        if isinstance(value, str):
            value = [part.strip().lower() for part in value.split(",") if part.strip()]
        if isinstance(value, list | tuple):
            value = ["colour" if v == "color" else v for v in value]
        if isinstance(value, list | tuple | set | frozenset) and not value:
            raise ValueError(_("at least one attribute must count (Q4.5)"))
        return value

    @field_serializer("attributes")
    def _ordered(self, value: frozenset[str]) -> list[str]:
        return [name for name in ATTRIBUTES if name in value]


class Rules(NamedTuple):
    """The variant in force: patterns through each square, counted values, claim mode."""

    # For each square: (mask, shift, shift, shift, shift) of every pattern through it.
    through: tuple[tuple[tuple[int, int, int, int, int], ...], ...]
    attr8: int
    manual: bool
    patterns: tuple[tuple[int, ...], ...]


def make_rules(squares: bool, counted: frozenset[str], manual: bool) -> Rules:
    """Precompute the variant's pattern tables (Q4.1, Q4.4, Q4.5, Q5)."""
    table: list[list[tuple[int, int, int, int, int]]] = [[] for _ in range(16)]
    chosen = patterns(squares)
    for pattern in chosen:
        mask = sum(1 << s for s in pattern)
        a, b, c, d = (8 * s for s in pattern)
        for s in pattern:
            table[s].append((mask, a, b, c, d))
    return Rules(tuple(tuple(t) for t in table), attribute_mask(counted), manual, chosen)


class State(NamedTuple):
    """A Quarto position. ``board`` holds one byte per square (see ``pieces.encode``)."""

    board: int
    occupied: int  # bit per occupied square
    pool: int  # bit per piece still to be given
    hand: int  # the piece to place, or -1
    player: int  # 1 or 2: who acts (the winner, or 0 for a draw, once over)
    phase: int
    last: int  # square of the latest placement, or -1
    rules: Rules


def initial(rules: Rules) -> State:
    """Empty board, all 16 pieces in the pool, player 1 gives (Q3.1, Q3.2)."""
    return State(0, 0, FULL, -1, 1, GIVE, -1, rules)


def piece_at(state: State, square: int) -> int:
    """The piece on ``square`` (the square must be occupied)."""
    return (state.board >> (8 * square)) & 15


def wins_through(board: int, occupied: int, square: int, rules: Rules) -> bool:
    """True when a complete pattern through ``square`` shares a counted value (Q4.2)."""
    attr8 = rules.attr8
    for mask, a, b, c, d in rules.through[square]:
        if (
            occupied & mask == mask
            and (board >> a) & (board >> b) & (board >> c) & (board >> d) & attr8
        ):
            return True
    return False


def to_act(state: State) -> int | None:
    """The seat to act (Q3.2/Q3.3: the giver, then the placer), None once it is over."""
    return None if state.phase == OVER else state.player


def claim_is_true(state: State) -> bool:
    """Whether a ``quarto`` now would win: a pattern through the last placement (Q5.2/Q5.3)."""
    return state.last >= 0 and wins_through(state.board, state.occupied, state.last, state.rules)


def claim_moment(state: State) -> bool:
    """Whether a claim may be made now, true or not (Q5.5: listing reveals nothing)."""
    return state.rules.manual and state.last >= 0 and state.phase != OVER


_GIVES: dict[int, tuple[int, ...]] = {}
_PLACES: dict[int, tuple[int, ...]] = {}


def gives(pool: int) -> tuple[int, ...]:
    """Give actions for the pieces in ``pool``."""
    try:
        return _GIVES[pool]
    except KeyError:
        acts = _GIVES[pool] = tuple(p for p in range(16) if pool >> p & 1)
        return acts


def places(occupied: int) -> tuple[int, ...]:
    """Place actions for the empty squares."""
    try:
        return _PLACES[occupied]
    except KeyError:
        acts = _PLACES[occupied] = tuple(PLACE_BASE + s for s in range(16) if not occupied >> s & 1)
        return acts


def legal(state: State) -> tuple[int, ...]:
    """Every action ``apply`` accepts; a false claim is not among them (Q5.5)."""
    phase = state.phase
    if phase == PLACE:
        acts = places(state.occupied)
    elif phase == GIVE:
        acts = gives(state.pool)
    elif phase == OVER:
        return ()
    else:
        acts = (DONE,)
    if state.rules.manual and state.last >= 0 and claim_is_true(state):
        return (QUARTO, *acts)
    return acts


def listing(state: State) -> tuple[int, ...]:
    """Legal actions plus ``quarto`` whenever a claim may be made, true or not (Q5.5)."""
    acts = legal(state)
    if claim_moment(state) and QUARTO not in acts:
        return (QUARTO, *acts)
    return acts


def apply(state: State, action: int) -> State:
    """The state after a legal ``action``; ``state`` is not changed."""
    board, occupied, pool, hand, player, phase, last, rules = state
    if action >= PLACE_BASE:
        if action < QUARTO:  # Q3.3 place the piece in hand
            square = action - PLACE_BASE
            board |= (hand | ((~hand & 15) << 4)) << (8 * square)
            occupied |= 1 << square
            if rules.manual:  # Q5.2: only a claim wins; Q5.4 after the 16th placement
                return State(
                    board, occupied, pool, -1, player, GIVE if pool else LAST_CLAIM, square, rules
                )
            if wins_through(board, occupied, square, rules):  # Q5.1
                return State(board, occupied, pool, -1, player, OVER, square, rules)
            if not pool:  # Q6.1: all 16 placed, no win
                return State(board, occupied, 0, -1, 0, OVER, square, rules)
            return State(board, occupied, pool, -1, player, GIVE, square, rules)
        if action == QUARTO:  # Q5.2/Q5.3: a true claim wins for the claimant
            return State(board, occupied, pool, hand, player, OVER, last, rules)
        if phase == LAST_CLAIM:  # Q5.4: done; the opponent may still claim
            return State(board, occupied, pool, hand, 3 - player, ANSWER, last, rules)
        return State(board, occupied, pool, hand, 0, OVER, last, rules)  # both done: draw
    # Q3.2 give a piece from the pool to the opponent
    return State(board, occupied, pool & ~(1 << action), action, 3 - player, PLACE, last, rules)


__all__ = ["DONE", "GIVE", "OVER", "PLACE", "QUARTO", "Rules", "State", "encode", "make_rules"]


def config(players: int, options: BaseModel) -> Rules:
    """The plain config the rules read (every plugin spells it so, docs/plugins.md): the
    precomputed variant of an options model, cached per combination (two players, Q1)."""
    opts = options_as(QuartoOptions, options)
    key = (opts.squares, opts.attributes, opts.claim == "manual")
    cached = _RULES.get(key)
    if cached is None:
        cached = _RULES[key] = make_rules(*key)
    return cached


_RULES: dict[tuple[bool, frozenset[str], bool], Rules] = {}


def win_text(state: State) -> str:
    """The winning pattern(s) through the last placement, e.g. ``a2 b2 c2 d2 (tall)``."""
    found = []
    mask = state.rules.attr8
    for pattern in state.rules.patterns:
        if state.last in pattern and all(state.occupied >> s & 1 for s in pattern):
            shared = shared_values(tuple(piece_at(state, s) for s in pattern), mask)
            if shared:
                squares = " ".join(SQUARE_NAMES[s] for s in pattern)
                values = Msg.joined(", ", [VALUE_TEXT.get(v, v) for v in shared])
                found.append(_("{squares} ({values})", squares=squares, values=values))
    return Msg.joined("; ", found) if found else _("a winning pattern")


def refusal(state: State, action: int) -> str:
    """Why a well-formed action is refused now, citing the rule."""
    phase = state.phase
    if phase == OVER:
        return _("the game is over (Q6.1)")
    if action == QUARTO:
        if not state.rules.manual:
            return _(
                "with claim=auto a win is declared by the engine; 'quarto' is not needed (Q5.1)"
            )
        if state.last < 0:
            return _("no piece has been placed yet, so there is nothing to claim (Q5.2)")
        return _(
            "no winning pattern runs through {square}, the piece just placed; "
            "the claim is refused and nothing changes (Q5.5)",
            square=SQUARE_NAMES[state.last],
        )
    if action == DONE:
        return _("'done' only follows the 16th placement (Q5.4)")
    if action >= PLACE_BASE:
        square = action - PLACE_BASE
        if phase != PLACE:
            return _("it is time to give a piece, not to place one: place, then give (Q3.3)")
        if state.occupied >> square & 1:
            held = CODES[piece_at(state, square)]
            return _(
                "{square} is occupied by {piece}; place on an empty square (Q3.3)",
                square=SQUARE_NAMES[square],
                piece=held,
            )
        return _("that square cannot be played now (Q3.3)")
    if phase == PLACE:
        return _("you hold {piece}: place it before giving a piece (Q3.3)", piece=CODES[state.hand])
    if phase in (LAST_CLAIM, ANSWER):
        return _("no piece is left to give; play 'quarto' or 'done' (Q5.4)")
    if action == state.hand or not state.pool >> action & 1:
        return _(
            "{piece} is not in the pool: it is already placed or given (Q3.2)", piece=CODES[action]
        )
    return _("that piece cannot be given now (Q3.2)")


def outcome(state: State) -> Outcome | None:
    """A win through the last placement (Q4.1, Q5) or a full board without one (Q6.1)."""
    if state.phase != OVER:
        return None
    if not state.player:
        return Outcome((), _("all 16 pieces placed with no win: a draw (Q6.1)"), "draw")
    said = _("quarto by player {player}: {line}", player=state.player, line=win_text(state))
    return Outcome((state.player,), said, "line")


def prompt(state: State) -> str:
    """What the player to act is asked for (Q3, Q5.4)."""
    phase = state.phase
    if phase == PLACE:
        return _("place the piece {piece} on an empty square", piece=piece_words(state.hand))
    if phase == GIVE:
        return _("give the opponent a piece from the pool")
    if phase == LAST_CLAIM:
        return _("all 16 placed: claim (quarto) or done (Q5.4)")
    if phase == ANSWER:
        return _("opponent said done: claim (quarto) or done (Q5.4)")
    return _("game over")

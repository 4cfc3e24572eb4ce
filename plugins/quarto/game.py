"""Quarto as a tabletop :class:`Game`: the rules module behind the core's contract."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from tabletop.agents.base import Level
from tabletop.core.i18n.text import Domain, Msg
from tabletop.game import (
    JSON,
    AgentFactory,
    Game,
    GameInfo,
    IdLister,
    Observer,
    Outcome,
    options_as,
    position_example,
)
from tabletop_quarto import notation, position, rules
from tabletop_quarto.options import QuartoOptions
from tabletop_quarto.pieces import CODES, SQUARE_NAMES, shared_values
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
    piece_at,
)

if TYPE_CHECKING:
    from tabletop.coach.base import Coach

VERSION = "1.0.0"
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


def rules_for(options: BaseModel) -> rules.Rules:
    """The precomputed variant for an options model (cached per combination)."""
    opts = options_as(QuartoOptions, options)
    key = (opts.squares, opts.attributes, opts.claim == "manual")
    cached = _RULES.get(key)
    if cached is None:
        cached = _RULES[key] = rules.make_rules(*key)
    return cached


_RULES: dict[tuple[bool, frozenset[str], bool], rules.Rules] = {}


# What `tabletop rules` says of the position JSON, above an example.
POSITION_KEYS = """\
`board` maps squares (`a1`..`d4`) to piece codes (`DTRH`: dark/light, tall/short,
round/square, hollow/flat, Q1.1-Q1.2); `pool` lists the pieces not yet given; `in_hand` is
the piece given and not yet placed (null when none); `phase` is `give`, `place`, `claim`,
`answer` or `over`; `to_act` the player to act (null when over); `last_placed` the square of
the latest placement (for a claim, Q5.2); `winners` once over."""


class QuartoGame(Game[State, int]):
    """Quarto (Q1-Q8) with the ``squares`` and ``attributes`` variants and both claim modes."""

    info = GameInfo(
        id="quarto",
        name="Quarto",
        version=VERSION,
        min_players=2,
        max_players=2,
        options=QuartoOptions,
        summary=_("Place the piece your opponent picks; four in a line sharing a trait wins."),
        max_actions=lambda players, options: 34,
    )

    def new(self, players: int, options: BaseModel, seed: int) -> State:
        return rules.initial(rules_for(options))

    def to_act(self, state: State) -> int | None:
        return None if state.phase == OVER else state.player

    # The hot path: the rules functions themselves, with no wrapper frame.
    legal = staticmethod(rules.legal)
    listing = staticmethod(rules.listing)
    apply = staticmethod(rules.apply)

    def outcome(self, state: State) -> Outcome | None:
        if state.phase != OVER:
            return None
        if not state.player:
            return Outcome((), _("all 16 pieces placed with no win: a draw (Q6.1)"), "draw")
        said = _("quarto by player {player}: {line}", player=state.player, line=win_text(state))
        return Outcome((state.player,), said, "line")

    def winners(self, state: State) -> tuple[int, ...] | None:
        if state.phase != OVER:  # the outcome's winners without win_text (Q6.1)
            return None
        return (state.player,) if state.player else ()

    def refusal(self, state: State, action: int) -> str:
        return refusal(state, action)

    def parse(self, state: State, text: str) -> int:
        return notation.parse(text)

    def format(self, state: State, action: int) -> str:
        return notation.format_action(action)

    def prompt(self, state: State) -> str:
        phase = state.phase
        if phase == PLACE:
            return _("place {piece} on an empty square", piece=CODES[state.hand])
        if phase == GIVE:
            return _("give the opponent a piece from the pool")
        if phase == LAST_CLAIM:
            return _("all 16 placed: claim (quarto) or done (Q5.4)")
        if phase == ANSWER:
            return _("opponent said done: claim (quarto) or done (Q5.4)")
        return _("game over")

    def view(self, state: State, player: int | None) -> JSON:
        return position.to_json(state)  # Q1.3: nothing is hidden in Quarto

    def to_json(self, state: State) -> JSON:
        return position.to_json(state)

    def from_json(self, data: JSON, players: int, options: BaseModel, seed: int) -> State:
        return position.from_json(data, rules_for(options))

    def render(self, view: JSON, player: int | None) -> Any:
        from tabletop_quarto.render import render

        return render(view)

    def position_format(self) -> str:
        return POSITION_KEYS + "\n\n" + position_example(self)

    def hint(self, view: JSON, player: int, options: BaseModel) -> str:
        from tabletop_quarto.agents import hint

        return hint(view, rules_for(options))

    def coach(self, level: str) -> Coach | None:
        """Level 5 (the strongest) is exact where the solver settles (tabletop_quarto.coach);
        the other levels get the generic coach (their search)."""
        if level != "5":
            return None
        from tabletop_quarto.coach import QuartoCoach

        return QuartoCoach()

    def agents(self) -> Mapping[str, AgentFactory]:
        from tabletop_quarto.agents import AGENTS

        return AGENTS

    def levels(self) -> Mapping[str, Level]:
        from tabletop_quarto.agents import LEVELS

        return LEVELS

    # Encodings (tabletop.bridges): the action ints are the ids (see .encoding).
    def action_ids(self, players: int, options: BaseModel) -> int | None:
        from tabletop_quarto.encoding import action_ids

        return action_ids(options)

    def action_id(self, state: State, action: int) -> int:
        return action

    def action_of(self, state: State, action_id: int) -> int:
        return action_id

    def observation_shape(self, players: int, options: BaseModel) -> tuple[int, ...]:
        from tabletop_quarto.encoding import SIZE

        return (SIZE,)

    def observation(self, view: JSON, player: int, players: int, options: BaseModel) -> list[float]:
        from tabletop_quarto.encoding import observation

        return observation(view, player, options)

    def observer(self, players: int, options: BaseModel) -> Observer:
        from tabletop_quarto.encoding import observer

        return observer(options)

    def id_lister(self, players: int, options: BaseModel) -> IdLister:
        legal = rules.legal  # the action ints are the ids

        def ids(state: State) -> list[int]:
            return list(legal(state))

        return ids

    def solve(self, state: State, seconds: float | None) -> JSON | None:
        from tabletop_quarto.solver import describe, solve, summary

        solution = solve(state, seconds=seconds)
        return {**describe(solution, state), "summary": summary(solution, state)}


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

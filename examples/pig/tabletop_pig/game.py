"""Pig as a tabletop :class:`~tabletop.game.Game`: the rules of :mod:`.rules`, with
chance steps: after ``roll``, ``to_act`` is ``CHANCE`` and ``chance_outcomes`` gives the
faces; the core draws one from the match's seed (or a scenario states it: ``die 1``)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from fractions import Fraction

from pydantic import BaseModel

from tabletop.game import (
    JSON,
    Domain,
    Game,
    GameInfo,
    NotationError,
    PositionError,
    options_as,
    parse_int,
    whole,
)
from tabletop_pig import rules
from tabletop_pig.rules import CHANCE_BASE, HOLD, ROLL, PigOptions, State

_ = Domain("tabletop_pig")
VERSION = "1.0.0"
WORDS = {"roll": ROLL, "r": ROLL, "hold": HOLD, "h": HOLD, "stop": HOLD}


def _max_actions(players: int, options: BaseModel) -> int:
    # every decision may be a roll followed by its chance outcome
    return 2 * options_as(PigOptions, options).horizon + 1


class PigGame(Game[State, int]):
    """Pig (P1-P4): roll to build a turn total, hold to bank it; a 1 loses it."""

    info = GameInfo(
        id="pig",
        name="Pig",
        version=VERSION,
        min_players=2,
        max_players=10,
        options=PigOptions,
        summary=_("Roll a die to build a turn total and hold to bank it; a 1 loses the turn."),
        max_actions=_max_actions,
    )

    def new(self, players: int, options: BaseModel, seed: int) -> State:
        return rules.initial(players, options_as(PigOptions, options))  # chance comes later

    to_act = staticmethod(rules.to_act)
    legal = staticmethod(rules.legal)
    apply = staticmethod(rules.apply)
    outcome = staticmethod(rules.outcome)
    refusal = staticmethod(rules.refusal)

    def chance_outcomes(self, state: State) -> Sequence[tuple[int, Fraction]]:
        return rules.chance_outcomes(state)

    def scores(self, state: State) -> dict[int, int] | None:
        return dict(enumerate(state.scores, start=1))


    def parse(self, state: State, text: str) -> int:
        words = text.strip().lower().split()
        if state.rolling:
            face = parse_int(words[-1], 1, state.faces) if words and len(words) <= 2 else None
            if face is None or (len(words) == 2 and words[0] != "die"):
                raise NotationError(
                    _("the die is rolling: its face comes by chance, 'die 1' to 'die {n}' (P2.2)",
                      n=state.faces)
                )
            return CHANCE_BASE + face
        if len(words) == 1 and words[0] in WORDS:
            return WORDS[words[0]]
        raise NotationError(_("write 'roll' or 'hold'"))

    def format(self, state: State, action: int) -> str:
        if action >= CHANCE_BASE:
            return f"die {action - CHANCE_BASE}"
        return "roll" if action == ROLL else "hold"

    def prompt(self, state: State) -> str:
        return _("roll or hold (turn total {total})", total=state.total)

    def view(self, state: State, player: int | None) -> JSON:
        return self.to_json(state)  # perfect information: the die is never in the state

    def to_json(self, state: State) -> JSON:
        return {
            "scores": list(state.scores),
            "turn": state.turn,
            "turn_total": state.total,
            "rolling": state.rolling,
            "moves": state.moves,
        }

    def from_json(self, data: JSON, players: int, options: BaseModel, seed: int) -> State:
        start = rules.initial(players, options_as(PigOptions, options))
        top = start.winscore + 20 * start.horizon  # no score or total can pass it
        try:
            scores = tuple(whole(s, 0, top) for s in data["scores"])
            values = (whole(data["turn"], 1, players), whole(data["turn_total"], 0, top),
                      whole(data["moves"], 0, start.horizon))
            rolling = data["rolling"]
        except (KeyError, TypeError) as exc:
            raise PositionError(_("a Pig position needs scores, turn, turn_total, rolling and "
                                  "moves ({problem})", problem=str(exc))) from None
        if len(scores) != players or None in scores or None in values:
            raise PositionError(_("scores (one per player), turn (1-{n}), turn_total and moves "
                                  "must be whole numbers in their ranges", n=players))
        if not isinstance(rolling, bool):
            raise PositionError(_("rolling is true or false"))
        turn, total, moves = (int(v or 0) for v in values)
        return start._replace(scores=tuple(int(s or 0) for s in scores), turn=turn,
                              total=total, rolling=rolling, moves=moves)

    def sample(
        self, view: JSON, player: int, players: int, options: BaseModel, rng: random.Random
    ) -> State:
        return self.from_json(view, players, options, 0)



"""A test game of hidden chance for the research bridges (issue 36).

**Hidden dice** (H1-H3): H1 chance rolls a die of ``faces`` faces for player 1, then one
for player 2, each seen only by its owner; H2 player 1 says ``low`` or ``high``, then
player 2 says ``fold`` or ``call``; H3 a fold gives player 1 the win; a call compares the
dice, the higher winning (equal dice: a draw), and after ``high`` the win is worth 2
points. Its tree is small enough to count by hand: player 1 has ``faces`` information
states, player 2 ``2 * faces``.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any, NamedTuple

from pydantic import BaseModel, ConfigDict, Field

from tabletop.core.errors import NotationError, PositionError
from tabletop.game import CHANCE, JSON, Actor, Game, GameInfo, Outcome

FACE = 10  # a chance outcome: the face f is FACE + f


class DiceOptions(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    faces: int = Field(default=3, ge=2, le=6, description="H1 faces of the die: 2 to 6")


class Dice(NamedTuple):
    dice: tuple[int, int]  # 0 before rolled
    said: tuple[int, ...]  # player 1's word (0 low, 1 high), then player 2's (0 fold, 1 call)
    faces: int


class Encoding:
    """The encoding facet: actions 0/1, chance ids face - 1, the view as numbers."""

    @staticmethod
    def action_ids(players: int, options: BaseModel) -> int:
        return 2

    @staticmethod
    def action_id(state: Dice, action: Any) -> int:
        return int(action)

    @staticmethod
    def action_of(state: Dice, action_id: int) -> int:
        if action_id not in (0, 1):
            raise ValueError(action_id)
        return action_id

    @staticmethod
    def chance_ids(players: int, options: BaseModel) -> int:
        assert isinstance(options, DiceOptions)
        return options.faces

    @staticmethod
    def chance_id(state: Dice, outcome: Any) -> int:
        return int(outcome) - FACE - 1

    @staticmethod
    def chance_of(state: Dice, chance_id: int) -> int:
        return FACE + chance_id + 1

    @staticmethod
    def observation_shape(players: int, options: BaseModel) -> tuple[int, ...]:
        return (3,)

    @staticmethod
    def observation(view: JSON, player: int, players: int, options: BaseModel) -> list[float]:
        said = [*view["said"], -1, -1]
        return [float(view["mine"]), float(said[0]), float(said[1])]


class HiddenDiceGame(Game[Dice, int]):
    """Hidden dice: two hidden chance steps, then two decisions."""

    info = GameInfo(
        "hiddendice",
        "Hidden dice",
        "1.0",
        2,
        2,
        DiceOptions,
        "A test of hidden chance.",
        hidden_information=True,
    )
    facets = {"encoding": Encoding, "agents": None, "coach": None}  # noqa: RUF012

    def new(self, players: int, options: BaseModel, seed: int) -> Dice:
        assert isinstance(options, DiceOptions)
        return Dice((0, 0), (), options.faces)

    def to_act(self, state: Dice) -> Actor:
        if 0 in state.dice:
            return CHANCE
        if len(state.said) == 2 or state.said == ():
            return None if len(state.said) == 2 else 1
        return 2

    def chance_outcomes(self, state: Dice) -> Sequence[tuple[int, Fraction]]:
        return [(FACE + f, Fraction(1, state.faces)) for f in range(1, state.faces + 1)]

    def legal(self, state: Dice) -> Sequence[int]:
        actor = self.to_act(state)
        if actor == CHANCE:
            return [o for o, _p in self.chance_outcomes(state)]
        return (0, 1) if actor else ()

    def apply(self, state: Dice, action: int) -> Dice:
        if action > FACE:
            dice = list(state.dice)
            dice[dice.index(0)] = action - FACE
            return state._replace(dice=(dice[0], dice[1]))
        return state._replace(said=(*state.said, action))

    def outcome(self, state: Dice) -> Outcome | None:
        if len(state.said) < 2:
            return None
        if state.said[1] == 0:
            return Outcome((1,), "H3: a fold", "fold")
        one, two = state.dice
        if one == two:
            return Outcome((), "H3: equal dice", "draw")
        return Outcome((1,) if one > two else (2,), "H3: the higher die", "call")

    def scores(self, state: Dice) -> dict[int, int] | None:
        outcome = self.outcome(state)
        if outcome is None or not outcome.winners:
            return {1: 0, 2: 0}
        worth = 2 if state.said[0] == 1 else 1
        return {p: worth if p in outcome.winners else 0 for p in (1, 2)}

    def refusal(self, state: Dice, action: int) -> str:
        return "H2: say one of the two words"

    def parse(self, state: Dice, text: str) -> int:
        words = {"low": 0, "high": 1} if not state.said else {"fold": 0, "call": 1}
        if text.strip() not in words:
            raise NotationError("H2: write " + " or ".join(words))
        return words[text.strip()]

    def format(self, state: Dice, action: int) -> str:
        if action > FACE:
            return f"die {action - FACE}"
        return (("low", "high") if not state.said else ("fold", "call"))[action]

    def view(self, state: Dice, player: int | None) -> JSON:
        mine = state.dice[player - 1] if player else 0
        over = len(state.said) == 2 and state.said[1] == 1
        return {"mine": mine, "said": list(state.said), "shown": list(state.dice) if over else []}

    def to_json(self, state: Dice) -> JSON:
        return {"dice": list(state.dice), "said": list(state.said)}

    def from_json(self, data: JSON, players: int, options: BaseModel, seed: int) -> Dice:
        try:
            dice = (int(data["dice"][0]), int(data["dice"][1]))
            said = tuple(int(s) for s in data["said"])
        except (KeyError, TypeError, ValueError, IndexError):
            raise PositionError("H: dice and said") from None
        assert isinstance(options, DiceOptions)
        return Dice(dice, said, options.faces)

"""The Čtverák game object: the contract of :class:`tabletop.game.Game`, wired to the modules.

``rules`` holds the rules, the options and the plain config, ``notation`` the text,
``position`` the JSON and views, ``render`` the terminal drawing, ``agents`` the AIs, their
levels (``agents.levels``), the evaluation (``agents.evaluation``) and the hint, ``coach``
the coach; this class only connects them.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from tabletop.game import (
    JSON,
    AgentFactory,
    Domain,
    Game,
    GameInfo,
    IdLister,
    Observer,
    options_as,
    position_example,
    translate,
)
from tabletop_ctverak import encoding, notation, position, rules
from tabletop_ctverak.rules import Action, CtverakOptions, State, action_bound, config

if TYPE_CHECKING:
    from tabletop.agents.base import Level
    from tabletop.coach.base import Coach

_ = Domain("tabletop_ctverak")


def max_actions(players: int, options: BaseModel) -> int:
    """A true upper bound on the actions of one game (:func:`rules.action_bound`)."""
    opts = options_as(CtverakOptions, options)
    return action_bound(players, opts.deck == "half", opts.stall_limit)


class CtverakGame(Game[State, Action]):
    """Čtverák: collect four čtverky (four-card melds of one rank) before the others."""

    info = GameInfo(
        id="ctverak",
        name="Čtverák",
        version="0.1.0",
        min_players=2,
        max_players=6,
        options=CtverakOptions,
        summary=_(
            "Rummy-like card game: be first to lay four čtverky (four of a rank); jokers wild."
        ),
        hidden_information=True,
        max_actions=max_actions,
        # K6.2: with scoring=extended a game is worth its points, not only its win
        points_decide=lambda options: getattr(options, "scoring", "simple") == "extended",
    )

    def new(self, players: int, options: BaseModel, seed: int) -> State:
        return rules.new_state(config(players, options_as(CtverakOptions, options), seed))

    def to_act(self, state: State) -> int | None:
        return None if state.step == rules.OVER else state.player

    def legal(self, state: State) -> Sequence[Action]:
        return rules.legal(state)

    def apply(self, state: State, action: Action) -> State:
        return rules.apply(state, action)

    outcome = staticmethod(rules.outcome)

    def winners(self, state: State) -> tuple[int, ...] | None:
        return state.winners if state.step == rules.OVER else None  # no reason text built

    def scores(self, state: State) -> dict[int, int] | None:
        return rules.scores(state)

    refusal = staticmethod(rules.refusal)

    def parse(self, state: State, text: str) -> Action:
        return notation.parse_action(state, text)

    def format(self, state: State, action: Action) -> str:
        return notation.format_action(action)

    prompt = staticmethod(rules.prompt)

    def view(self, state: State, player: int | None) -> JSON:
        return position.view(state, player)

    def to_json(self, state: State) -> JSON:
        return position.to_json(state)

    def from_json(self, data: JSON, players: int, options: BaseModel, seed: int) -> State:
        return position.from_json(data, config(players, options_as(CtverakOptions, options), seed))

    def render(self, view: JSON, player: int | None) -> Any:
        from tabletop_ctverak.render import render

        return render(view, player)

    def hint(self, view: JSON, player: int, options: BaseModel) -> str:
        from tabletop_ctverak.agents import hint

        return hint(view)

    def position_format(self) -> str:
        return translate(position.POSITION_KEYS) + "\n\n" + position_example(self)

    def sample(
        self, view: JSON, player: int, players: int, options: BaseModel, rng: random.Random
    ) -> State:
        opts = options_as(CtverakOptions, options)
        return position.sample(view, player, config(players, opts, rng.randrange(2**31)), rng)

    def evaluate(self, state: State, player: int) -> float | None:
        from tabletop_ctverak.agents.evaluation import evaluate

        return evaluate(state, player)

    # Encodings (tabletop.bridges): rank + card-multiset meld ids (see .encoding).
    def action_ids(self, players: int, options: BaseModel) -> int | None:
        from tabletop_ctverak.encoding import IDS

        return IDS

    # the functions themselves: the bridges call action_of every step
    action_id = staticmethod(encoding.action_id)
    action_of = staticmethod(encoding.action_of)

    def observation_shape(self, players: int, options: BaseModel) -> tuple[int, ...]:
        from tabletop_ctverak.encoding import SIZE

        return (SIZE,)

    def observation(self, view: JSON, player: int, players: int, options: BaseModel) -> list[float]:
        from tabletop_ctverak.encoding import observation

        return observation(view, player)

    def observer(self, players: int, options: BaseModel) -> Observer:
        from tabletop_ctverak.encoding import observe

        return observe

    def id_lister(self, players: int, options: BaseModel) -> IdLister:
        from tabletop_ctverak.encoding import legal_ids

        return legal_ids

    def coach(self, level: str) -> Coach | None:
        """Every level's coach is the expert playing on over sampled deals, the number
        of deals growing with the level (tabletop_ctverak.coach)."""
        from tabletop_ctverak.coach import CtverakCoach

        return CtverakCoach(samples={"1": 4, "2": 8, "3": 16, "4": 32}.get(level, 64))

    def levels(self) -> Mapping[str, Level]:
        from tabletop_ctverak.agents.levels import LEVELS

        return LEVELS

    def agents(self) -> Mapping[str, AgentFactory]:
        from tabletop_ctverak.agents import BasicAgent
        from tabletop_ctverak.agents.levels import ismcts

        # the core names levels["4"] "ismcts"; here level 4 is the basic agent (agents/levels.py)
        return {"basic": BasicAgent, "ismcts": ismcts}

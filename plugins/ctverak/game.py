"""The Čtverák game object: the rules contract of :class:`tabletop.game.Game`, bound to the
modules.

``rules`` holds the rules, the options and the plain config, ``notation`` the text,
``position`` the JSON and views. The facets are found by their module names
(:mod:`tabletop.core.facets`): ``agents`` the AIs, their levels (``agents.levels``) and the
evaluation (``agents.evaluation``), ``coach`` the coach and the hint, ``encoding`` the
encodings, ``render`` the terminal drawing; this class only binds the rules.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from fractions import Fraction

from pydantic import BaseModel

from tabletop.game import CHANCE, JSON, Actor, Domain, Game, GameInfo, options_as
from tabletop_ctverak import notation, position, rules
from tabletop_ctverak.rules import Action, CtverakOptions, State, action_bound, config

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
        version="0.2.0",  # 0.2: the deal and the draws are chance steps (issue 35)
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
        # the seed is not read: the deal comes as chance steps (K2.1, issue 35)
        return rules.new_state(config(players, options_as(CtverakOptions, options)))

    def to_act(self, state: State) -> Actor:
        step = state.step
        if step >= rules.DEAL:
            return CHANCE
        return None if step == rules.OVER else state.player

    def chance_outcomes(self, state: State) -> Sequence[tuple[Action, Fraction]]:
        return rules.chance_outcomes(state)

    def tells(
        self, state: State, action: Action, actor: int, viewer: int | None, now: State
    ) -> bool | None:
        """A card dealt or drawn from the stock is told to whoever gets it (K8), to
        nobody for a base (K2.2), and to everyone once the game is over (every hand and
        base is shown then); the core decides for the players' own actions."""
        kind = action[0]
        if kind not in (rules.DEAL_CARD, rules.TAKE):
            return None
        if now.step == rules.OVER:
            return True
        if kind == rules.TAKE:
            return viewer == state.player
        target = rules.deal_target(state.cfg.players, rules.dealt(state), state.cfg.hand)
        return bool(target) and viewer == target

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
        return position.from_json(data, config(players, options_as(CtverakOptions, options)))

    def sample(
        self, view: JSON, player: int, players: int, options: BaseModel, rng: random.Random
    ) -> State:
        opts = options_as(CtverakOptions, options)
        return position.sample(view, player, config(players, opts), rng)

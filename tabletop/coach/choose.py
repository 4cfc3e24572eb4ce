"""Which coach a game gets (its own, else its level's search) and the turn it judges."""

from __future__ import annotations

import hashlib
import json
import random
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from tabletop.agents.base import Budget, Turn
from tabletop.agents.levels import agent_levels, generic_levels
from tabletop.agents.search import SearchAgent
from tabletop.coach.base import Assessment, Coach
from tabletop.coach.facet import coaching_of
from tabletop.coach.hints import hint_text
from tabletop.coach.search import SearchCoach
from tabletop.core.errors import UsageError
from tabletop.core.i18n.formats import Count
from tabletop.core.i18n.text import Domain, Msg
from tabletop.core.presentation import presentation_of
from tabletop.game import JSON, Game, player_of

if TYPE_CHECKING:
    from pydantic import BaseModel

_ = Domain("tabletop")
STRONGEST = "5"
LEVELS = ("1", "2", "3", "4", "5")
HINT_SECONDS = 2.0  # a hint answers within about this
FALLBACK_PLAYOUTS = 200  # a coach for a level without a search of its own (1, 2)


def coach_for(game: Game[Any, Any], level: str = STRONGEST) -> Coach:
    """The coach that analyses like ``level`` (1-5, default the strongest): the game's
    own (``coach(level)`` of its coach module, :mod:`.facet`), else ``level``'s tree
    search read out (:class:`SearchCoach`); a level whose player is no search (random,
    greedy, a game's own rule-based player) gets the generic search of that level's
    budget. UsageError for another level."""
    if level not in LEVELS:
        raise UsageError(
            _(
                "unknown coach level {level}; levels are {levels}",
                level=repr(level),
                levels=", ".join(LEVELS),
            )
        )
    own = coaching_of(game).coach(level)
    if own is not None:
        return own
    chosen = agent_levels(game)[level]
    agent = chosen.make()
    if isinstance(agent, SearchAgent):
        return SearchCoach(
            agent,
            chosen.budget,
            _("level {level}: {description}", level=level, description=chosen.description),
        )
    generic = generic_levels(game)[level if level in ("3", "4", "5") else "3"]
    budget = generic.budget
    if level not in ("3", "4", "5"):
        budget = Budget(iterations=FALLBACK_PLAYOUTS, seconds=HINT_SECONDS)
    playouts = budget.iterations
    method = _("the generic tree search, {n} playouts", n=Count(playouts or 0, grouped=False))
    return SearchCoach(SearchAgent(), budget, method)


def rng_for(view: JSON, player: int) -> random.Random:
    """A generator seeded by the view itself: the same view, the same hint and verdicts."""
    text = json.dumps(view, sort_keys=True, ensure_ascii=False)
    digest = hashlib.sha256(f"{player}:{text}".encode()).hexdigest()
    return random.Random(digest)


def turn_for(
    game: Game[Any, Any],
    state: Any,
    players: int,
    options: BaseModel,
    budget: Budget | None = None,
    player: int | None = None,
) -> Turn:
    """The turn of the player to act in ``state`` (at a simultaneous step, of ``player``,
    one of those choosing) as an agent would get it: their view, their actions, a
    generator seeded by the view (:func:`rng_for`), ``budget`` (default: at most
    :data:`HINT_SECONDS`). Nothing else of ``state`` goes in."""
    actor = game.to_act(state)
    sealed = isinstance(actor, frozenset)
    if isinstance(actor, frozenset):
        player = player if player in actor else min(actor)
    else:
        player = player_of(actor)
    if player is None:
        raise ValueError("nobody is to act: the game is over, or chance acts")
    view = game.view(state, player)
    legal = list(game.choices(state, player) if sealed else game.legal(state))
    chosen = budget or Budget(seconds=HINT_SECONDS)
    return Turn(game, player, players, options, view, legal, rng_for(view, player), chosen)


def hint_for(
    game: Game[Any, Any], state: Any, players: int, options: BaseModel, player: int | None = None
) -> tuple[str, Assessment]:
    """The hint for the player to act in ``state`` (at a simultaneous step, ``player``):
    the game's own line of advice (when it has one), then the coach's judgement of every
    action they have (about 2 s), both from that player's view only; and the assessment
    itself (for the browser's table)."""
    turn = turn_for(game, state, players, options, player=player)
    assessment = in_words(coach_for(game).assess(turn), game, state)
    judged = hint_text(assessment)
    own = coaching_of(game).hint(turn.view, turn.player, options)
    return (Msg.joined("\n", [own, judged]) if own else judged), assessment


def in_words(assessment: Assessment, game: Game[Any, Any], state: Any) -> Assessment:
    """``assessment`` with each action's words (``said``: the game's ``action_text`` of
    the action in ``state``), as hints and reviews show them."""
    shown = presentation_of(game)
    judged = tuple(
        replace(j, said=shown.action_text(state, j.action)) for j in assessment.judgements
    )
    return replace(assessment, judgements=judged)

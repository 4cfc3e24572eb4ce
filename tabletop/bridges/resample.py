"""Resampling a game with chance steps: a history of the bridge's own tree that one
player cannot tell from the real one (issue 36).

:func:`consistent_chain` walks the real history from its root and builds another one
link by link: the player's own actions as they were; each chance outcome drawn again by
its probability (``Game.chance_outcomes`` of the state reached) among those after which
the player sees exactly what they saw (``Game.view`` of the player and of a spectator,
so that the player's records and every public one stay true); another player's action
kept where the player is told it (perfect information, or ``Game.tells``/``Game.hides``
says so) where it is legal in the history built so far (a card played must be in the
hand drawn), else drawn among that player's legal actions (a simultaneous step's hidden
choices likewise) under the same test. A choice that leaves no way on is taken back and
another tried (depth first); after :data:`BUDGET` tries it gives up (None), and the
caller samples the player's view instead (never the real history: that is the truth).
At a chance step the outcomes are tried in an order :mod:`.demands` sets: the outcome
the player is told there, or one another player later plays (the card they meld or
discard must have reached their hand unseen before), first; those kept for later links
last. So the search rarely backtracks, and nearly every resample is a history.
The draw goes forward by the outcomes' probabilities
among those consistent so far: the player's posterior exactly where what they see later
does not depend on an earlier unseen outcome, an approximation of it elsewhere.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

from tabletop.bridges.common import Setup
from tabletop.bridges.demands import demands
from tabletop.bridges.recall import CHANCE, SIMULTANEOUS, Step
from tabletop.game import CHANCE as TABLETOP_CHANCE

BUDGET = 2_000  # states tried before giving up (the caller then samples the view)
PASS = 0  # the id in the history of a player outside a simultaneous step's set
MOST_JOINT = 4096  # the most joint choices of the others tried at one simultaneous step

History = list[tuple[int, int]]


def chain_of(step: Step) -> list[Step]:
    """The links of a history from its root to ``step``."""
    links: list[Step] = []
    node: Step | None = step
    while node is not None:
        links.append(node)
        node = node.parent
    return links[::-1]


def history_entries(link: Step, players: int) -> History:
    """The OpenSpiel history entries of one link (one per player at a simultaneous step)."""
    if link.actor == SIMULTANEOUS and isinstance(link.action, tuple):
        return [(p, PASS if a is None else int(a)) for p, a in enumerate(link.action)]
    return [(int(link.actor or 0), int(link.action or 0))]  # type: ignore[arg-type]


def _weighted_order(outcomes: list[tuple[int, Any, float]], rng: random.Random) -> list[Any]:
    """The outcomes in a random order where each comes first by its probability
    (Efraimidis-Spirakis keys)."""
    keyed = [(rng.random() ** (1.0 / max(p, 1e-300)), i, o) for i, o, p in outcomes]
    keyed.sort(reverse=True)
    return [(i, o) for _k, i, o in keyed]


def _told(config: Setup, link: Step, player: int) -> bool:
    """Whether ``player`` is told the action of ``link`` (another player's)."""
    game = config.game
    if not game.info.hidden_information:
        return True
    before = link.parent.state if link.parent is not None else None
    if before is None or link.actor == SIMULTANEOUS:
        said = None
    else:
        action = config.encoding.action_of(before, int(link.action))  # type: ignore[arg-type]
        said = game.tells(before, action, int(link.actor or 0) + 1, player + 1, link.state)
        if said is None:
            said = not game.hides(before, action)
    return bool(said)


def _candidates(
    config: Setup,
    link: Step,
    state: Any,
    player: int,
    rng: random.Random,
    want: int | None = None,
    keep: Counter[int] | None = None,
) -> Iterator[tuple[Any, int, Any]]:
    """The (action, actor, taken ids) that may replace ``link``'s action at ``state``;
    at a chance step the outcome of id ``want`` first and those of ``keep`` last
    (:mod:`.demands`)."""
    game, enc = config.game, config.encoding
    actor = link.actor
    if actor == CHANCE:
        outcomes = [(enc.chance_id(state, o), o, float(p)) for o, p in game.chance_outcomes(state)]
        order = _weighted_order(outcomes, rng)
        if want is not None or keep:
            kept = keep or Counter()
            order.sort(key=lambda pair: 0 if pair[0] == want else 2 if kept[pair[0]] else 1)
        for chance_id, outcome in order:
            yield outcome, CHANCE, chance_id
        return
    if actor == SIMULTANEOUS and isinstance(link.action, tuple):
        taken = link.action
        acting = sorted(game.to_act(state))  # type: ignore[arg-type]
        if not game.info.hidden_information:
            options = [[int(taken[p - 1] or 0)] for p in acting]
        else:
            options = []
            for p in acting:
                if p == player + 1:
                    options.append([int(taken[p - 1] or 0)])
                else:
                    ids = [enc.action_id(state, c) for c in game.choices(state, p)]
                    rng.shuffle(ids)
                    options.append(ids)
        for joint_ids in itertools.islice(itertools.product(*options), MOST_JOINT):
            joint = tuple(enc.action_of(state, i) for i in joint_ids)
            by_seat = dict(zip(acting, joint_ids, strict=True))
            yield joint, SIMULTANEOUS, tuple(by_seat.get(p + 1) for p in range(len(taken)))
        return
    real = int(link.action)  # type: ignore[arg-type]
    if actor == player or _told(config, link, player):
        action = enc.action_of(state, real)
        if action in game.legal(state):  # a told card must be in the drawn hand
            yield action, int(actor or 0), real
        return
    ids = [enc.action_id(state, a) for a in game.legal(state)]
    rng.shuffle(ids)
    for i in ids:
        yield enc.action_of(state, i), int(actor or 0), i


def consistent_chain(
    config: Setup, step: Step, player: int, rng: random.Random
) -> tuple[Step, History] | None:
    """Another history ``player`` (0-based) cannot tell from the one ending at ``step``
    (module docstring): its last link and its OpenSpiel history; None when none was found
    within :data:`BUDGET` tries."""
    game = config.game
    real = chain_of(step)
    root = Step(
        None, real[0].state, inherited=real[0].inherited, inherited_arrays=real[0].inherited_arrays
    )
    seen = [(game.view(link.state, player + 1), game.view(link.state, None)) for link in real]
    built = [root]
    tries: list[Iterator[tuple[Any, int, Any]]] = []
    given, kept = demands(config, real, player, rng)
    budget = BUDGET
    while len(built) < len(real) and budget > 0:
        at = len(built)
        if len(tries) < at:
            link, state = real[at], built[-1].state
            tries.append(_candidates(config, link, state, player, rng, given.get(at), kept.get(at)))
        found = None
        for action, actor, taken in tries[at - 1]:
            budget -= 1
            state = built[-1].state
            if actor == CHANCE and game.to_act(state) != TABLETOP_CHANCE:
                break
            after = game.apply(state, action)
            if (game.view(after, player + 1), game.view(after, None)) == seen[at]:
                found = built[-1].then(after, actor, taken)
                break
            if budget <= 0:
                break
        if found is not None:
            built.append(found)
        else:  # nothing fits here: take the link before back
            tries.pop()
            built.pop()
            if not built:
                break
    if len(built) < len(real):
        return None
    history: History = []
    for link in built[1:]:
        history.extend(history_entries(link, config.players))
    return built[-1], history

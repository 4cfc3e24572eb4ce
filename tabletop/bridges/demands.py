"""What a resampled history must deal to whom (issue 36): the hidden chance outcomes
that another player's later actions need, placed before they are needed, and those the
player is told, kept for their links.

A card another player later plays (melds, adds, discards) must have reached that
player's hand by a chance step the resampling player was not told (a deal, a stock
draw) before it is played; drawn uniformly, such cards are almost never where the
told actions need them. :func:`demands` finds them in the real history without
naming a game: a hidden chance outcome is *needed* when replacing it by another
(swapping the two where the other comes later) makes a later action of the history
illegal. Each needed outcome is then given, by its chance id, to a link drawn
uniformly among the hidden chance links of the same receiver (the player the game
tells it, :meth:`~tabletop.game.Game.tells`) before the action that needs it; the
resampler draws it there first, and draws the outcomes given to later links last
elsewhere, so they are still unseen when their link comes (:mod:`.resample`). The
outcomes the player is told are given to their own links the same way (the views
require them there).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from tabletop.bridges.common import Setup
from tabletop.bridges.recall import CHANCE, SIMULTANEOUS, Step
from tabletop.game import CHANCE as TABLETOP_CHANCE

Demands = dict[int, int]  # link index: the chance id to draw there first


def demands(
    config: Setup, real: Sequence[Step], player: int, rng: random.Random
) -> tuple[Demands, dict[int, Counter[int]]]:
    """The chance ids to draw first at links of the resampled history, and for each
    link the ids given to the links after it (to be kept for them); ``player`` 0-based."""
    if any(link.actor == SIMULTANEOUS for link in real):
        return {}, {}
    links_of: dict[int, list[int]] = {}  # receiver: their hidden chance links, in order
    needed: list[tuple[int, int, int]] = []  # (needed at, receiver, chance id)
    given: Demands = {}
    for at in range(1, len(real)):
        receiver = _receiver(config, real, at, player)
        if receiver == player + 1:  # the player is told it: the same outcome, kept for it
            given[at] = int(real[at].action)  # type: ignore[arg-type]
        if receiver is None or receiver == player + 1:
            continue
        links_of.setdefault(receiver, []).append(at)
        by = _needed_by(config, real, at)
        if by is not None:
            needed.append((by, receiver, int(real[at].action)))  # type: ignore[arg-type]
    for by, receiver, chance_id in sorted(needed):  # the earliest need first
        free = [at for at in links_of[receiver] if at < by and at not in given]
        if free:
            given[rng.choice(free)] = chance_id
    kept: dict[int, Counter[int]] = {}
    later: Counter[int] = Counter()
    for at in range(len(real) - 1, 0, -1):
        kept[at] = later.copy()
        if at in given:
            later[given[at]] += 1
    return given, kept


def _receiver(config: Setup, real: Sequence[Step], at: int, player: int) -> int | None:
    """The seat (1-based) told the outcome of chance link ``at``: ``player`` (0-based)
    when they are told it, else another seat told it, else None."""
    link = real[at]
    if link.actor != CHANCE:
        return None
    game, before = config.game, real[at - 1].state
    outcome = config.encoding.chance_of(before, int(link.action))  # type: ignore[arg-type]
    if game.tells(before, outcome, TABLETOP_CHANCE, player + 1, link.state):
        return player + 1
    for seat in range(1, config.players + 1):
        if seat != player + 1 and game.tells(before, outcome, TABLETOP_CHANCE, seat, link.state):
            return seat
    return None


def _needed_by(config: Setup, real: Sequence[Step], at: int) -> int | None:
    """The first later link whose action turns illegal when the outcome of chance link
    ``at`` is replaced by another (the two swapped where the other comes later); None
    when none does (or the replay cannot tell)."""
    game, enc = config.game, config.encoding
    before = real[at - 1].state
    taken = int(real[at].action)  # type: ignore[arg-type]
    others = [o for o, _p in game.chance_outcomes(before) if enc.chance_id(before, o) != taken]
    if not others:
        return None
    other = enc.chance_id(before, others[0])
    state = game.apply(before, others[0])
    for k in range(at + 1, len(real)):
        link = real[k]
        if link.actor == CHANCE:
            if game.to_act(state) != TABLETOP_CHANCE:
                return None
            chance_id = int(link.action)  # type: ignore[arg-type]
            unseen = {enc.chance_id(state, o): o for o, _p in game.chance_outcomes(state)}
            if chance_id not in unseen and chance_id == other:
                chance_id = taken  # the swap: the replaced outcome comes here
            if chance_id not in unseen:
                return None
            state = game.apply(state, unseen[chance_id])
            continue
        try:
            action = enc.action_of(state, int(link.action))  # type: ignore[arg-type]
        except ValueError:
            return k
        if action not in game.legal(state):
            return k
        state = game.apply(state, action)
    return None

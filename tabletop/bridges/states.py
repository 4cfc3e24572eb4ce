"""Whole OpenSpiel states of the bridge: pickling, copying and resampling (issue 41).

**Pickle and copy.** A tabletop pyspiel game pickles as its game string (``str(game)``,
e.g. ``tabletop_quartino(max_turns=8,players=2,...)``) and unpickles through
:func:`tabletop.bridges.openspiel.load_game`, which registers the tabletop games first,
so a fresh process (a ``multiprocessing`` spawn, a Ray worker) can unpickle it. A state
pickles as its game string, its OpenSpiel history (player and action of every step, the
move number) and its chain of tabletop states (:class:`~tabletop.bridges.recall.Step`,
flat); it unpickles through :func:`tabletop.bridges.openspiel.restore_state` (with
:func:`with_history`) to an equal state: the same history, information states, legal
actions and returns. ``copy.copy``/``copy.deepcopy`` take the same way.

**Resampled states are histories of the bridge's tree** (issue 36).
:func:`resampled_state` is what ``state.resample_from_infostate(p, sampler)`` returns.
For a game with chance steps it is a history p cannot tell from the real one
(:mod:`.resample`): the same length and move number, p's own actions as they were, the
chance outcomes and the others' hidden actions drawn again so that p sees exactly what
p saw at every step. For a game without chance steps (its deal a fixed parameter) it is
a state the game samples from p's view (:meth:`~tabletop.game.Game.sample`) with

- the same history length and move number as the real state: p's own actions as they
  were, another player's action as it was unless the game says its text shows something
  hidden (:meth:`~tabletop.game.Game.hides`; then ``pyspiel.INVALID_ACTION``, -1);
- p's records carried over for every observer kind p may hold (the information state's,
  the private-only one, the public one), and the public record of every player, whatever
  was asked of the real state before: p's information-state string and tensor and every
  public observation (perfect recall or not) are the real state's. Records that hold
  another player's private view (``ALL_PLAYERS`` kinds, another seat's information state)
  start at the resampling: p cannot know them.
"""

from __future__ import annotations

import base64
import pickle
import random
from typing import Any

import pyspiel

from tabletop.bridges.observers import Kind, summary
from tabletop.bridges.recall import CHANCE, Memo, Step, record
from tabletop.game import CHANCE as TABLETOP_CHANCE

PRIVATE = pyspiel.PrivateInfoType
HIDDEN = int(pyspiel.INVALID_ACTION)  # another player's action whose text is hidden
_EMPTY = base64.b64encode(pickle.dumps({})).decode()  # no Python attributes to set
# the observer kinds a player may hold (public, private) and whether they are everyone's
_OWN = ((True, PRIVATE.SINGLE_PLAYER, False), (False, PRIVATE.SINGLE_PLAYER, False))
_PUBLIC = (True, PRIVATE.NONE, True)

History = list[tuple[int, int]]


class Frozen:
    """A holder that copying shares: tabletop states are immutable, so a clone of an
    OpenSpiel state may share them (no deep copy of a whole position per clone)."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __deepcopy__(self, memo: dict[int, Any]) -> Frozen:
        return self

    def __copy__(self) -> Frozen:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (Frozen, (self.value,))


def own_kinds(config: Any) -> list[tuple[Kind, bool]]:
    """The observer kinds whose records a resampled state keeps, each with whether it is
    kept for every player (the public one) or for the resampling player only."""
    return [
        (
            Kind(
                config,
                pyspiel.IIGObservationType(
                    public_info=public, perfect_recall=True, private_info=private
                ),
            ),
            everyone,
        )
        for public, private, everyone in (*_OWN, _PUBLIC)
    ]


def with_history(game: Any, history: History, move_number: int, **attributes: Any) -> Any:
    """A new state of ``game`` whose OpenSpiel history and move number are given (the
    way OpenSpiel's own Python states deserialize) and whose attributes are set."""
    text = ",".join(f"{player}:{action}" for player, action in history)
    state = game.deserialize_state(f"history={text}\nmove_number={move_number}\n__dict__={_EMPTY}")
    for name, value in attributes.items():
        setattr(state, name, value)
    return state


def history_of(state: Any) -> History:
    """The OpenSpiel history of ``state`` as (player, action) pairs."""
    return [(int(pa.player), int(pa.action)) for pa in state.full_history()]


def seen_history(state: Any, player: int) -> History:
    """``state``'s history as ``player`` may know it: their own actions, the others' as
    the game tells them (:meth:`Game.hides`: hidden is :data:`HIDDEN`)."""
    config = state.shared.value
    game = config.game
    full = history_of(state)
    last: Step = state.held.value
    key = ("told", player)
    told: dict[int, bool] | None = last.memo.get(key)
    hidden = game.info.hidden_information
    if told is None:  # the index in ``full`` of each other player's action of the chain
        told = {}
        at = len(full)
        node: Step | None = last
        while node is not None and node.parent is not None:
            at -= 1
            if node.actor == CHANCE and isinstance(node.action, int):  # a card drawn: as told
                before = node.parent.state
                action = config.encoding.chance_of(before, node.action)
                said = game.tells(before, action, TABLETOP_CHANCE, player + 1, last.state)
                told[at] = not hidden if said is None else said
            elif node.actor != player and isinstance(node.action, int):
                before = node.parent.state
                action = config.encoding.action_of(before, node.action)
                told[at] = not game.hides(before, action)
            node = node.parent
        last.memo[key] = told  # asked again at every resampling of this state
    hidden = game.info.hidden_information
    out: History = []
    for index, (actor, action) in enumerate(full):
        if actor == player or told.get(index, not hidden):
            out.append((actor, action))
        else:
            out.append((actor, HIDDEN))
    return out


def resampled_state(state: Any, player: int, probability_sampler: Any) -> Any:
    """The state ``resample_from_infostate(player, sampler)`` returns (module docstring)."""
    rng = random.Random(int(float(probability_sampler()) * 2**52))
    config = state.shared.value
    game = state.get_game()
    step: Step = state.held.value
    if config.chance:
        from tabletop.bridges.resample import consistent_chain

        found = consistent_chain(config, step, player, rng)
        if found is not None:
            chain, history = found
            return with_history(game, history, state.move_number(), held=Frozen(chain))
    # no chance steps (or no history found): a state sampled from the player's view, with
    # the history as the player knows it
    history = seen_history(state, player)
    view = config.game.view(step.state, player + 1)
    other = config.game.sample(view, player + 1, config.players, config.options, rng)
    root = _root(step, other, player, config.players, game.own_kinds.value)
    return with_history(game, history, state.move_number(), held=Frozen(root))


def _root(step: Step, other: Any, player: int, players: int, kinds: Any) -> Step:
    """The resampled history's root: ``other`` with the records it keeps of ``step``."""
    inherited: Memo = {}
    arrays: Memo = {}
    for kind, everyone in kinds:
        for seat in range(players) if everyone else (player,):
            record(step, seat, kind.looks)
            summary(step, seat, kind)
            inherited[(kind.looks.kind, seat)] = step.memo[(kind.looks.kind, seat)]
            arrays[("#" + kind.name, seat)] = step.arrays[("#" + kind.name, seat)]
    return Step(None, other, inherited=inherited, inherited_arrays=arrays)

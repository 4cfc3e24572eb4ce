"""Perfect recall for the OpenSpiel bridge: what one player observed and did, in order.

A game's history is a chain of :class:`Step` (the state after each action, who acted and
the action id). A player's *record* of it is what an observer shows them at each step
(:class:`Looks`): the observation when it changed, and each of their own actions, never
a step they could not tell from no step at all (an equal observation twice in a row is
one). The record is kept as a running BLAKE2b digest, so that it costs one observation
per step and the same number of bytes however long the game: two histories with the
same record have the same digest, two different records (a card seen, a discard, a
claim) different ones. :func:`entries` spells the record out for people.

Records are computed on demand and remembered on the step, so a search that asks the
information state at each node pays one observation per new step.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

Look = Callable[[Any, int], str]  # (tabletop state, player 0-based) -> observation text


Memo = dict[tuple[str, int], Any]
SIMULTANEOUS = -2  # the actor of a simultaneous step (OpenSpiel's id): its action is a tuple
CHANCE = -1  # the actor of a chance outcome (OpenSpiel's id)
_NOTHING: Memo = {}  # what a step that is not a resampled root inherits (never written)


class Step:
    """One link of the history: ``state`` after ``action`` by ``actor`` (None at the root).

    ``inherited``/``inherited_arrays``: what a resampled root carries over of each record
    (digest and last look; the tensor summary); ``memo``/``arrays``: the records up to
    here, filled on demand. Slotted and small: the OpenSpiel bridge makes one per action.
    """

    __slots__ = (
        "action",
        "actor",
        "arrays",
        "inherited",
        "inherited_arrays",
        "memo",
        "parent",
        "state",
    )

    def __init__(
        self,
        parent: Step | None,
        state: Any,
        actor: int | None = None,
        action: int | tuple[int | None, ...] | None = None,
        inherited: Memo = _NOTHING,
        inherited_arrays: Memo = _NOTHING,
    ) -> None:
        self.parent = parent
        self.state = state
        self.actor = actor
        self.action = action
        self.inherited = inherited
        self.inherited_arrays = inherited_arrays
        self.memo: Memo = {}
        self.arrays: Memo = {}

    def did(self, player: int) -> int | None:
        """The action id ``player`` (0-based) took to reach this step, or None: theirs
        alone at a turn, their own choice of a simultaneous step's joint action."""
        if self.actor == player:
            return self.action  # type: ignore[return-value]
        if self.actor == SIMULTANEOUS and isinstance(self.action, tuple):
            mine: int | None = self.action[player]
            return mine
        return None

    def then(self, state: Any, actor: int, action: int | tuple[int | None, ...]) -> Step:
        """The step after this one."""
        return Step(self, state, actor, action)

    def __reduce__(self) -> tuple[Any, ...]:
        # a flat list, not one nested object per step (pickle would recurse the chain)
        links: list[tuple[Any, int | None, Any]] = []
        node: Step | None = self
        root = self
        while node is not None:
            links.append((node.state, node.actor, node.action))
            root = node
            node = node.parent
        return (_rebuild, (links[::-1], root.inherited, root.inherited_arrays))


def _rebuild(
    links: list[tuple[Any, int | None, Any]],
    inherited: dict[tuple[str, int], tuple[bytes, str]],
    inherited_arrays: dict[tuple[str, int], Any],
) -> Step:
    state, _, _ = links[0]
    step = Step(None, state, inherited=inherited, inherited_arrays=inherited_arrays)
    for state, actor, action in links[1:]:
        step = Step(step, state, actor, action)
    return step


@dataclass(frozen=True)
class Looks:
    """How one observer sees a state: ``kind`` names it in the memo; ``own`` whether the
    player's own actions are part of the record (they are private to them)."""

    kind: str
    look: Look
    own: bool


def _entry(digest: bytes, text: str) -> bytes:
    return hashlib.blake2b(digest + text.encode(), digest_size=16).digest()


def record(step: Step, player: int, looks: Looks) -> tuple[bytes, str]:
    """The digest of ``player``'s record up to ``step`` and the last thing they saw."""
    key = (looks.kind, player)
    pending: list[Step] = []
    node: Step | None = step
    while node is not None and key not in node.memo:
        pending.append(node)
        node = node.parent
    digest, last = node.memo[key] if node is not None else (b"", "")
    for link in reversed(pending):
        if link.parent is None:
            digest, last = link.inherited.get(key, (b"", ""))
        done = link.did(player) if looks.own else None
        if done is not None:
            digest = _entry(digest, f"did {done}")
        seen = looks.look(link.state, player)
        if seen != last or done is not None:
            digest, last = _entry(digest, "saw " + seen), seen
        link.memo[key] = (digest, last)
    found: tuple[bytes, str] = step.memo[key]
    return found


def entries(step: Step, player: int, looks: Looks) -> list[str]:
    """``player``'s record up to ``step`` spelled out (the states since the history's
    root; a resampled history starts at the resampling)."""
    chain: list[Step] = []
    node: Step | None = step
    while node is not None:
        chain.append(node)
        node = node.parent
    out: list[str] = []
    last = ""
    for link in reversed(chain):
        done = link.did(player) if looks.own else None
        if done is not None:
            out.append(f"did {done}")
        seen = looks.look(link.state, player)
        if seen != last or done is not None:
            out.append("saw " + seen)
            last = seen
    return out

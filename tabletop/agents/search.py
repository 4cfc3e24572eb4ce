"""Generic tree search for any game: UCT, and information-set MCTS for hidden information.

One agent serves both. Each playout starts from a state built from the agent's view
with :meth:`Game.sample`: for a perfect-information game that is the position itself
(plain UCT); for a hidden-information game it is a fresh determinisation, and the tree
is shared across them with availability counts (single-observer ISMCTS, Cowling,
Powley and Whitehouse 2012). Every player maximises their own reward (max^n); a
playout scores 1 for a win, 0 for a loss and 1/N for a draw among N players, and the
game's :meth:`Game.evaluate` where a playout is cut short.

What a playout is can be configured (:class:`Playouts`): the moves searched in the
tree, how a playout finishes from a new leaf, and the rewards it scores. A game's own
planner is then this search with its own :class:`Playouts` (Quartino's is).

The budget is counted in playouts, so the same seed and budget give the same move;
``seconds`` only caps it. The move chosen is the most visited allowed action (then the
best mean reward, then the first expanded).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from tabletop.agents.base import Turn
from tabletop.game import Game

EXPLORATION = 0.7
PLAYOUT_LIMIT = 400


class Node:
    """Statistics of one action in the tree: reward for the player who took it."""

    __slots__ = ("available", "children", "reward", "visits")

    def __init__(self) -> None:
        self.children: dict[Any, Node] = {}
        self.visits = 0
        self.reward = 0.0
        self.available = 0


def select_child(
    node: Node, actions: Sequence[Any], rng: random.Random, exploration: float
) -> tuple[Any, Node, bool]:
    """One step down the tree among ``actions`` (those available in this determinisation):
    count their availability, then expand an untried one at random (``True``) or take the
    best by UCB1 with availability counts (``False``)."""
    children = node.children
    untried = []
    for action in actions:
        child = children.get(action)
        if child is None:
            untried.append(action)
        else:
            child.available += 1
    if untried:
        action = untried[rng.randrange(len(untried))]
        child = children[action] = Node()
        child.available = 1
        return action, child, True
    best_value = -1.0
    best = actions[0]
    for action in actions:
        child = children[action]
        visits = child.visits
        value = child.reward / visits + exploration * math.sqrt(math.log(child.available) / visits)
        if value > best_value:
            best_value, best = value, action
    return best, children[best], False


def rewards(game: Game[Any, Any], state: Any, players: int) -> list[float]:
    """Reward per player (index 0 unused) of a finished or cut-off state."""
    outcome = game.outcome(state)
    if outcome is None:
        values = [0.0]
        for player in range(1, players + 1):
            value = game.evaluate(state, player)
            values.append(1.0 / players if value is None else value)
        return values
    if not outcome.winners:
        return [0.0] + [1.0 / players] * players
    share = 1.0 / len(outcome.winners)
    return [0.0] + [share if p in outcome.winners else 0.0 for p in range(1, players + 1)]


class Playouts(Protocol):
    """What a playout is, for one move's search."""

    def moves(self, state: Any) -> Sequence[Any]:
        """The actions searched in the tree at ``state``; none: the tree stops here."""
        ...

    def finish(self, state: Any, rng: random.Random) -> Any:
        """The state a playout from the new leaf ``state`` ends in."""
        ...

    def rewards(self, state: Any) -> Sequence[float]:
        """Reward per player (index 0 unused) of the state a playout ended in."""
        ...


class RandomPlayouts:
    """The default: every legal action in the tree, random actions for at most ``limit``
    plies after it, scored by the outcome or else by :meth:`Game.evaluate`."""

    def __init__(self, game: Game[Any, Any], players: int, limit: int = PLAYOUT_LIMIT):
        self.game, self.players, self.limit = game, players, limit
        self.moves = game.legal

    def finish(self, state: Any, rng: random.Random) -> Any:
        legal, apply = self.game.legal, self.game.apply
        for _ in range(self.limit):
            actions = legal(state)
            if not actions:
                break
            state = apply(state, actions[rng.randrange(len(actions))])
        return state

    def rewards(self, state: Any) -> list[float]:
        return rewards(self.game, state, self.players)


PlayoutsFactory = Callable[[Turn, Any], Playouts]
"""Builds the playouts of one move from the turn and one state sampled from its view."""


class SearchAgent:
    """Monte Carlo tree search within ``turn.budget`` (default ``iterations`` playouts),
    its playouts made by ``playouts(turn, state)`` (default: :class:`RandomPlayouts`
    cut after ``playout_limit`` plies)."""

    def __init__(
        self,
        exploration: float = EXPLORATION,
        playout_limit: int = PLAYOUT_LIMIT,
        playouts: PlayoutsFactory | None = None,
        iterations: int = 1000,
    ):
        self.exploration = exploration
        self.playout_limit = playout_limit
        self.playouts = playouts or self._random_playouts
        self.iterations = iterations

    def _random_playouts(self, turn: Turn, state: Any) -> Playouts:
        return RandomPlayouts(turn.game, turn.players, self.playout_limit)

    def act(self, turn: Turn) -> Any:
        if len(turn.legal) == 1:
            return turn.legal[0]
        game, rng = turn.game, turn.rng
        sample = game.sample
        view, player, players, options = turn.view, turn.player, turn.players, turn.options
        base = sample(view, player, players, options, rng)
        playouts = self.playouts(turn, base)
        moves, to_act, apply = playouts.moves, game.to_act, game.apply
        allowed = set(turn.legal)
        root_moves = [a for a in moves(base) if a in allowed]
        if len(root_moves) <= 1:
            return root_moves[0] if root_moves else turn.legal[0]
        budget = turn.budget
        iterations = budget.iterations or self.iterations
        deadline = None if budget.seconds is None else time.monotonic() + budget.seconds
        root = Node()
        c = self.exploration
        for done in range(iterations):
            if deadline is not None and done & 15 == 0 and time.monotonic() > deadline:
                break
            state = sample(view, player, players, options, rng)
            node = root
            path: list[tuple[Node, int]] = []
            # selection and expansion
            while True:
                actions = moves(state)
                if not actions:
                    break
                if node is root:
                    actions = [a for a in actions if a in allowed]
                mover = to_act(state) or 0
                action, node, new = select_child(node, actions, rng, c)
                state = apply(state, action)
                path.append((node, mover))
                if new:
                    break
            scores = playouts.rewards(playouts.finish(state, rng))
            for child, mover in path:
                child.visits += 1
                child.reward += scores[mover]
        ranked = [
            (child.visits, child.reward, -i, a)
            for i, (a, child) in enumerate(root.children.items())
            if a in allowed
        ]
        return max(ranked)[3] if ranked else root_moves[0]

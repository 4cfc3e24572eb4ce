"""Generic tree search for any game: UCT, and information-set MCTS for hidden information.

One agent serves both. Each playout starts from a state built from the agent's view
with :meth:`Game.sample`: for a perfect-information game that is the position itself
(plain UCT); for a hidden-information game it is a fresh determinisation, and the tree
is shared across them with availability counts (single-observer ISMCTS, Cowling,
Powley and Whitehouse 2012). Every player maximises their own reward (max^n); a
playout scores 1 for a win, 0 for a loss and 1/N for a draw among N players, and the
game's :meth:`Game.evaluate` where a playout is cut short.

The budget is counted in playouts, so the same seed and budget give the same move;
``seconds`` only caps it.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from typing import Any

from tabletop.game import Game
from tabletop.players import Turn

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


class SearchAgent:
    """Monte Carlo tree search within ``turn.budget`` (default 1000 playouts)."""

    def __init__(self, exploration: float = EXPLORATION, playout_limit: int = PLAYOUT_LIMIT):
        self.exploration = exploration
        self.playout_limit = playout_limit

    def act(self, turn: Turn) -> Any:
        if len(turn.legal) == 1:
            return turn.legal[0]
        game, rng = turn.game, turn.rng
        legal, apply, to_act = game.legal, game.apply, game.to_act
        budget = turn.budget
        iterations = budget.iterations or 1000
        deadline = None if budget.seconds is None else time.monotonic() + budget.seconds
        root = Node()
        allowed = set(turn.legal)
        c = self.exploration
        for done in range(iterations):
            if deadline is not None and done & 15 == 0 and time.monotonic() > deadline:
                break
            state = game.sample(turn.view, turn.player, turn.players, turn.options, rng)
            node = root
            path: list[tuple[Node, int]] = []
            # selection and expansion
            while True:
                actions = legal(state)
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
            # playout
            steps = 0
            while steps < self.playout_limit:
                actions = legal(state)
                if not actions:
                    break
                state = apply(state, actions[rng.randrange(len(actions))])
                steps += 1
            scores = rewards(game, state, turn.players)
            for child, mover in path:
                child.visits += 1
                child.reward += scores[mover]
        choices = [
            (child.visits, i, a)
            for i, (a, child) in enumerate(root.children.items())
            if a in allowed
        ]
        if not choices:
            return turn.legal[rng.randrange(len(turn.legal))]
        return max(choices)[2]

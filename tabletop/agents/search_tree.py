"""The search tree of :mod:`tabletop.agents.search`: its nodes' statistics, the
MCTS-Solver's proofs (:func:`settle`, :func:`decisive`) and the choice of the child to
descend to (UCB1, with availability counts under hidden information)."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from tabletop.agents.playouts import Playouts
from tabletop.game import Game


@dataclass(frozen=True)
class Choice:
    """A tree key at a simultaneous step: one player's own choice (decoupled UCT)."""

    player: int
    action: Any


class Node:
    """Statistics of one action in the tree: reward for the player who took it."""

    __slots__ = ("available", "children", "proven", "reward", "visits", "width")

    def __init__(self) -> None:
        self.children: dict[Any, Node] = {}
        self.visits = 0
        self.reward = 0.0
        self.available = 0
        self.width = 0  # the number of actions from here (perfect information only)
        self.proven: Sequence[float] | None = None  # rewards this node is proven to give


def settle(node: Node, mover: int) -> bool:
    """MCTS-Solver (Winands, Björnsson and Saito 2008), max^n: ``node`` is proven when
    ``mover`` (who chooses among its children) has a proven win (reward 1) or when every
    action is tried and proven (then it gives the best of them for ``mover``)."""
    best: Sequence[float] | None = None
    complete = len(node.children) == node.width
    for child in node.children.values():
        proven = child.proven
        if proven is None:
            complete = False
        elif proven[mover] >= 1.0:
            node.proven = proven
            return True
        elif best is None or proven[mover] > best[mover]:
            best = proven
    if complete and best is not None:
        node.proven = best
    return node.proven is not None


def decisive(
    node: Node,
    state: Any,
    actions: Sequence[Any],
    mover: int,
    game: Game[Any, Any],
    playouts: Playouts,
) -> bool:
    """Decisive moves (Teytaud and Teytaud 2010), once per node, when it is first expanded:
    an action that ends the game with a win for ``mover`` proves ``node`` at once (its
    child is created proven), instead of waiting for that action's turn to be expanded.
    Together with the solver this also gives anti-decisive moves: an action that lets the
    next player win at once is proven lost as soon as its node is expanded."""
    apply, over = game.apply, game.outcome
    for action in actions:
        after = apply(state, action)
        if over(after) is not None:
            scores = playouts.rewards(after)
            if scores[mover] >= 1.0:
                child = node.children[action] = Node()
                child.proven = node.proven = scores
                return True
    return False


def select_solved(
    node: Node, actions: Sequence[Any], rng: random.Random, exploration: float, mover: int
) -> tuple[Any, Node, bool]:
    """UCT for a perfect-information node whose children may be proven: expand an untried
    action at random, else take the best by UCB1, a proven child counting its proven
    reward for ``mover`` (a proven loss is never taken while anything else is open)."""
    children = node.children
    if len(children) < len(actions):
        untried = [a for a in actions if a not in children]
        action = untried[rng.randrange(len(untried))]
        child = children[action] = Node()
        return action, child, True
    log_n = math.log(node.visits or 1)
    best_value = -1.0
    best = actions[0]
    for action in actions:
        child = children[action]
        proven = child.proven
        if proven is not None:
            value = proven[mover]
        else:
            visits = child.visits
            value = child.reward / visits + exploration * math.sqrt(log_n / visits)
        if value > best_value:
            best_value, best = value, action
    return best, children[best], False


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

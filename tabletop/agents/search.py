"""Generic tree search for any game: UCT, and information-set MCTS for hidden information.

One agent serves both, every player maximising their own reward (max^n); a playout
scores 1 for a win, 0 for a loss and 1/N for a draw among N players, and the game's
the game's ``evaluate`` (:mod:`tabletop.agents.facet`) where a playout is cut short.

- **Perfect information** (plain UCT): the view is the position, so the state is built
  once a move (:meth:`Game.sample`) and every playout starts from it. MCTS-Solver
  (Winands, Björnsson and Saito 2008): a terminal leaf is proven, a node is proven won
  for its mover by one proven win and settled by all its actions proven (:func:`settle`);
  a proven node is not played out again, a proven loss is never chosen while anything
  else is open, and the search stops once the move is proven. Decisive moves
  (:func:`decisive`): when a node is first expanded, an action that wins at once proves
  it. With ``reuse`` the subtree of the position reached is kept from the last move.
- **Hidden information**: each playout starts from a fresh determinisation of the view
  (:meth:`Game.sample`) and the tree is shared across them with availability counts
  (single-observer ISMCTS, Cowling, Powley and Whitehouse 2012). Nothing is proven: a
  line settled in one determinisation is not settled in the information set.

The tree (:class:`Node`, the proofs, the choice of a child) is
:mod:`tabletop.agents.search_tree`'s. What a playout is can be configured
(:class:`Playouts`, :mod:`tabletop.agents.playouts`): the moves searched in the
tree, how a playout finishes from a new leaf, and the rewards it scores. A game's own
planner is then this search with its own :class:`Playouts` (Quartino's is).

The budget is counted in playouts, so the same seed and budget give the same move;
``seconds`` only caps it. The move chosen is a proven win, else the most visited allowed
action (a proven loss last), then the best mean reward, then the first expanded.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any, cast

from tabletop.agents.base import Budget, Turn
from tabletop.agents.playouts import PLAYOUT_LIMIT, Playouts, RandomPlayouts, nature, rewards
from tabletop.agents.search_tree import (
    Choice,
    Node,
    decisive,
    select_child,
    select_solved,
    settle,
)
from tabletop.core.shapes import draw
from tabletop.game import CHANCE, Game, has_shapes

__all__ = [
    "EXPLORATION", "PLAYOUT_LIMIT", "Choice", "Node", "Playouts", "PlayoutsFactory",
    "RandomPlayouts", "SearchAgent", "decisive", "nature", "rewards", "select_child",
    "select_solved", "settle",
]  # fmt: skip

EXPLORATION = 0.7


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
        reuse: bool | float = True,
    ):
        self.exploration = exploration
        self.playout_limit = playout_limit
        self.playouts = playouts or self._random_playouts
        self.iterations = iterations
        self.reuse = bool(reuse)
        self._tree: tuple[Any, Node] | None = None  # the last position searched, its tree

    def _reused(self, game: Game[Any, Any], base: Any) -> Node:
        """With ``reuse``, the subtree of the last search whose position is ``base`` (found
        within 4 plies of it: the replies since), else a new root."""
        tree, self._tree = self._tree, None
        if not self.reuse or tree is None:
            return Node()
        apply = game.apply
        frontier = [tree]
        for _ in range(4):
            deeper: list[tuple[Any, Node]] = []
            for state, node in frontier:
                for action, child in node.children.items():
                    after = apply(state, action)
                    if after == base:
                        return child
                    if child.children:
                        deeper.append((after, child))
            frontier = deeper
        return Node()

    def _random_playouts(self, turn: Turn, state: Any) -> Playouts:
        return RandomPlayouts(turn.game, turn.players, self.playout_limit)

    def act(self, turn: Turn) -> Any:
        return self.ranked(turn)[0]

    def ranked(self, turn: Turn) -> list[Any]:
        """Search within the budget, then ``turn.legal`` best first (as :meth:`act`
        chooses: a proven win, the most visited, ..., a proven loss last; actions the
        search never tried after every tried one, in their order)."""
        if len(turn.legal) == 1:
            return list(turn.legal)
        game, rng = turn.game, turn.rng
        sample = game.sample
        view, player, players, options = turn.view, turn.player, turn.players, turn.options
        base = sample(view, player, players, options, rng)
        playouts = self.playouts(turn, base)
        allowed = set(turn.legal)
        root = self.search(turn, base, playouts, turn.budget)
        if isinstance(game.to_act(base), frozenset):
            return self._mixed(root, turn)
        root_moves = [a for a in playouts.moves(base) if a in allowed]
        if root is None:
            first = root_moves or [turn.legal[0]]
            return first + [a for a in turn.legal if a not in first]
        best = self.rank(root, allowed, player, players) or root_moves[:1]
        return best + [a for a in turn.legal if a not in best]

    def search(self, turn: Turn, base: Any, playouts: Playouts, budget: Budget) -> Node | None:
        """The root of a search of ``turn`` from the sampled ``base`` within ``budget``
        (its iterations, else the agent's; its seconds), ISMCTS with hidden information,
        UCT otherwise; None when fewer than two allowed moves leave nothing to search.
        :meth:`ranked` and the coach (``tabletop.coach.search``) read the same tree."""
        allowed = set(turn.legal)
        sealed = isinstance(turn.game.to_act(base), frozenset)
        moves = list(turn.legal) if sealed else [a for a in playouts.moves(base) if a in allowed]
        if len(moves) <= 1:
            return None
        iterations = budget.iterations or self.iterations
        deadline = None if budget.seconds is None else time.monotonic() + budget.seconds
        game = turn.game
        if sealed or game.info.hidden_information or has_shapes(game):
            return self._ismcts(turn, playouts, allowed, iterations, deadline)
        return self._uct(turn, base, playouts, moves, iterations, deadline)

    def _ismcts(
        self,
        turn: Turn,
        playouts: Playouts,
        allowed: set[Any],
        iterations: int,
        deadline: float | None,
    ) -> Node:
        """Single-observer ISMCTS: a fresh determinisation per playout, one shared tree."""
        game, rng = turn.game, turn.rng
        sample, moves, to_act, apply = game.sample, playouts.moves, game.to_act, game.apply
        view, player, players, options = turn.view, turn.player, turn.players, turn.options
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
                actor = to_act(state)
                if actor == CHANCE:  # open loop: the outcome drawn, the tree unchanged
                    state = apply(state, draw(game.chance_outcomes(state), rng))
                    continue
                if isinstance(actor, frozenset):  # decoupled UCT: each chooses on its own
                    state, node, new = self._simultaneous(
                        turn, node, root, state, actor, allowed, path
                    )
                    if new:
                        break
                    continue
                actions = moves(state)
                if not actions:
                    break
                if node is root:
                    actions = [a for a in actions if a in allowed]
                mover = actor or 0
                action, node, new = select_child(node, actions, rng, c)
                state = apply(state, action)
                path.append((node, mover))
                if new:
                    break
            scores = playouts.rewards(playouts.finish(state, rng))
            for child, mover in path:
                child.visits += 1
                child.reward += scores[mover]
        return root

    @staticmethod
    def _mixed(root: Node | None, turn: Turn) -> list[Any]:
        """At a simultaneous step the search's mixed strategy (decoupled UCT's): the
        first action drawn in proportion to its visits squared, the rest by visits; a
        pure choice could be read and beaten by anyone who knows the search, and plain
        visit shares keep UCB's exploration noise (at equal budgets they lost 45% of
        decided 6-card Goofspiel games against a smaller budget, squared 59%)."""
        visits = {a: 0 for a in turn.legal}
        for key, child in (root.children.items() if root is not None else ()):
            if isinstance(key, Choice) and key.player == turn.player and key.action in visits:
                visits[key.action] = child.visits * child.visits
        order = sorted(turn.legal, key=lambda a: -visits[a])  # squares keep the order
        total = sum(visits.values())
        if not total:
            return order
        point = turn.rng.random() * total
        for action in order:
            point -= visits[action]
            if point < 0:
                return [action] + [a for a in order if a != action]
        return order

    def _simultaneous(
        self,
        turn: Turn,
        node: Node,
        root: Node,
        state: Any,
        actor: frozenset[int],
        allowed: set[Any],
        path: list[tuple[Node, int]],
    ) -> tuple[Any, Node, bool]:
        """One simultaneous step of the tree (decoupled UCT, Lanctot et al. 2013): each
        chooser picks by UCB1 over its own choices' statistics (children keyed
        ``(player, choice)``), blind to the others'; the joint action leads on to the
        child keyed by it."""
        game, player, rng = turn.game, turn.player, turn.rng
        joint = []
        new = False
        for p in sorted(actor):
            options = [Choice(p, a) for a in game.choices(state, p)]
            if node is root and p == player:
                options = [o for o in options if o.action in allowed]
            picked, stats, fresh = select_child(node, options, rng, self.exploration)
            choice = picked.action
            path.append((stats, p))
            joint.append(choice)
            new = new or fresh
        key = ("joint", tuple(joint))
        child = node.children.get(key)
        if child is None:
            child = node.children[key] = Node()
            new = True
        return game.apply(state, tuple(joint)), child, new

    def _uct(
        self,
        turn: Turn,
        base: Any,
        playouts: Playouts,
        root_moves: list[Any],
        iterations: int,
        deadline: float | None,
    ) -> Node:
        """UCT from the position itself (a perfect-information view is the state: built
        once a move), with MCTS-Solver: proven wins and losses are backed up, a proven
        node is not played out again, and the search stops once the root is proven."""
        game, rng = turn.game, turn.rng
        moves, apply, over = playouts.moves, game.apply, game.outcome
        # turn by turn only: a game with chance or simultaneous steps is searched by _ismcts
        to_act = cast("Callable[[Any], int | None]", game.to_act)
        root = self._reused(game, base)
        self._tree = (base, root)
        root_mover = to_act(base) or 0
        root.width = len(root_moves)
        c = self.exploration
        if not root.children:
            decisive(root, base, root_moves, root_mover, game, playouts)
        for done in range(iterations):
            if root.proven is not None:
                break
            if deadline is not None and done & 15 == 0 and time.monotonic() > deadline:
                break
            state = base
            node = root
            path: list[tuple[Node, int]] = []
            scores: Sequence[float] | None = None
            actions: Sequence[Any] = root_moves
            mover = root_mover
            # selection and expansion
            while True:
                action, node, new = select_solved(node, actions, rng, c, mover)
                state = apply(state, action)
                path.append((node, mover))
                if node.proven is not None:
                    scores = node.proven
                    break
                if new:
                    if over(state) is not None:
                        scores = node.proven = playouts.rewards(state)
                    break
                actions = moves(state)
                if not actions:
                    break
                mover = to_act(state) or 0
                node.width = len(actions)
                if not node.children and decisive(node, state, actions, mover, game, playouts):
                    scores = node.proven
                    break
            if scores is None:
                scores = playouts.rewards(playouts.finish(state, rng))
            root.visits += 1
            for child, who in path:
                child.visits += 1
                child.reward += scores[who]
            if path[-1][0].proven is not None:
                for k in range(len(path) - 2, -1, -1):
                    if not settle(path[k][0], path[k + 1][1]):
                        break
                else:
                    settle(root, root_mover)
        return root

    @staticmethod
    def rank(root: Node, allowed: set[Any], player: int, players: int) -> list[Any]:
        """The allowed actions tried at the root, best first: the proven win, then the
        most visited (a proven loss last, a proven draw as an unproven one), then the best
        reward, then the first expanded."""
        draw = 1.0 / players
        ranked = [
            (
                0.0 if child.proven is None else child.proven[player] - draw,
                child.visits,
                child.reward,
                -i,
                a,
            )
            for i, (a, child) in enumerate(root.children.items())
            if a in allowed
        ]
        return [entry[4] for entry in sorted(ranked, reverse=True)]

"""The generic coach: a level's tree search (:mod:`tabletop.agents.search`), read out.

The search runs as the agent would (UCT on a perfect-information view, ISMCTS over
:meth:`~tabletop.game.Game.sample` otherwise); each root action's win chance is its mean
reward for the player to act, its visits the confidence, and an action the search
proved (MCTS-Solver, perfect information) is exact. An action the search never tried
(one legal action, or a game whose tree searches only some moves) is estimated by
``samples`` flat playouts from it. The ranking is the search's own (what its agent
plays first), then the untried actions by their estimate.
"""

from __future__ import annotations

from typing import Any

from tabletop.agents.base import Budget, Turn
from tabletop.agents.search import Node, Playouts, SearchAgent
from tabletop.coach.base import DRAW, LOSS, WIN, Assessment, Judgement, ranked

SAMPLES = 16  # flat playouts for an action the tree did not try


def proven_value(reward: float, players: int) -> str | None:
    """``win``, ``loss`` or ``draw`` for a proven reward, None for a shared win."""
    if reward >= 1.0:
        return WIN
    if reward <= 0.0:
        return LOSS
    return DRAW if abs(reward - 1.0 / players) < 1e-9 else None


class SearchCoach:
    """Judges a turn with ``agent``'s tree search (its playouts, its exploration), within
    the turn's budget: its playouts exactly when it counts them, else ``budget``'s
    playouts capped by the turn's seconds (or ``budget``'s); described as ``method``."""

    def __init__(self, agent: SearchAgent, budget: Budget, method: str) -> None:
        agent.reuse = False  # every turn judged on its own: no tree from another position
        self.agent, self.budget, self.method = agent, budget, method

    def assess(self, turn: Turn) -> Assessment:
        asked = turn.budget  # counted playouts asked for: exactly those (reproducible)
        budget = asked
        if asked.iterations is None:
            seconds = self.budget.seconds if asked.seconds is None else asked.seconds
            budget = Budget(self.budget.iterations, seconds)
        game, player = turn.game, turn.player
        base = game.sample(turn.view, player, turn.players, turn.options, turn.rng)
        playouts = self.agent.playouts(turn, base)
        root = self._search(turn, base, playouts, budget)
        allowed = set(turn.legal)
        tried = [] if root is None else SearchAgent.rank(root, allowed, player, turn.players)
        judged = [self._judge(turn, base, a, root.children[a]) for a in tried] if root else []
        done = set(tried)
        rest = [a for a in turn.legal if a not in done]
        estimates = [self._estimate(turn, base, playouts, a) for a in rest]
        return Assessment(player, (*judged, *ranked(estimates)), self.method)

    def _search(self, turn: Turn, base: Any, playouts: Playouts, budget: Budget) -> Node | None:
        """The root of the agent's search, or None when there is nothing to choose."""
        if len(turn.legal) < 2:
            return None
        return self.agent.search(turn, base, playouts, budget)

    def _judge(self, turn: Turn, base: Any, action: Any, node: Node) -> Judgement:
        text = turn.game.format(base, action)
        if node.proven is not None:
            reward = node.proven[turn.player]
            value = proven_value(reward, turn.players)
            return Judgement(action, text, reward, True, value, None, node.visits)
        chance = node.reward / node.visits if node.visits else 0.0
        return Judgement(action, text, chance, False, None, None, node.visits)

    def _estimate(self, turn: Turn, base: Any, playouts: Playouts, action: Any) -> Judgement:
        """``action`` by ``SAMPLES`` flat playouts (fresh samples of the view when hidden)."""
        game, rng, player = turn.game, turn.rng, turn.player
        hidden = game.info.hidden_information
        total = 0.0
        for _ in range(SAMPLES):
            state = (
                game.sample(turn.view, player, turn.players, turn.options, rng) if hidden else base
            )
            after = game.apply(state, action)
            total += playouts.rewards(playouts.finish(after, rng))[player]
        text = game.format(base, action)
        return Judgement(action, text, total / SAMPLES, False, None, None, SAMPLES)

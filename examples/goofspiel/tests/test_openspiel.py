"""Goofspiel against OpenSpiel's native ``goofspiel``: the same kind of node (chance,
simultaneous, terminal), each player's legal bids (card c is id c-1), chance outcomes with
their probabilities and the returns under every ``returns_type``, over many seeded games."""

from __future__ import annotations

import random

import pytest
from tabletop_goofspiel import rules
from tabletop_goofspiel.game import GoofspielGame
from tabletop_goofspiel.rules import DEAL, GoofspielOptions, State

from tabletop.game import CHANCE

pyspiel = pytest.importorskip("pyspiel")

CONFIGS = [
    (players, cards, order, kind)
    for players, cards in ((2, 5), (3, 4), (4, 3), (2, 13))
    for order in ("random", "descending", "ascending")
    for kind in ("win_loss", "point_difference", "total_points")
]


def returns(state: State, kind: str) -> list[float]:
    """OpenSpiel's conventions for each returns_type, from our points."""
    points = list(state.points)
    n = len(points)
    if kind == "total_points":
        return [float(p) for p in points]
    if kind == "point_difference":
        return [p - sum(points) / n for p in points]
    best = max(points)
    winners = [i for i, p in enumerate(points) if p == best]
    if len(winners) == n:
        return [0.0] * n
    return [1.0 / len(winners) if i in winners else -1.0 / (n - len(winners)) for i in range(n)]


@pytest.mark.parametrize(("players", "cards", "order", "kind"), CONFIGS)
def test_goofspiel_matches_openspiel(players: int, cards: int, order: str, kind: str) -> None:
    game = GoofspielGame()
    options = GoofspielOptions.model_validate(
        {"num_cards": cards, "points_order": order, "returns_type": kind}
    )
    native_game = pyspiel.load_game(
        "goofspiel",
        {"players": players, "num_cards": cards, "points_order": order, "returns_type": kind},
    )
    for seed in range(40):
        rng = random.Random(seed)
        state = game.new(players, options, seed)
        native = native_game.new_initial_state()
        while True:
            actor = game.to_act(state)
            if native.is_terminal():
                assert actor is None
                assert native.returns() == pytest.approx(returns(state, kind))
                outcome = game.outcome(state)
                assert outcome is not None
                break
            if native.is_chance_node():
                assert actor == CHANCE
                ours = [(int(a) - DEAL - 1, float(p)) for a, p in rules.chance_outcomes(state)]
                theirs = native.chance_outcomes()
                assert [a for a, _p in ours] == [a for a, _p in theirs]
                assert [p for _a, p in ours] == pytest.approx([p for _a, p in theirs])
                card = rng.choice(ours)[0]
                state = game.apply(state, DEAL + card + 1)
                native.apply_action(card)
                continue
            assert native.is_simultaneous_node()
            assert actor == frozenset(range(1, players + 1))
            bids = []
            for p in range(players):
                mine = [bid - 1 for bid in game.choices(state, p + 1)]
                assert mine == native.legal_actions(p)
                bids.append(rng.choice(mine))
            state = game.apply(state, tuple(b + 1 for b in bids))
            native.apply_actions(bids)

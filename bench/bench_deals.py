"""Issue 36, item 5: how many deals of two-player Čtverák player 1's opening view
determines, through the OpenSpiel bridge.

    python -m bench.bench_deals --deals 2000

For each deal drawn by the chance nodes' probabilities (the deal is a chance step per
card, K2.1), another deal is looked for that gives player 1 (player 0 in OpenSpiel) the
same information state at their first decision but the opponent another hand: one card
dealt to player 2 (K2.1: one card at a time, players 1..N) replaced by a card nobody was
dealt (up to ``TRIES`` such cards per card). A deal without one is determined. Before the
deal was chance steps (a seed of 65,536) this was 81% of deals, 79% with the half deck
(issue 36); ``tests/test_bridges_deals.py`` holds it to at most 1%.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable
from typing import Any

import pyspiel

from tabletop.bridges import openspiel
from tabletop_ctverak.rules import deal_target

TRIES = 4  # replacement cards tried per card of the opponent
GAMES = ("tabletop_ctverak(players=2)", "tabletop_ctverak(players=2,deck=half)")


View = Callable[[Any], str]


def _player_one(state: Any) -> str:
    """Player 1's information state (player 0 in OpenSpiel)."""
    return str(state.information_state_string(0))


def _deal(game: Any, rng: random.Random) -> tuple[list[int], list[list[int]]]:
    """A deal drawn by the chance nodes' probabilities up to player 0's first decision:
    the chance action ids and the ids each node offered."""
    state = game.new_initial_state()
    history: list[int] = []
    offered: list[list[int]] = []
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        ids = [a for a, _p in outcomes]
        action = rng.choices(ids, weights=[p for _a, p in outcomes])[0]
        history.append(action)
        offered.append(ids)
        state.apply_action(action)
    assert state.current_player() == 0, "player 1 acts first after the deal (K2.3)"
    return history, offered


def _replayed(game: Any, history: list[int], view: View) -> str | None:
    """``view`` of the state after ``history`` if every action is a chance outcome there
    and player 0 is then to act, else None."""
    state = game.new_initial_state()
    for action in history:
        if not state.is_chance_node() or action not in [a for a, _p in state.chance_outcomes()]:
            return None
        state.apply_action(action)
    if state.is_chance_node() or state.current_player() != 0:
        return None
    return view(state)


def _hidden_alternative(
    game: Any, history: list[int], offered: list[list[int]], rng: random.Random, view: View
) -> bool:
    """Whether another deal, with another card in the opponent's hand, looks the same."""
    seen = _replayed(game, history, view)
    assert seen is not None
    players = game.num_players()
    for i, card in enumerate(history):
        if deal_target(players, i) != 2:
            continue
        spare = [c for c in offered[i] if c != card and c not in history]
        for other in rng.sample(spare, min(TRIES, len(spare))):
            alternative = [*history[:i], other, *history[i + 1 :]]
            if _replayed(game, alternative, view) == seen:
                return True
    return False


def determined_fraction(
    game_string: str, deals: int, seed: int = 36, view: View = _player_one
) -> float:
    """The fraction of ``deals`` sampled deals that ``view`` (player 1's information state
    at their first decision) determines."""
    openspiel.register()
    game = pyspiel.load_game(game_string)
    rng = random.Random(seed)
    determined = 0
    for _ in range(deals):
        history, offered = _deal(game, rng)
        if not _hidden_alternative(game, history, offered, rng, view):
            determined += 1
    return determined / deals


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="deals determined by player 1's view")
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=36)
    args = parser.parse_args(argv)
    for name in GAMES:
        fraction = determined_fraction(name, args.deals, args.seed)
        print(f"{name:<40} {args.deals} deals, determined {fraction:.2%}", flush=True)


if __name__ == "__main__":
    main()

"""AI benchmarks for every installed game (the solver has its own: bench.bench_solver).

    python -m bench.bench_ai [--seconds S] [--arena-games N]

1. Random full games per second through each game's API (legal + apply).
2. Tree-search playouts per second: the generic SearchAgent (UCT or ISMCTS) choosing
   the first move of a game with a budget of playouts.
3. Arena throughput: games per second between levels 1 and 2, with 1 and 2 jobs
   (the same seed gives the same results either way; the script checks it).
"""

from __future__ import annotations

import argparse
import random
import time

from bench.common import random_playout
from tabletop.agents.base import Budget, Turn
from tabletop.agents.search import SearchAgent
from tabletop.analysis import arena
from tabletop.core.registry import registry
from tabletop.game import player_of


def random_rate(game_id: str, seconds: float) -> float:
    """Random full games per second (2 players, default options)."""
    game = registry().get(game_id)
    options = game.info.options()
    rand = random.Random(1).random
    games = 0
    began = time.perf_counter()
    while time.perf_counter() - began < seconds:
        random_playout(game.legal, game.apply, game.new(2, options, games), rand)
        games += 1
    return games / (time.perf_counter() - began)


def playout_rate(game_id: str, playouts: int = 300) -> float:
    """Search playouts per second for the first move of a 2-player game."""
    game = registry().get(game_id)
    options = game.info.options()
    state = game.new(2, options, 7)
    player = player_of(game.to_act(state)) or 1
    turn = Turn(
        game,
        player,
        2,
        options,
        game.view(state, player),
        list(game.legal(state)),
        random.Random(0),
        Budget(iterations=playouts),
    )
    began = time.perf_counter()
    SearchAgent().act(turn)
    return playouts / (time.perf_counter() - began)


def arena_rate(game_id: str, games: int, jobs: int) -> tuple[float, list[tuple[int, ...]]]:
    """Arena games per second between levels 1 and 2, and the winners of each game."""
    setup = arena.make_setup(game_id, "1,2", games, None, [], 0)
    began = time.perf_counter()
    results = arena.play_all(setup, jobs)
    return games / (time.perf_counter() - began), [r.winners for r in results]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="AI benchmarks for every installed game")
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--arena-games", type=int, default=40)
    args = parser.parse_args(argv)
    print(
        f"{'game':<10} {'random games/s':>15} {'playouts/s':>11} "
        f"{'arena 1 job':>12} {'arena 2 jobs':>13} same"
    )
    for game_id in registry().ids():
        rate = random_rate(game_id, args.seconds)
        playouts = playout_rate(game_id)
        one, first = arena_rate(game_id, args.arena_games, 1)
        two, second = arena_rate(game_id, args.arena_games, 2)
        print(
            f"{game_id:<10} {rate:>15,.0f} {playouts:>11,.0f} {one:>10.1f}/s {two:>11.1f}/s "
            f"{'yes' if first == second else 'NO'}",
            flush=True,
        )


if __name__ == "__main__":
    main()

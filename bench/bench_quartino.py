"""Quartino benchmark: random full games per second through the game API.

    python -m bench.bench_quartino [--seconds S]

For 2 and 4 players (default options: situations on, max_turns 400): ``legal`` + ``apply``
with a uniform random choice, one core. Prints games/s, actions/s, the mean turns and
actions per game, and how many games ended with a winner rather than the N5.2 draw.
The same for games between ``basic`` agents (view + agent per action) as a second table.
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any, NamedTuple

from bench.common import random_playout
from tabletop.agents.base import Turn
from tabletop.agents.facet import players_of
from tabletop.core.registry import registry
from tabletop.game import player_of


class Row(NamedTuple):
    players: int
    games: int
    seconds: float
    actions: int
    turns: int
    wins: int


def random_games(players: int, seconds: float, seed: int = 1) -> Row:
    """Uniform random full games for ``seconds``: legal + apply only."""
    game = registry().get("quartino")
    options = game.info.options()
    legal, apply, outcome = game.legal, game.apply, game.outcome
    rand = random.Random(seed).random
    games = actions = turns = wins = 0
    began = time.perf_counter()
    while time.perf_counter() - began < seconds:
        state, count = random_playout(legal, apply, game.new(players, options, seed + games), rand)
        actions += count
        games += 1
        turns += state.turns
        end = outcome(state)
        wins += bool(end and end.winners)
    return Row(players, games, time.perf_counter() - began, actions, turns, wins)


def agent_games(players: int, seconds: float, seed: int = 1) -> Row:
    """Full games between ``basic`` agents (each action: view, legal, agent)."""
    game = registry().get("quartino")
    options = game.info.options()
    agent = players_of(game).agents()["basic"]()
    rng = random.Random(seed)
    games = actions = turns = wins = 0
    began = time.perf_counter()
    while games == 0 or time.perf_counter() - began < seconds:
        state: Any = game.new(players, options, seed + games)
        while (p := player_of(game.to_act(state))) is not None:
            turn = Turn(game, p, players, options, game.view(state, p), game.legal(state), rng)
            state = game.apply(state, agent.act(turn))
            actions += 1
        games += 1
        turns += state.turns
        end = game.outcome(state)
        wins += bool(end and end.winners)
    return Row(players, games, time.perf_counter() - began, actions, turns, wins)


def table(title: str, rows: list[Row]) -> str:
    """The rows as a small text table."""
    lines = [
        title,
        f"{'players':>7} {'games/s':>10} {'actions/s':>11} {'turns/game':>11} "
        f"{'actions/game':>13} {'won':>6}",
    ]
    for r in rows:
        lines.append(
            f"{r.players:>7} {r.games / r.seconds:>10,.1f} {r.actions / r.seconds:>11,.0f} "
            f"{r.turns / r.games:>11.1f} {r.actions / r.games:>13.1f} "
            f"{r.wins / r.games:>6.0%}"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Quartino random games per second")
    parser.add_argument("--seconds", type=float, default=3.0, help="time per row")
    args = parser.parse_args(argv)
    print(table("random games (legal + apply)", [random_games(n, args.seconds) for n in (2, 4)]))
    print()
    print(table("basic agents (view + agent)", [agent_games(n, args.seconds) for n in (2, 4)]))


if __name__ == "__main__":
    main()

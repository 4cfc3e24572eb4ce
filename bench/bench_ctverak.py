"""Čtverák benchmark: random full games per second, and how often games end blocked.

    python -m bench.bench_ctverak [--seconds S]

For 2 and 6 players (full deck, default options, then with ``reshuffle``), plays seeded
uniform-random games through the game API (``legal`` + ``apply``) for S seconds each and
prints games/s, actions per game and how the games ended: a čtverák (K5.1), blocked once
the stock had run out (K5.2), or blocked by ``stall_limit`` while the stock lasted. A last
line does the same for the basic agent (from its view, through the ``Turn`` it gets).
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter
from typing import Any

from bench.common import random_playout
from tabletop.agents.base import Turn
from tabletop.core.registry import registry
from tabletop.game import player_of
from tabletop_ctverak.agents import BasicAgent
from tabletop_ctverak.rules import BLOCKED, CTVERAK

ENDINGS = ("čtverák", "blocked, stock out", "blocked, stall_limit")


def ending(state: Any) -> str:
    if state.ending == CTVERAK:
        return ENDINGS[0]
    assert state.ending == BLOCKED
    return ENDINGS[1] if state.exhausted else ENDINGS[2]


def random_games(players: int, seconds: float, **options: Any) -> tuple[float, float, Counter[str]]:
    """Games/s, actions per game and endings of uniform-random games via legal + apply."""
    game = registry().get("ctverak")
    opts = game.info.options(**options)
    legal, apply = game.legal, game.apply
    rand = random.Random(1).random
    games = actions = 0
    endings: Counter[str] = Counter()
    began = time.perf_counter()
    while time.perf_counter() - began < seconds:
        state, count = random_playout(legal, apply, game.new(players, opts, games), rand)
        actions += count
        games += 1
        endings[ending(state)] += 1
    elapsed = time.perf_counter() - began
    return games / elapsed, actions / games, endings


def basic_games(players: int, seconds: float) -> tuple[float, float, Counter[str]]:
    """The same for the basic agent in every seat (a view and a Turn per action)."""
    game = registry().get("ctverak")
    opts = game.info.options()
    agent, rng = BasicAgent(), random.Random(1)
    games = actions = 0
    endings: Counter[str] = Counter()
    began = time.perf_counter()
    while time.perf_counter() - began < seconds:
        state = game.new(players, opts, games)
        while (p := player_of(game.to_act(state))) is not None:
            turn = Turn(game, p, players, opts, game.view(state, p), game.legal(state), rng)
            state = game.apply(state, agent.act(turn))
            actions += 1
        games += 1
        endings[ending(state)] += 1
    elapsed = time.perf_counter() - began
    return games / elapsed, actions / games, endings


def show(label: str, rate: float, length: float, endings: Counter[str]) -> None:
    total = sum(endings.values())
    shares = ", ".join(f"{name} {100 * endings[name] / total:.0f}%" for name in ENDINGS)
    print(f"{label:<28} {rate:8,.0f} games/s  {length:6.1f} actions/game  ({shares})")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--seconds", type=float, default=3.0, help="seconds per measurement")
    args = parser.parse_args(argv)
    for players in (2, 6):
        show(f"random, {players} players", *random_games(players, args.seconds))
        show(
            f"random, {players} players, reshuffle",
            *random_games(players, args.seconds, reshuffle=True),
        )
    for players in (2, 6):
        show(f"basic agent, {players} players", *basic_games(players, args.seconds))


if __name__ == "__main__":
    main()

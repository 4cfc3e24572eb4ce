"""Čtverák benchmark: random full games per second, and how often games end blocked.

    python -m bench.bench_ctverak [--seconds S]

For 2 and 6 players (full deck, default options, then with ``reshuffle``), plays seeded
uniform-random games through the game API for S seconds each (``new``; then at a chance
step, the deal's cards and each stock draw's, an outcome drawn by ``chance_outcomes``'
probabilities as the match draws it, else a uniformly random ``legal`` action; ``apply``)
and prints games/s, the players' actions per game and how the games ended: a čtverák
(K5.1), blocked once the stock had run out (K5.2), or blocked by ``stall_limit`` while the
stock lasted. A last line does the same for the basic agent (from its view, through the
``Turn`` it gets).
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter
from typing import Any

from tabletop.agents.base import Turn
from tabletop.core.match import draw
from tabletop.core.registry import registry
from tabletop.game import CHANCE
from tabletop_ctverak.agents import BasicAgent
from tabletop_ctverak.rules import BLOCKED, CTVERAK

ENDINGS = ("čtverák", "blocked, stock out", "blocked, stall_limit")


def ending(state: Any) -> str:
    if state.ending == CTVERAK:
        return ENDINGS[0]
    assert state.ending == BLOCKED
    return ENDINGS[1] if state.exhausted else ENDINGS[2]


def random_games(players: int, seconds: float, **options: Any) -> tuple[float, float, Counter[str]]:
    """Games/s, the players' actions per game and endings of uniform-random games, the
    chance steps drawn by their probabilities (issue 35)."""
    game = registry().get("ctverak")
    opts = game.info.options(**options)
    to_act, legal, apply, outcomes = game.to_act, game.legal, game.apply, game.chance_outcomes
    rng = random.Random(1)
    rand = rng.random
    games = actions = 0
    endings: Counter[str] = Counter()
    began = time.perf_counter()
    while time.perf_counter() - began < seconds:
        state = game.new(players, opts, games)
        while (actor := to_act(state)) is not None:
            if actor == CHANCE:
                state = apply(state, draw(outcomes(state), rng))
                continue
            acts = legal(state)
            state = apply(state, acts[int(rand() * len(acts))])
            actions += 1
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
        while (p := game.to_act(state)) is not None:
            if p == CHANCE:
                state = game.apply(state, draw(game.chance_outcomes(state), rng))
                continue
            assert isinstance(p, int)
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

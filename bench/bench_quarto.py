"""Quarto benchmarks: random full games per second, and the CLI's start-up time.

    python -m bench.bench_quarto [--seconds S] [--startup-runs N]

1. Through the game API: ``legal`` + ``apply`` with a uniform random choice, one core.
2. Through the checked path the CLI uses: ``Match.play(text)`` (parse, legality, apply,
   history) with a random choice among the listed actions' texts.
3. Start-up: ``tabletop games`` against ``python -c "import typer, pydantic, pluggy"``.
"""

from __future__ import annotations

import argparse
import random
import shutil
import statistics
import subprocess
import sys
import time

from bench.common import random_playout
from tabletop.core import options as opts
from tabletop.core.match import Match
from tabletop.core.registry import registry


def api_games_per_second(seconds: float, seed: int = 1) -> tuple[float, float]:
    """Random full games per second and mean actions per game, via legal + apply."""
    game = registry().get("quarto")
    start = game.new(2, game.info.options(), 0)
    legal, apply = game.legal, game.apply
    rand = random.Random(seed).random
    games = actions = 0
    began = time.perf_counter()
    deadline = began + seconds
    while time.perf_counter() < deadline:
        for _ in range(200):
            actions += random_playout(legal, apply, start, rand)[1]
            games += 1
    elapsed = time.perf_counter() - began
    return games / elapsed, actions / games


def checked_games_per_second(seconds: float, seed: int = 1) -> float:
    """Random full games per second through ``Match.play`` on action texts."""
    game = registry().get("quarto")
    options = opts.build(game.info.options, {}, "quarto")
    rng = random.Random(seed)
    games = 0
    began = time.perf_counter()
    while time.perf_counter() - began < seconds:
        match = Match(game, 2, options, 0)
        while match.outcome() is None:
            match.play(rng.choice(match.listing_text()))
        games += 1
    return games / (time.perf_counter() - began)


def command_seconds(argv: list[str], runs: int) -> float:
    """Median wall time of a command."""
    times = []
    for _ in range(runs):
        began = time.perf_counter()
        subprocess.run(argv, check=True, stdout=subprocess.DEVNULL)
        times.append(time.perf_counter() - began)
    return statistics.median(times)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--startup-runs", type=int, default=15)
    args = parser.parse_args(argv)
    rate, length = api_games_per_second(args.seconds)
    print(f"game API:     {rate:10,.0f} random games/s  ({length:.1f} actions per game)")
    print(f"checked path: {checked_games_per_second(args.seconds):10,.0f} random games/s")
    tabletop = shutil.which("tabletop")
    if tabletop:
        base = command_seconds(
            [sys.executable, "-c", "import typer, pydantic, pluggy"], args.startup_runs
        )
        games = command_seconds([tabletop, "games"], args.startup_runs)
        print(
            f"start-up: tabletop games {games * 1000:.0f} ms, "
            f"import typer+pydantic+pluggy {base * 1000:.0f} ms, ratio {games / base:.2f}"
        )


if __name__ == "__main__":
    main()

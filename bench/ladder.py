"""The AI ladder of a game: each level against the level below it, in the arena.

    python -m bench.ladder GAME [--games N] [--jobs J] [--players P] [--pairs 2:1,3:2,...]

Prints a Markdown table (for the README): wins, draws and losses of the upper level,
its win rate over the decided games with the 95% Wilson interval, and the seconds a
game took. A rung holds when the interval's lower bound is above 50%.
"""

from __future__ import annotations

import argparse
import time

from tabletop.analysis import arena


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="each level against the level below it")
    parser.add_argument("game")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--pairs", default="2:1,3:2,4:3,5:4")
    parser.add_argument("-o", "--option", action="append", default=[])
    args = parser.parse_args(argv)
    print(f"| {args.game} | upper W-D-L | won of decided (95% CI) | holds | s/game |")
    print("|---|---|---|---|---|")
    for pair in args.pairs.split(","):
        upper, lower = pair.split(":")
        setup = arena.make_setup(
            args.game, f"{upper},{lower}", args.games, args.players, args.option, args.seed
        )
        began = time.perf_counter()
        results = arena.play_all(setup, args.jobs)
        elapsed = time.perf_counter() - began
        row = arena.summary(setup, results, args.jobs, elapsed)["agents"][0]
        low, high = row["win_rate_decided_ci95"]
        rate = row["win_rate_decided"]
        shown = "-" if rate is None else f"{rate:.0%} ({low:.0%}-{high:.0%})"
        print(
            f"| {upper} vs {lower} | {row['wins']:g}-{row['draws']:g}-{row['losses']:g} | {shown} "
            f"| {'yes' if low > 0.5 else 'no'} | {elapsed / args.games:.2f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()

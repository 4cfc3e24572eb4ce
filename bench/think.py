"""How long an AI level thinks per move: every seat played by that level.

    python -m bench.think GAME [--level 5] [--games N] [--players P] [--jobs J] [-o KEY=VALUE]...

Plays N arena games (the arena's seeds) with ``--level`` in every seat and prints one
Markdown row: moves, mean and longest seconds per move (the issue's bound for level 5
is about 2 s). Run it on an otherwise idle machine, with ``--jobs 1`` for clean times.
"""

from __future__ import annotations

import argparse
import dataclasses

from tabletop.analysis import arena


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="seconds per move of one AI level")
    parser.add_argument("game")
    parser.add_argument("--level", default="5")
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("-o", "--option", action="append", default=[])
    args = parser.parse_args(argv)
    other = "2" if args.level == "1" else "1"  # the arena checks a pair of agents
    checked = arena.make_setup(
        args.game, f"{args.level},{other}", args.games, args.players, args.option, 0
    )
    setup = dataclasses.replace(checked, agents=(args.level,))  # the level in every seat
    results = arena.play_all(setup, args.jobs)
    moves = sum(r.actions for r in results)
    mean = sum(sum(r.seconds) for r in results) / moves
    longest = max(max(r.longest) for r in results)
    print("| game | level | players | games | moves | mean s/move | longest s |")
    print("|---|---|---|---|---|---|---|")
    print(
        f"| {args.game} | {args.level} | {setup.players} | {args.games} | {moves} "
        f"| {mean:.4f} | {longest:.3f} |"
    )


if __name__ == "__main__":
    main()

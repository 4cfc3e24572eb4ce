"""How long the coach takes: a hint on every position of seeded games, and their reviews.

    python -m bench.coach GAME [--level 5] [--games N] [--players P] [--seed S]

Plays N games with level 3 in every seat (seeds S, S+1, ...), then asks the coach at
``--level`` for a hint on every position of them (the ``hint`` of ``tabletop play``,
about 2 s at most by design) and prints one Markdown row: positions, mean and longest
seconds per hint, and the mean seconds a review of one such game takes (the sum of its
hints). Run it on an otherwise idle machine for clean times.
"""

from __future__ import annotations

import argparse
import random
import time

from tabletop.agents.seat import make_seat
from tabletop.coach.choose import coach_for, turn_for
from tabletop.core.match import Match
from tabletop.core.setup import player_count, resolve


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="seconds per hint and per review")
    parser.add_argument("game")
    parser.add_argument("--level", default="5")
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    game = resolve(args.game)
    players = player_count(game, args.players)
    options = game.info.options()
    coach = coach_for(game, args.level)
    times: list[float] = []
    for seed in range(args.seed, args.seed + args.games):
        match = Match(game, players, options, seed)
        seat = make_seat(game, "3")
        while (player := match.player()) is not None:
            rng = random.Random(f"{seed}:{len(match.actions)}")
            state = match.state
            start = time.perf_counter()
            coach.assess(turn_for(game, state, players, options))
            times.append(time.perf_counter() - start)
            match.push(seat.choose(game, state, player, players, options, rng))
    print("| game | level | players | games | positions | mean s/hint | longest s | s/review |")
    print("|---|---|---|---|---|---|---|---|")
    print(
        f"| {args.game} | {args.level} | {players} | {args.games} | {len(times)} "
        f"| {sum(times) / len(times):.3f} | {max(times):.3f} | {sum(times) / args.games:.1f} |"
    )


if __name__ == "__main__":
    main()

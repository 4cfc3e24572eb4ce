"""The conformance kit's speed: checked games per second of every installed game.

    python -m bench.bench_check [--games-per-config G] [GAME ...]

Plays ``check_game(game, games_per_config=G)`` (every game of it deep, as in a default
``tabletop check`` run, whose 200 games are spread over the configurations) and prints the
configurations, the games, the CPU seconds of this process (less sensitive than the wall
clock to the other work of a shared machine) and the games per CPU second.
"""

from __future__ import annotations

import argparse
import time

from tabletop.core.registry import registry
from tabletop.kit.conformance import check_game


def rate(game_id: str, per_config: int) -> tuple[int, int, float]:
    """Configurations, games and CPU seconds of one check of ``game_id``."""
    began = time.process_time()
    report = check_game(game_id, games_per_config=per_config, seed=0)
    if not report.ok:
        raise SystemExit(report.text())
    return len(report.configs), report.games, time.process_time() - began


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", help="game ids (default: every installed game)")
    parser.add_argument("--games-per-config", type=int, default=10)
    args = parser.parse_args()
    for game_id in args.games or registry().ids():
        configs, games, seconds = rate(game_id, args.games_per_config)
        print(
            f"{game_id:<10} {configs:>3} configurations {games:>5} games "
            f"{seconds:6.1f} s CPU {games / seconds:7.2f} games/s"
        )


if __name__ == "__main__":
    main()

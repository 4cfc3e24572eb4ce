"""A search agent against itself with another exploration constant (the arena's seeds).

    python -m bench.exploration GAME AGENT C [--games N] [--players P] [--seed S] [--jobs J]

Plays ``AGENT`` with its search's exploration constant set to ``C`` against ``AGENT``
unchanged, seats rotating as in ``tabletop arena``, and prints one line of W-D-L for the
changed agent. Run it once with the constant the agent already has (0.7 for the generic
search) to see the seat effect of those seeds alone. ``AGENT`` must be a level or named
agent built on :class:`tabletop.agents.search.SearchAgent` (Quartino's levels 3-5, any
game's ``mcts``/``ismcts``).
"""

from __future__ import annotations

import argparse
import multiprocessing
from typing import Any

from tabletop.agents.search import SearchAgent
from tabletop.agents.seat import Seat, make_seat
from tabletop.analysis import arena
from tabletop.game import Game

CHANGED = "@c="


def _seat(game: Game[Any, Any], level: str | None) -> Seat:
    """``make_seat``, with ``AGENT@c=X`` naming the agent with exploration ``X``."""
    base, _, constant = (level or "").partition(CHANGED)
    seat = make_seat(game, base or level)
    if constant:
        if not isinstance(seat.agent, SearchAgent):
            raise SystemExit(f"{base} is not a tree search agent")
        seat.agent.exploration = float(constant)
    return seat


def _play(args: tuple[arena.Setup, int]) -> arena.GameResult:
    arena.make_seat = _seat  # type: ignore[attr-defined]
    return arena.play_game(*args)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="an agent against itself, another constant")
    parser.add_argument("game")
    parser.add_argument("agent")
    parser.add_argument("constant", type=float)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args(argv)
    changed = f"{args.agent}{CHANGED}{args.constant}"
    agents = (changed, args.agent)
    setup = arena.Setup(args.game, agents, args.games, args.players, {}, args.seed)
    work = [(setup, i) for i in range(args.games)]
    with multiprocessing.Pool(args.jobs) as pool:
        results = pool.map(_play, work)
    row = arena.tally(results, agents)[changed]
    print(
        f"{args.game}, {args.players} players: {changed} against {args.agent}: "
        f"{row.wins}-{row.draws}-{row.losses} in {args.games} games"
    )


if __name__ == "__main__":
    main()

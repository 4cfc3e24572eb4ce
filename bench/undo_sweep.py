"""How undo behaves over whole seeded games of every hidden-information game (issue 22).

    python -m bench.undo_sweep [--games 10] [--max-actions 600]

A person in seat 1 plays uniformly random legal actions against level-1 computers in
every other seat; after every action seat 1 asks the table for an undo plan (without
carrying it out). Counted per game and player count: the undos asked, those allowed,
those that would take back another player's or a computer's action, and those that
would take back an action that showed seat 1 something hidden (24 sampled states each,
as in tests/test_undo_sweep.py). The last two must be 0.
"""

from __future__ import annotations

import argparse
import random
from typing import Any

from tabletop.agents.seat import make_seat
from tabletop.core.match import Match
from tabletop.core.registry import registry
from tabletop.core.table import Table
from tests.test_undo_sweep import actor, hidden_games, showed_something


def sweep(game_id: str, players: int, games: int, max_actions: int) -> tuple[int, int, int, int]:
    game = registry().get(game_id)
    asked = allowed = others = showed = 0
    for seed in range(games):
        match = Match(game, players, game.info.options(), seed)
        computers: dict[int, Any] = {p: make_seat(game, "1") for p in range(2, players + 1)}
        table = Table(match, computers)
        rng, probe = random.Random(seed), random.Random(f"probe:{seed}")
        while match.outcome() is None and len(match.actions) < max_actions:
            if table.computer_to_act() is not None:
                table.push(table.choose())
            else:
                legal = list(game.legal(match.state))
                table.play(1, game.format(match.state, rng.choice(legal)))
            asked += 1
            plan = table.undo_plan(1)
            if plan.refusal:
                continue
            allowed += 1
            taken = range(len(match.actions) - plan.count, len(match.actions))
            others += any(actor(match, i) != 1 for i in taken)
            showed += any(showed_something(match, i, 1, probe) for i in taken)
    return asked, allowed, others, showed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--max-actions", type=int, default=600)
    args = parser.parse_args()
    print("| game | players | undos asked | allowed | take back another's | take back a reveal |")
    print("|---|---|---|---|---|---|")
    for game_id, players in hidden_games():
        asked, allowed, others, showed = sweep(game_id, players, args.games, args.max_actions)
        print(f"| {game_id} | {players} | {asked} | {allowed} | {others} | {showed} |")


if __name__ == "__main__":
    main()

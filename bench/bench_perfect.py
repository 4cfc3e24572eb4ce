"""Quarto's ``perfect`` player against every level and against itself, both seats.

    python -m bench.bench_perfect [--games N] [--levels 1,2,3,4,5] [--squares] [--seed S]

Each pairing plays ``N`` games from each seat. The opening is varied: the other side's
first give and first placement are chosen at random (from the seed), the rest by the
agents with their own budgets (level 5 is ``perfect`` itself). Reported per level: games,
perfect's wins, draws and losses, and perfect's seconds per move (mean and longest,
wall-clock, on whatever the machine's other work leaves). A loss is a bug: the opening
book and the solver promise none.

``--check`` proves more than no loss: at every move of ``perfect`` the exact value of the
position for it (the book where it covers the position, else the solver without a
budget) is the same before and after the move, so every action kept the value (a won
game stays won, a drawn one drawn). Reported: moves checked and moves that lost value.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

from tabletop.agents.base import Turn
from tabletop.agents.levels import agent_levels
from tabletop.core.setup import resolve
from tabletop.game import player_of


def exact(game: Any, state: Any, player: int) -> int:
    """The exact value of ``state`` for ``player``: +1 won, 0 drawn, -1 lost (the book,
    else the solver without a budget)."""
    from tabletop_quarto import book
    from tabletop_quarto.solver import solve

    outcome = game.outcome(state)
    if outcome is not None:
        return 0 if not outcome.winners else 1 if player in outcome.winners else -1
    to_act = player_of(game.to_act(state))
    found = book.solved(state)
    value = found[0] if found is not None else solve(state).value
    return value if to_act == player else -value


def play(
    perfect_seat: int,
    level: str,
    seed: int,
    squares: bool,
    unclocked: bool = False,
    checked: list[int] | None = None,
) -> tuple[int, list[float]]:
    """One game: +1 perfect won, 0 draw, -1 lost; perfect's seconds per move
    (``unclocked``: perfect's budget in positions only, no 2 s cap: the same moves on a
    busy machine as on an idle one; ``checked``: [moves checked, moves that lost value],
    added to)."""
    from tabletop.agents.base import Budget
    from tabletop_quarto.agents import KERNEL_NODES
    from tabletop_quarto.agents.perfect import PerfectAgent

    game = resolve("quarto")
    options = game.info.options(squares=squares) if squares else game.info.options()
    ladder = agent_levels(game)
    perfect, other = ladder["5"], ladder[level]
    agents = {perfect_seat: perfect.make(), 3 - perfect_seat: other.make()}
    budgets = {perfect_seat: perfect.budget, 3 - perfect_seat: other.budget}
    if unclocked:
        for seat in (1, 2):
            if seat == perfect_seat or level == "5":
                agents[seat] = PerfectAgent(seconds=None, nodes=KERNEL_NODES)
                budgets[seat] = Budget()
    rng = random.Random(seed)
    state: Any = game.new(2, options, seed)
    times: list[float] = []
    randomised = {"give": False, "place": False}
    while (player := player_of(game.to_act(state))) is not None:
        legal = list(game.legal(state))
        kind = game.format(state, legal[0]).split()[0]
        if player != perfect_seat and kind in randomised and not randomised[kind]:
            randomised[kind] = True  # the weaker side's first give and placement: at random
            action = rng.choice(legal)
        else:
            turn = Turn(game, player, 2, options, game.view(state, player), legal,
                        random.Random(rng.random()), budgets[player])  # fmt: skip
            began = time.perf_counter()
            action = agents[player].act(turn)
            if player == perfect_seat:
                times.append(time.perf_counter() - began)
                if checked is not None:
                    before = exact(game, state, player)
                    after = exact(game, game.apply(state, action), player)
                    checked[0] += 1
                    if after < before:
                        checked[1] += 1
                        print(f"  value lost: seed {seed}, {game.format(state, action)}",
                              flush=True)  # fmt: skip
        state = game.apply(state, action)
    outcome = game.outcome(state)
    assert outcome is not None
    if not outcome.winners:
        return 0, times
    return (1 if perfect_seat in outcome.winners else -1), times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=20, help="games per level and seat")
    parser.add_argument("--levels", default="1,2,3,4,5")
    parser.add_argument("--squares", action="store_true", help="the 2x2-squares variant")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--unclocked", action="store_true", help="perfect: positions, no 2 s")
    parser.add_argument("--check", action="store_true", help="every move keeps the value")
    args = parser.parse_args()
    checked = [0, 0] if args.check else None
    print("| opponent | games | perfect won | draws | perfect lost | s/move mean | longest |")
    print("|---|---|---|---|---|---|---|")
    total_lost = 0
    for level in args.levels.split(","):
        results: list[int] = []
        times: list[float] = []
        for index in range(args.games):
            for seat in (1, 2):
                seed = args.seed * 10_000 + index * 2 + seat
                got, spent = play(seat, level, seed, args.squares, args.unclocked, checked)
                if got < 0:
                    print(f"  lost: level {level}, perfect at seat {seat}, seed {seed}", flush=True)
                results.append(got)
                times.extend(spent)
        lost = results.count(-1)
        total_lost += lost
        name = "perfect (itself)" if level == "5" else f"level {level}"
        print(f"| {name} | {len(results)} | {results.count(1)} | {results.count(0)} | {lost} "
              f"| {statistics.mean(times):.2f} | {max(times):.2f} |", flush=True)  # fmt: skip
    print(f"perfect lost {total_lost} games")
    if checked is not None:
        print(f"moves checked against the exact value: {checked[0]}, value lost at {checked[1]}")


if __name__ == "__main__":
    main()

"""ISMCTS with the game's own evaluation (``tabletop.bridges.evaluator.GameEvaluator``)
against the game's levels, through the OpenSpiel bridge (issue 41).

    python -m bench.bench_evaluator --games 10 --simulations 100 \
        "tabletop_ctverak(players=2,deck=half,stall_limit=2)" --levels 3,5

Each game seats ISMCTS (``ISMCTSBot``, UCT constant 2, ``--simulations`` a move, leaves
valued by :class:`GameEvaluator`) and one tabletop level, seats alternating by game,
deals by game index. Prints per level: ISMCTS's wins, draws and losses, its score share
(a win 1, a draw 1/2) with a 95% Wilson interval of the win share, and the share of
decided games. ``--evaluator random``: OpenSpiel's random roll-outs instead (the baseline).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def play(
    game_string: str, level: str, simulations: int, index: int, evaluator: str = "game"
) -> float:
    """One game: ISMCTS's return (+1 won, -1 lost, 0 drawn); ``evaluator`` ``game``
    (:class:`GameEvaluator`) or ``random`` (OpenSpiel's one random roll-out, the baseline)."""
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import ismcts, mcts

    from tabletop.agents.seat import make_seat
    from tabletop.bridges import openspiel
    from tabletop.bridges.evaluator import GameEvaluator

    openspiel.register()
    game = pyspiel.load_game(game_string)
    c = game.config
    np_rng = np.random.RandomState(index)
    leaves = (
        GameEvaluator(game, seed=index)
        if evaluator == "game"
        else mcts.RandomRolloutEvaluator(1, random_state=np_rng)
    )
    bot = ismcts.ISMCTSBot(game, leaves, 2.0, simulations, random_state=np_rng)
    opponent = make_seat(c.game, level)
    mine = index % c.players
    rng = random.Random(index)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _p in state.chance_outcomes()]))
        elif state.current_player() == mine:
            state.apply_action(bot.step(state))
        else:
            seat = state.current_player() + 1
            table = state.tabletop
            action = opponent.choose(c.game, table, seat, c.players, c.options, rng)
            state.apply_action(c.encoding.action_id(table, action))
    return float(state.returns()[mine])


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("games_strings", nargs="+", metavar="GAME")
    parser.add_argument("--levels", default="3,5")
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--simulations", type=int, default=100)
    parser.add_argument("--evaluator", choices=("game", "random"), default="game")
    args = parser.parse_args(argv)
    for game_string in args.games_strings:
        for level in args.levels.split(","):
            started = time.perf_counter()
            results = [
                play(game_string, level, args.simulations, i, args.evaluator)
                for i in range(args.games)
            ]
            wins = sum(r > 0 for r in results)
            losses = sum(r < 0 for r in results)
            draws = len(results) - wins - losses
            low, high = wilson(wins, len(results))
            print(
                json.dumps(
                    {
                        "game": game_string,
                        "level": level,
                        "simulations": args.simulations,
                        "evaluator": args.evaluator,
                        "games": len(results),
                        "wins": wins,
                        "draws": draws,
                        "losses": losses,
                        "score": (wins + draws / 2) / len(results),
                        "win_share_95": [round(low, 3), round(high, 3)],
                        "decided": (wins + losses) / len(results),
                        "seconds": round(time.perf_counter() - started, 1),
                    }
                ),
                flush=True,
            )


if __name__ == "__main__":
    main(sys.argv[1:])

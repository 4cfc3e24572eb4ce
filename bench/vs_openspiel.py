"""Our levels against OpenSpiel's MCTSBot at the same number of simulations (issue 16).

    python -m bench.vs_openspiel GAME --level L --simulations N [--games G] [--start S]
        [--set exploration=0.7 --set ...]   (SearchAgent options instead of the level's)

Needs ``pip install open-spiel``. The game is wrapped through tabletop's public API only
(``new``/``legal``/``apply``/``to_act``/``outcome``) as a minimal OpenSpiel-style Python
state whose int actions are the game's own (Quarto: 0-15 give, 16-31 place, 32 claim,
33 done; Connect Four: the column). The opponent is ``MCTSBot`` with UCT constant 2, one
random rollout per simulation and ``solve=True``. Our agent sees only its view, through
:class:`tabletop.agents.seat.Seat`. Seats alternate (ours is player 1 in even games);
game ``i`` is seeded by ``S + i``, so any range of games is reproduced exactly. Prints
ours W-D-L (with ``--progress N`` also every N games), the win rate over decided games
with its 95% Wilson interval, the seconds each side thought, and the command.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts

from tabletop.agents.arena import wilson
from tabletop.agents.base import Budget
from tabletop.agents.levels import agent_levels
from tabletop.agents.search import SearchAgent
from tabletop.agents.seat import Seat
from tabletop.core import options as opts
from tabletop.core.registry import registry

TERMINAL = pyspiel.PlayerId.TERMINAL


class WrappedGame:
    """What MCTSBot asks of a game: its type (sequential, terminal rewards) and bounds."""

    def __init__(self, game: Any, players: int) -> None:
        self.game, self.players = game, players

    def get_type(self) -> Any:
        return pyspiel.load_game("tic_tac_toe").get_type()  # sequential, terminal rewards

    def max_utility(self) -> float:
        return 1.0

    def num_players(self) -> int:
        return self.players


class WrappedState:
    """A tabletop state as an OpenSpiel state: players 0-based, returns +1/-1/0."""

    def __init__(self, game: Any, players: int, state: Any) -> None:
        self.game, self.players, self.state = game, players, state

    def clone(self) -> WrappedState:
        return WrappedState(self.game, self.players, self.state)  # states are immutable

    def legal_actions(self, player: int | None = None) -> list[int]:
        return list(self.game.legal(self.state))

    def apply_action(self, action: int) -> None:
        self.state = self.game.apply(self.state, int(action))

    def is_terminal(self) -> bool:
        return not self.game.legal(self.state)

    def is_chance_node(self) -> bool:
        return False

    def is_simultaneous_node(self) -> bool:
        return False

    def current_player(self) -> int:
        to_act = self.game.to_act(self.state)
        return int(TERMINAL) if to_act is None else to_act - 1

    def returns(self) -> list[float]:
        outcome = self.game.outcome(self.state)
        if outcome is None or not outcome.winners:
            return [0.0] * self.players
        return [1.0 if p + 1 in outcome.winners else -1.0 for p in range(self.players)]


def our_seat(game: Any, level: str, settings: list[str], simulations: int) -> Seat:
    """The level's agent, or with ``--set`` a SearchAgent with those options, at the
    level's budget (``simulations`` playouts for a SearchAgent built here)."""
    if settings:
        kwargs: dict[str, Any] = {k: float(v) for k, v in (s.split("=", 1) for s in settings)}
        agent = SearchAgent(**kwargs)
        return Seat(f"search {settings}", agent, Budget(iterations=simulations))
    chosen = agent_levels(game)[level]
    return Seat(level, chosen.make(), chosen.budget)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="our level against OpenSpiel's MCTSBot")
    parser.add_argument("game")
    parser.add_argument("--level", default="3")
    parser.add_argument("--simulations", type=int, required=True)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--start", type=int, default=0)
    parser.add_argument("--set", action="append", default=[])
    parser.add_argument("--progress", type=int, default=0, help="a W-D-L line every N games")
    args = parser.parse_args(argv)
    game = registry().get(args.game)
    options = opts.build(game.info.options, {}, game.info.id)
    players = 2
    seat = our_seat(game, args.level, args.set, args.simulations)
    wins = draws = losses = 0
    ours_s = theirs_s = 0.0
    for i in range(args.start, args.start + args.games):
        ours = 1 if i % 2 == 0 else 2
        state = game.new(players, options, i)
        bot = mcts.MCTSBot(
            WrappedGame(game, players),
            uct_c=2.0,
            max_simulations=args.simulations,
            evaluator=mcts.RandomRolloutEvaluator(1, np.random.RandomState(i)),
            solve=True,
            random_state=np.random.RandomState(i),
        )
        moves = 0
        while (player := game.to_act(state)) is not None:
            began = time.perf_counter()
            if player == ours:
                rng = random.Random(f"{i}:{player}:{moves}")
                action = seat.choose(game, state, player, players, options, rng)
                ours_s += time.perf_counter() - began
            else:
                action = int(bot.step(WrappedState(game, players, state)))
                theirs_s += time.perf_counter() - began
            state = game.apply(state, action)
            moves += 1
        outcome = game.outcome(state)
        winners = outcome.winners if outcome else ()
        if not winners:
            draws += 1
        elif ours in winners:
            wins += 1
        else:
            losses += 1
        if args.progress and (i - args.start + 1) % args.progress == 0:
            print(f"  after {i - args.start + 1} games: {wins}-{draws}-{losses}", flush=True)
    decided = wins + losses
    low, high = wilson(wins, decided) if decided else (0.0, 1.0)
    rate = f"{wins / decided:.0%} ({low:.0%}-{high:.0%})" if decided else "-"
    print(
        f"| {args.game} {seat.level} | MCTSBot {args.simulations} | {args.games} | "
        f"{wins}-{draws}-{losses} | {rate} | {ours_s:.0f} s / {theirs_s:.0f} s |"
    )
    print("  python -m bench.vs_openspiel " + " ".join(sys.argv[1:] if argv is None else argv))


if __name__ == "__main__":
    main()

"""The research bridges' overhead, OpenSpiel's connect_four as a yardstick, and the arena
table of our levels against ``openspiel-mcts:N`` (needs the ``research`` extra).

    python -m bench.bench_bridges speed [--seconds S] [--rounds R] [--every-count]
    python -m bench.bench_bridges variants [--seconds S] [--rounds R]
    python -m bench.bench_bridges research [GAME_STRING ...]
    python -m bench.bench_bridges table FILE.jsonl ...

``speed``: (1) random full games per second for every built-in game (Quarto, Quartino
and Čtverák with 4 players, Connect Four) through the game API directly, through the
PettingZoo AEC environment (every step observes the agent to act: its vector and action
mask; the random id is drawn from the mask with one ``random()``, as the API's loop
draws its action), through the single-agent Gymnasium environment (a random masked
learner at seat 1, level 1, random, at the other seats) and through the OpenSpiel game
(legal ids + apply, the shuffle's chance nodes included), with the PettingZoo/API ratio
and the milliseconds the OpenSpiel shuffle costs a game (``--every-count``: every
player count of every game, not only 4 players); each rate is the best of ``--rounds``
interleaved rounds (:func:`best_rates`); (2) Connect Four side by side:
random games per second and MCTS iterations per second (OpenSpiel's Python MCTSBot, one
random rollout) on OpenSpiel's C++ ``connect_four``, on our example through the bridge,
and our own generic search (``SearchAgent``, random playouts) on our example, in one
run. Rates are per CPU second of the benchmark's process (``time.process_time``), not
wall-clock.

``variants``: the same API and PettingZoo loops, ratio beside, for the options that
change a game's length or encoding (:data:`VARIANTS`: Quarto's squares and manual claims,
Quartino's turn limits and mirror, Čtverák's half deck, a 9×7 Connect Four).

``research``: for each OpenSpiel game string (default: the research-sized configurations
of ``docs/research.md``) the information sets after 300 iterations of OpenSpiel's
outcome-sampling MCCFR and how many hold a NaN regret or average, then 200 random games:
the median and longest count of actions, games per second and the commonest returns.

``table``: a row per file of ``tabletop arena --json`` output (one JSON per line; chunked
runs of one pairing summed): wins, draws and losses of our level against
``openspiel-mcts:N``. The README's table was made with one run a pairing::

    for run in "quarto 3 300" "quarto 4 3000" "connect4 3 200" "connect4 4 1000"; do
      set -- $run; out=$1-L$2-mcts$3.json
      tabletop arena $1 --agents $2,openspiel-mcts:$3 --games 200 --seed 1 --jobs 2 --json >$out
    done
    python -m bench.bench_bridges table *-mcts*.json
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts

from bench.common import random_playout
from tabletop.agents.base import Budget, Turn
from tabletop.agents.search import SearchAgent
from tabletop.analysis.arena import wilson
from tabletop.bridges import openspiel
from tabletop.bridges.gym import SingleAgentEnv
from tabletop.bridges.pettingzoo import env
from tabletop.core.registry import registry

GAMES = (("quarto", 2), ("quartino", 4), ("ctverak", 4), ("connect4", 2))
EVERY_COUNT = (
    ("quarto", 2),
    *(("quartino", n) for n in (2, 3, 4)),
    *(("ctverak", n) for n in (2, 3, 4, 5, 6)),
    ("connect4", 2),
)


def best_rates(
    plays: dict[str, Callable[[int], Any]], seconds: float, rounds: int
) -> dict[str, float]:
    """Each play's best :func:`rate` over ``rounds`` rounds of ``seconds / rounds`` each,
    the plays taking turns within every round: on a shared machine a burst of other work
    then slows one round of every play, not all of one play, and the best round of each
    is the nearest to its rate on a quiet machine (the ratios compare like with like)."""
    best = dict.fromkeys(plays, 0.0)
    for _ in range(rounds):
        for name, play in plays.items():
            best[name] = max(best[name], rate(play, seconds / rounds))
    return best


def rate(play: Callable[[int], Any], seconds: float) -> float:
    """Calls of ``play(i)`` per CPU second of this process, for about ``seconds`` of it (at
    least 3 calls): process time, so that other work on a shared machine skews it less."""
    done = 0
    began = time.process_time()
    while done < 3 or time.process_time() - began < seconds:
        play(done)
        done += 1
    return done / (time.process_time() - began)


def direct(
    game_id: str, players: int, options: dict[str, Any] | None = None
) -> Callable[[int], Any]:
    game = registry().get(game_id)
    model = game.info.options(**(options or {}))
    rand = random.Random(1).random
    return lambda i: random_playout(game.legal, game.apply, game.new(players, model, i), rand)


def masked(rand: Callable[[], float]) -> Callable[[Any], int]:
    """A uniformly random id of an action mask, drawn as :func:`direct` draws (one
    ``random()``): numpy's ``Generator.choice`` costs ~35 us a call here, ten times a
    whole step of the game API, and would be measured instead of the environment."""

    def choose(mask: Any) -> int:
        ids = mask.nonzero()[0]
        return int(ids[int(rand() * len(ids))])

    return choose


def pettingzoo(
    game_id: str, players: int, options: dict[str, Any] | None = None
) -> Callable[[int], Any]:
    e = env(game_id, players=players, options=options, seed=0)
    choose = masked(random.Random(1).random)

    def play(i: int) -> None:
        e.reset(seed=i)
        for _ in e.agent_iter():
            observation, _, termination, truncation, _ = e.last()
            if termination or truncation:
                e.step(None)
            else:
                e.step(choose(observation["action_mask"]))

    return play


def gym_random(game_id: str, players: int) -> Callable[[int], Any]:
    e = SingleAgentEnv(game_id, opponents="1", players=players)
    choose = masked(random.Random(1).random)

    def play(i: int) -> None:
        observation, _ = e.reset(seed=i)
        done = False
        while not done:
            observation, _, done, _, _ = e.step(choose(observation["action_mask"]))

    return play


def shuffle_ms(game: Any, games: int = 2000) -> float:
    """Milliseconds a game the OpenSpiel shuffle costs (its chance nodes and the deal)."""
    rng = random.Random(1)
    began = time.process_time()
    for _ in range(games):
        state = game.new_initial_state()
        while state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
    return (time.process_time() - began) / games * 1e3


def spiel_random(game: Any) -> Callable[[int], Any]:
    rng = random.Random(1)

    def play(i: int) -> None:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.randrange(len(state.chance_outcomes())))
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])

    return play


def spiel_mcts(game: Any, simulations: int) -> float:
    """MCTSBot iterations per second choosing the first move."""
    rng = np.random.RandomState(0)
    evaluator = mcts.RandomRolloutEvaluator(1, rng)
    bot = mcts.MCTSBot(game, 2.0, simulations, evaluator, random_state=rng)
    began = time.process_time()
    bot.step(game.new_initial_state())
    return simulations / (time.process_time() - began)


def our_search(game_id: str, playouts: int) -> float:
    """Our generic SearchAgent (random playouts) playouts per second, first move."""
    game = registry().get(game_id)
    options = game.info.options()
    state = game.new(2, options, 0)
    turn = Turn(
        game,
        1,
        2,
        options,
        game.view(state, 1),
        list(game.legal(state)),
        random.Random(0),
        Budget(iterations=playouts),
    )
    began = time.process_time()
    SearchAgent().act(turn)
    return playouts / (time.process_time() - began)


def speed(seconds: float, rounds: int, every_count: bool) -> None:
    openspiel.register()
    head = ("game", "API games/s", "PettingZoo", "API/PZ", "Gymnasium", "OpenSpiel", "shuffle ms")
    print(
        f"{head[0]:<14} {head[1]:>12} {head[2]:>11} {head[3]:>7} {head[4]:>10} "
        f"{head[5]:>10} {head[6]:>10}"
    )
    for game_id, players in EVERY_COUNT if every_count else GAMES:
        spiel = pyspiel.load_game(f"tabletop_{game_id}", {"players": players})
        plays = {
            "api": direct(game_id, players),
            "zoo": pettingzoo(game_id, players),
            "gym": gym_random(game_id, players),
            "spiel": spiel_random(spiel),
        }
        rates = best_rates(plays, seconds, rounds)
        api, zoo, gym, spiel_rate = (rates[name] for name in plays)
        chance = shuffle_ms(spiel) if spiel.get_type().chance_mode.name != "DETERMINISTIC" else 0.0
        label = f"{game_id} ({players}p)"
        print(
            f"{label:<14} {api:>12,.1f} {zoo:>11,.1f} {api / zoo:>7.1f} {gym:>10,.1f} "
            f"{spiel_rate:>10,.1f} {chance:>10.3f}",
            flush=True,
        )
    cpp = pyspiel.load_game("connect_four")
    ours = pyspiel.load_game("tabletop_connect4")
    print(f"\n{'connect four':<34} {'random games/s':>15} {'MCTS iterations/s':>18}")
    rows = (
        ("OpenSpiel C++ connect_four", rate(spiel_random(cpp), seconds), spiel_mcts(cpp, 2000)),
        ("our connect4 via the bridge", rate(spiel_random(ours), seconds), spiel_mcts(ours, 500)),
        (
            "our connect4, game API / SearchAgent",
            rate(direct("connect4", 2), seconds),
            our_search("connect4", 2000),
        ),
    )
    for name, games, iterations in rows:
        print(f"{name:<34} {games:>15,.0f} {iterations:>18,.0f}", flush=True)


VARIANTS: tuple[tuple[str, int, dict[str, Any]], ...] = (
    ("quarto", 2, {"squares": True}),
    ("quarto", 2, {"claim": "manual"}),
    ("quarto", 2, {"squares": True, "claim": "manual"}),
    ("quartino", 4, {"max_turns": 60}),
    ("quartino", 2, {"max_turns": 8}),
    ("quartino", 3, {"mirror": True}),
    ("ctverak", 2, {"deck": "half", "stall_limit": 2}),
    ("connect4", 2, {"columns": 9, "rows": 7}),
)


def variants(seconds: float, rounds: int) -> None:
    """API and PettingZoo random games per second of each of :data:`VARIANTS`."""
    print(f"{'configuration':<44} {'API games/s':>12} {'PettingZoo':>11} {'API/PZ':>7}")
    for game_id, players, options in VARIANTS:
        plays = {
            "api": direct(game_id, players, options),
            "zoo": pettingzoo(game_id, players, options),
        }
        rates = best_rates(plays, seconds, rounds)
        label = f"{game_id} ({players}p) " + ",".join(f"{k}={v}" for k, v in options.items())
        print(
            f"{label:<44} {rates['api']:>12,.1f} {rates['zoo']:>11,.1f} "
            f"{rates['api'] / rates['zoo']:>7.1f}",
            flush=True,
        )


RESEARCH = (  # docs/research.md's table; 32 turns is the shortest Quartino that decides
    "tabletop_quartino(players=2,max_turns=32)",
    "tabletop_ctverak(players=2,deck=half,stall_limit=2)",
    "tabletop_ctverak(players=3,deck=half,stall_limit=2)",
    "tabletop_ctverak(players=2,deck=half,stall_limit=8,scoring=extended,reward=score)",
)


def research(strings: list[str]) -> None:
    """The research-sized configurations: sampling CFR's health and random games."""
    from open_spiel.python.algorithms import outcome_sampling_mccfr

    openspiel.register()
    for text in strings or RESEARCH:
        game = pyspiel.load_game(text)
        began = time.perf_counter()
        solver = outcome_sampling_mccfr.OutcomeSamplingSolver(game)
        for _ in range(300):
            solver.iteration()
        tables = solver._infostates  # its regrets and averages per information set
        nan = sum(bool(np.isnan(v[0]).any() or np.isnan(v[1]).any()) for v in tables.values())
        spent = time.perf_counter() - began
        rng = random.Random(0)
        lengths: list[int] = []
        results: dict[tuple[float, ...], int] = {}
        began = time.perf_counter()
        for _ in range(200):
            state = game.new_initial_state()
            moves = 0
            while not state.is_terminal():
                if state.is_chance_node():
                    state.apply_action(rng.choice([a for a, _p in state.chance_outcomes()]))
                else:
                    state.apply_action(rng.choice(state.legal_actions()))
                    moves += 1
            lengths.append(moves)
            key = tuple(state.returns())
            results[key] = results.get(key, 0) + 1
        rate_ = 200 / (time.perf_counter() - began)
        common = sorted(results.items(), key=lambda kv: -kv[1])[:3]
        print(
            f"{text}: {len(tables):,} information sets after 300 OS-MCCFR iterations "
            f"({spent:.1f} s), {nan} with NaN; random games: median "
            f"{sorted(lengths)[len(lengths) // 2]} actions, longest {max(lengths)}, "
            f"{rate_:,.0f} games/s, returns {common}",
            flush=True,
        )


def table(paths: list[Path]) -> None:
    """A Markdown row per file: our level's W-D-L against openspiel-mcts, its share of the
    decided games with the 95% Wilson interval, and the seconds per game of each side."""
    print(
        "| game: ours vs OpenSpiel | games | ours W-D-L | ours, won of decided (95% CI) "
        "| s/game ours / OpenSpiel |"
    )
    print("|---|---|---|---|---|")
    for path in paths:
        totals: dict[str, list[float]] = {}  # agent: wins, draws, losses, seconds
        games = 0
        for line in path.read_text().splitlines():
            if not line.strip():
                continue
            data = json.loads(line)
            games += data["games"]
            for row in data["agents"]:
                tally = totals.setdefault(row["agent"], [0, 0, 0, 0.0])
                for i, key in enumerate(("wins", "draws", "losses")):
                    tally[i] += row[key]
                tally[3] += row["seconds_per_game"] * data["games"]
        if not games:
            continue
        game = path.stem.split("-")[0]
        ours = next(agent for agent in totals if not agent.startswith("openspiel"))
        theirs = next(agent for agent in totals if agent.startswith("openspiel"))
        w, d, loss, spent = totals[ours]
        low, high = wilson(w, int(w + loss))
        share = w / (w + loss) if w + loss else 0.0
        print(
            f"| {game}: level {ours} vs {theirs} | {games} | {w:.0f}-{d:.0f}-{loss:.0f} "
            f"| {share:.0%} ({low:.0%}-{high:.0%}) "
            f"| {spent / games:.1f} / {totals[theirs][3] / games:.1f} |"
        )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    sub = parser.add_subparsers(dest="what", required=True)
    s = sub.add_parser("speed")
    s.add_argument("--seconds", type=float, default=5.0, help="CPU seconds per measure")
    s.add_argument("--rounds", type=int, default=5, help="interleaved rounds, best kept")
    s.add_argument("--every-count", action="store_true", help="every player count")
    v = sub.add_parser("variants")
    v.add_argument("--seconds", type=float, default=4.0, help="CPU seconds per measure")
    v.add_argument("--rounds", type=int, default=8, help="interleaved rounds, best kept")
    r = sub.add_parser("research")
    r.add_argument("strings", nargs="*")
    t = sub.add_parser("table")
    t.add_argument("files", nargs="+", type=Path)
    args = parser.parse_args(argv)
    if args.what == "speed":
        speed(args.seconds, args.rounds, args.every_count)
    elif args.what == "variants":
        variants(args.seconds, args.rounds)
    elif args.what == "research":
        research(args.strings)
    else:
        table(args.files)


if __name__ == "__main__":
    main(sys.argv[1:])

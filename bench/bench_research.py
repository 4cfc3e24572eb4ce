"""Research benchmarks of the bridges on the true game tree (issue 36).

    python -m bench.bench_research speed --seconds 2      # API vs PettingZoo random games/s
    python -m bench.bench_research tree                   # get_all_states vs native goofspiel
    python -m bench.bench_research cfr "tabletop_goofspiel(num_cards=3)" --iterations 50
    python -m bench.bench_research knuth "tabletop_quartino(players=2,max_turns=1)"
    python -m bench.bench_research research --iterations 64   # the research configurations
    python -m bench.bench_research resample --seeds 8         # Čtverák resamples that are histories

``speed``: random full games per CPU second through the game API (chance drawn by its
probabilities, a simultaneous step's choices drawn per player) and through the PettingZoo
AEC environment, in the same run, interleaved (``bench.bench_bridges.best_rates``), for
every built-in game and the example plugins Goofspiel and Pig (installed or on the path).
``tree``: ``get_all_states`` of Goofspiel (descending and random orders) through the
bridge and natively: decision nodes, player 0's information states, seconds.
``cfr``: the exploitability curve of CFR (on the turn-based transform of a simultaneous
game) for any game strings, every ``--every`` iterations.
``knuth``: Knuth's estimate of the number of histories of whole game trees, and the exact
size of the deal's chance prefix: how far a configuration is from ``get_all_states``.
``research``: for each research configuration (:data:`RESEARCH`, issue 36 item 4; or the
game strings given), the whole tree by ``get_all_states`` (histories, chance, decision and
terminal nodes, information states per player, CPU seconds), then CFR's exploitability
after 1, 2, 4, 8, ... iterations with the CPU seconds so far.
``resample``: for game strings (default Čtverák, 2 and 4 players) after the deal and
``--moves`` random decisions, the share of ``resample_from_infostate`` results that are
histories of the tree (no hidden entry, every action legal on replay) rather than the
view sampled after the resampler gave up, and the CPU milliseconds a resample.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from decimal import Decimal
from pathlib import Path
from typing import Any

import pyspiel
from open_spiel.python.algorithms import cfr, exploitability, get_all_states

from bench.bench_bridges import best_rates, masked
from tabletop.bridges import openspiel
from tabletop.bridges.pettingzoo import env
from tabletop.core.match import draw
from tabletop.core.registry import registry
from tabletop.game import CHANCE, Game

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
SPEED: tuple[tuple[str, int, dict[str, Any]], ...] = (
    ("quarto", 2, {}),
    ("quartino", 4, {}),
    ("ctverak", 4, {}),
    ("connect4", 2, {}),
    ("goofspiel", 2, {"num_cards": 8}),
    ("goofspiel", 3, {"num_cards": 8, "points_order": "descending"}),
    ("pig", 2, {}),
)


# The research configurations (issue 36, item 4): the smallest documented configuration of
# each hidden-information built-in game, its whole tree within a minute here, two-player
# and zero-sum (reward=win_loss) so that exploitability is defined. docs/research.md.
RESEARCH = (
    "tabletop_quartino(players=2,hand=1,cards=3,ring=3,pawns=2,setup=one-each,max_turns=2,"
    "reward=win_loss)",
    "tabletop_ctverak(players=2,ranks=1,suits=1,hand=2,piles=1,max_turns=4,reward=win_loss)",
)


def _game(game_id: str) -> Game[Any, Any]:
    """An installed game, or an example plugin from its folder."""
    if game_id not in registry().ids() and (EXAMPLES / game_id).is_dir():
        sys.path.append(str(EXAMPLES / game_id))
        module = __import__(f"tabletop_{game_id}.game", fromlist=["game"])
        found: Game[Any, Any] = next(
            v() for k, v in vars(module).items() if k.endswith("Game") and k != "Game"
        )
        return found
    return registry().get(game_id)


def api_play(game: Game[Any, Any], players: int, options: Any) -> Callable[[int], Any]:
    """A random game through the rules API: chance by its probabilities, each player's own
    choice at a simultaneous step."""
    rand = random.Random(1)

    def play(i: int) -> None:
        state = game.new(players, options, i)
        while True:
            actor = game.to_act(state)
            if actor is None:
                return
            if actor == CHANCE:
                state = game.apply(state, draw(game.chance_outcomes(state), rand))
            elif isinstance(actor, frozenset):
                joint = []
                for p in sorted(actor):
                    mine = game.choices(state, p)
                    joint.append(mine[int(rand.random() * len(mine))])
                state = game.apply(state, tuple(joint))
            else:
                legal = game.legal(state)
                state = game.apply(state, legal[int(rand.random() * len(legal))])

    return play


def zoo_play(game: Game[Any, Any], players: int, options: dict[str, Any]) -> Callable[[int], Any]:
    e = env(game, players=players, options=options, seed=0)
    choose = masked(random.Random(1).random)

    def play(i: int) -> None:
        e.reset(seed=i)
        for _ in e.agent_iter():
            observation, _, termination, truncation, _ = e.last()
            e.step(None if termination or truncation else choose(observation["action_mask"]))

    return play


def speed(seconds: float, rounds: int) -> None:
    print(f"{'game':<34} {'API games/s':>12} {'PettingZoo':>11} {'API/PZ':>7}")
    for game_id, players, options in SPEED:
        game = _game(game_id)
        model = game.info.options(**options)
        plays = {"api": api_play(game, players, model), "zoo": zoo_play(game, players, options)}
        rates = best_rates(plays, seconds, rounds)
        label = f"{game_id} ({players}p) {options or ''}"
        api, zoo = rates["api"], rates["zoo"]
        print(f"{label:<34} {api:>12,.1f} {zoo:>11,.1f} {api / zoo:>7.2f}", flush=True)


def _states(name: str) -> tuple[int, int, float]:
    game = pyspiel.load_game(name)
    began = time.process_time()
    found = get_all_states.get_all_states(
        game,
        include_terminals=False,
        include_chance_states=False,
        to_string=lambda s: s.history_str(),
    )
    took = time.process_time() - began
    infos = {s.information_state_string(0) for s in found.values()}
    return len(found), len(infos), took


def tree() -> None:
    openspiel.register_game(_game("goofspiel"))
    print(
        f"{'goofspiel':<32} {'nodes':>7} {'infos':>7} {'s here':>8} {'native':>7} "
        f"{'infos':>7} {'s':>7}"
    )
    for cards, order in (
        (3, "descending"),
        (4, "descending"),
        (5, "descending"),
        (3, "random"),
        (4, "random"),
    ):
        params = f"num_cards={cards},points_order={order}"
        ours = _states(f"tabletop_goofspiel({params})")
        native = _states(f"goofspiel({params})")
        print(
            f"{params:<32} {ours[0]:>7,} {ours[1]:>7,} {ours[2]:>8.3f} {native[0]:>7,} "
            f"{native[1]:>7,} {native[2]:>7.3f}",
            flush=True,
        )


def cfr_curve(names: list[str], iterations: int, every: int) -> None:
    for example in ("goofspiel", "pig"):
        openspiel.register_game(_game(example))
    openspiel.register()
    for name in names:
        game = pyspiel.load_game(name)
        if game.get_type().dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS:
            game = pyspiel.convert_to_turn_based(game)
        solver = cfr.CFRSolver(game)
        began = time.process_time()
        print(name)
        for i in range(1, iterations + 1):
            solver.evaluate_and_update_policy()
            if i % every == 0 or i == iterations:
                gap = exploitability.exploitability(game, solver.average_policy())
                print(
                    f"  {i:>6} iterations  exploitability {gap:.5f}  "
                    f"{time.process_time() - began:.1f} s",
                    flush=True,
                )


def whole_tree(game: Any) -> dict[str, Any]:
    """Every history of ``game`` (``get_all_states``, chance and terminal ones too, keyed by
    the history): the counts by kind, the information states per player, CPU seconds."""
    began = time.process_time()
    found = get_all_states.get_all_states(
        game,
        include_terminals=True,
        include_chance_states=True,
        to_string=lambda s: s.history_str(),
    )
    took = time.process_time() - began
    decisions = [s for s in found.values() if not s.is_terminal() and not s.is_chance_node()]
    infos = [
        len({s.information_state_string(p) for s in decisions if s.current_player() == p})
        for p in range(game.num_players())
    ]
    return {
        "histories": len(found),
        "chance": sum(1 for s in found.values() if s.is_chance_node()),
        "decisions": len(decisions),
        "terminals": sum(1 for s in found.values() if s.is_terminal()),
        "infos": infos,
        "seconds": took,
    }


def research(names: list[str], iterations: int) -> None:
    """The tree and CFR's exploitability curve (at powers of two) of each configuration."""
    openspiel.register()
    for name in names:
        game = pyspiel.load_game(name)
        size = whole_tree(game)
        infos = " / ".join(f"{n:,}" for n in size["infos"])
        print(name)
        print(
            f"  tree: {size['histories']:,} histories ({size['chance']:,} chance, "
            f"{size['decisions']:,} decision, {size['terminals']:,} terminal); information "
            f"states per player {infos}; get_all_states {size['seconds']:.1f} s",
            flush=True,
        )
        began = time.process_time()
        solver = cfr.CFRSolver(game)
        for i in range(1, iterations + 1):
            solver.evaluate_and_update_policy()
            if i & (i - 1) == 0 or i == iterations:
                gap = exploitability.exploitability(game, solver.average_policy())
                print(
                    f"  CFR {i:>5} iterations  exploitability {gap:.5f}  "
                    f"{time.process_time() - began:.1f} s",
                    flush=True,
                )


def knuth(names: list[str], probes: int, seed: int) -> None:
    """Knuth's estimate of the number of histories (nodes of every kind, terminals too)
    of each game's whole tree: the mean over random root-to-leaf paths, each child drawn
    uniformly, of 1 + b1 + b1*b2 + ... (b the branching factors along the path), which
    is unbiased; and the deal's chance prefix alone, counted exactly as the product of
    the chance nodes' branching before the first decision."""
    openspiel.register()
    rng = random.Random(seed)
    for name in names:
        game = pyspiel.load_game(name)
        began = time.process_time()
        total = 0  # exact ints: a long game's products pass any float
        prefix = 1
        for probe in range(probes):
            state = game.new_initial_state()
            estimate, weight, dealing = 1, 1, True
            while not state.is_terminal():
                if state.is_chance_node():
                    ids = [a for a, _p in state.chance_outcomes()]
                else:
                    ids = state.legal_actions()
                    dealing = False
                if probe == 0 and dealing:
                    prefix *= len(ids)
                weight *= len(ids)
                estimate += weight
                state.apply_action(rng.choice(ids))
            total += estimate
        print(
            f"{name}: about {Decimal(total) / probes:.2g} histories ({probes} probes), "
            f"the deal alone {prefix:.3g}; {time.process_time() - began:.1f} s",
            flush=True,
        )


RESAMPLED = ("tabletop_ctverak(players=2)", "tabletop_ctverak(players=4)")


def _after(game: Any, seed: int, moves: int) -> Any:
    """A state after the deal of ``seed`` and ``moves`` random decisions (fewer at an end),
    its chance steps drawn."""
    rng = random.Random(seed)
    state, done = game.new_initial_state(), 0
    while not state.is_terminal() and (done < moves or state.is_chance_node()):
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _p in state.chance_outcomes()]))
            continue
        after = state.child(rng.choice(state.legal_actions()))
        if after.is_terminal():
            break
        state, done = after, done + 1
    return state


def resamples(names: list[str], seeds: int, points: list[int]) -> None:
    from tabletop.bridges.states import HIDDEN

    openspiel.register()
    for name in names:
        game = pyspiel.load_game(name)
        for moves in points:
            true = total = 0
            rng = random.Random(5)
            began = time.process_time()
            for seed in range(seeds):
                real = _after(game, seed, moves)
                for p in range(game.num_players()):
                    sample = real.resample_from_infostate(p, rng.random)
                    assert sample.information_state_string(p) == real.information_state_string(p)
                    total += 1
                    if all(pa.action != HIDDEN for pa in sample.full_history()):
                        replay = game.new_initial_state()
                        for action in sample.history():
                            assert action in replay.legal_actions()
                            replay.apply_action(action)
                        true += 1
            each = (time.process_time() - began) / total * 1000
            print(
                f"{name} after {moves} moves: {true}/{total} histories of the tree, "
                f"{each:.0f} ms a resample",
                flush=True,
            )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    sub = parser.add_subparsers(dest="command", required=True)
    s = sub.add_parser("speed", help="API vs PettingZoo random games per second")
    s.add_argument("--seconds", type=float, default=2.0, help="CPU seconds per measure")
    s.add_argument("--rounds", type=int, default=4, help="interleaved rounds, best kept")
    sub.add_parser("tree", help="get_all_states of goofspiel, here and native")
    c = sub.add_parser("cfr", help="CFR's exploitability curve for game strings")
    c.add_argument("names", nargs="+")
    c.add_argument("--iterations", type=int, default=50)
    c.add_argument("--every", type=int, default=10)
    k = sub.add_parser("knuth", help="Knuth's estimate of the size of game trees")
    k.add_argument("names", nargs="+")
    k.add_argument("--probes", type=int, default=200)
    k.add_argument("--seed", type=int, default=0)
    r = sub.add_parser("research", help="tree sizes and CFR curves of research configurations")
    r.add_argument("names", nargs="*", help="game strings (default: the research configurations)")
    r.add_argument("--iterations", type=int, default=64)
    m = sub.add_parser("resample", help="share of resamples that are histories of the tree")
    m.add_argument("names", nargs="*", help="game strings (default: Čtverák, 2 and 4 players)")
    m.add_argument("--seeds", type=int, default=8)
    m.add_argument("--moves", type=int, nargs="+", default=[0, 5, 15, 30, 60])
    args = parser.parse_args(argv)
    if args.command == "resample":
        resamples(args.names or list(RESAMPLED), args.seeds, args.moves)
    elif args.command == "speed":
        speed(args.seconds, args.rounds)
    elif args.command == "tree":
        tree()
    elif args.command == "knuth":
        knuth(args.names, args.probes, args.seed)
    elif args.command == "research":
        research(args.names or list(RESEARCH), args.iterations)
    else:
        cfr_curve(args.names, args.iterations, args.every)


if __name__ == "__main__":
    main()

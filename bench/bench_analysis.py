"""``tabletop analyse`` throughput: local processes against Ray, and Ray's overheads.

    python -m bench.bench_analysis [--quarto N] [--ctverak N] [--batches 1,4,8,16,32]
    python -m bench.bench_analysis --probe N

``--probe N`` measures only what watching a game costs: N games of each of Čtverák,
Quartino (level 1, where the agent costs least and the probe most) and Quarto (level
2) played by the arena alone, then measured by the analysis probe (every player's
evaluation at every decision, lead changes, drama, stability, the sampled clarity).

Plays the same two sweeps (a Quarto level-2 sweep over ``squares``, a Čtverák level-3
sweep over ``min_natural`` with 2 and 3 players) on the local backend with 1 and 2 jobs,
then on a local Ray instance with 1 and 2 workers, and prints games/s for each. It also
prints Ray's start-up (``ray.init`` to a first finished task, and ``shutdown``), its
overhead per game (Ray on 1 worker against local on 1 job, same games) and, on 1
worker, the seconds a run takes with batches of 1, 4, 8, ... games per task: the
measurement behind ``tabletop.analysis.backends.BATCH``. Every run is checked to give
the same results as the first.
"""

from __future__ import annotations

import argparse
import logging
import time
from typing import Any

from tabletop.analysis import backends
from tabletop.analysis.run import analyse, total_games
from tabletop.analysis.sweep import Plan, make_plan


def sweeps(quarto: int, ctverak: int) -> dict[str, Plan]:
    return {
        "quarto L2": make_plan("quarto", None, ["squares=false,true"], "2", quarto, 0),
        "ctverak L3": make_plan("ctverak", "2,3", ["min_natural=1,2"], "3", ctverak, 0),
    }


def timed(plan: Plan, jobs: int, backend: str) -> tuple[float, dict[str, Any]]:
    """The best of two runs (the machine is shared) and the analysis."""
    best = float("inf")
    for _ in range(2):
        began = time.perf_counter()
        data = analyse(plan, jobs, backend)
        best = min(best, time.perf_counter() - began)
    return best, data


def per_task(tasks: int = 200) -> float:
    """Seconds Ray spends on one task that does nothing (batches of one, one at a time)."""
    backends.BATCH = 1
    began = time.perf_counter()
    backends.run(abs, list(range(tasks)), 1, "ray")
    backends.BATCH = 8
    return (time.perf_counter() - began) / tasks


def start_ray(workers: int) -> tuple[Any, float]:
    """A quiet local Ray of ``workers`` CPUs; seconds to its first finished task."""
    ray = backends.import_ray()
    began = time.perf_counter()
    ray.init(
        num_cpus=workers, include_dashboard=False, log_to_driver=False, logging_level=logging.ERROR
    )
    ray.get(ray.remote(backends._batch).remote(abs, [1]))
    return ray, time.perf_counter() - began


def probe_cost(games: int) -> None:
    """Milliseconds a game: the arena alone, then with the analysis probe."""
    from tabletop.analysis.arena import play_game
    from tabletop.analysis.observe import measure_game

    for game, players, level in (
        ("ctverak", "3", "1"),
        ("quartino", "2", "1"),
        ("quarto", None, "2"),
    ):
        plan = make_plan(game, players, [], level, games, 0)
        setup = plan.self_play(plan.configurations[0], level)
        began = time.perf_counter()
        for index in range(games):
            play_game(setup, index)
        alone = (time.perf_counter() - began) / games
        began = time.perf_counter()
        for index in range(games):
            measure_game((setup, index))
        probed = (time.perf_counter() - began) / games
        print(
            f"probe {game:9} L{level}: {alone * 1000:7.1f} ms/game alone, "
            f"{probed * 1000:7.1f} ms/game measured ({probed / alone:.2f}x)"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--probe", type=int, default=0, help="only the probe's cost, N games")
    parser.add_argument("--quarto", type=int, default=200, help="games per configuration")
    parser.add_argument("--ctverak", type=int, default=50, help="games per configuration")
    parser.add_argument("--batches", default="1,4,8,16,32", help="Ray batch sizes to try")
    args = parser.parse_args()
    if args.probe:
        probe_cost(args.probe)
        return
    plans = sweeps(args.quarto, args.ctverak)
    for plan in sweeps(2, 2).values():  # warm up: plugins loaded, caches filled
        analyse(plan)
    reference: dict[str, Any] = {}
    local: dict[str, float] = {}
    for jobs in (1, 2):
        for name, plan in plans.items():
            seconds, data = timed(plan, jobs, "local")
            reference.setdefault(name, data["configurations"])
            assert data["configurations"] == reference[name], f"{name}: results differ"
            local.setdefault(name, seconds)
            games = total_games(plan)
            print(
                f"local {jobs} job(s)  {name:11} {games:5} games {seconds:7.2f} s "
                f"{games / seconds:8.1f} games/s"
            )
    for workers in (1, 2):
        ray, startup = start_ray(workers)
        print(f"ray   {workers} worker(s) start-up to a first task: {startup:.2f} s")
        if workers == 1:
            print(f"ray   1 worker   one empty task: {per_task() * 1000:.2f} ms")
        for name, plan in plans.items():
            seconds, data = timed(plan, workers, "ray")
            assert data["configurations"] == reference[name], f"{name}: ray results differ"
            games = total_games(plan)
            extra = ""
            if workers == 1:
                extra = f"  overhead {(seconds - local[name]) / games * 1000:+.2f} ms/game"
            print(
                f"ray   {workers} worker(s) {name:11} {games:5} games {seconds:7.2f} s "
                f"{games / seconds:8.1f} games/s{extra}"
            )
        if workers == 1:
            plan = plans["quarto L2"]
            for size in (int(word) for word in args.batches.split(",")):
                backends.BATCH = size
                seconds, _ = timed(plan, 1, "ray")
                print(
                    f"ray   1 worker   batch {size:3}: quarto L2 {seconds:6.2f} s "
                    f"({(seconds - local['quarto L2']) / total_games(plan) * 1000:+.2f}"
                    " ms/game against local)"
                )
            backends.BATCH = 8
        began = time.perf_counter()
        ray.shutdown()
        print(f"ray   {workers} worker(s) shutdown: {time.perf_counter() - began:.2f} s")


if __name__ == "__main__":
    main()

"""Quarto solver benchmark: exact solve times of random positions, per engine.

    python -m bench.bench_solver [--count N] [--empties 10 12] [--engines python kernel]
                                 [--python-up-to E] [--squares] [--empty-board] [--table-bits B]

Positions: from the empty board, uniform random legal actions with ``random.Random(seed)``
for seeds 0, 1, 2, … until the player to act holds a piece with E empty squares left;
seeds where the game ended first, or where the piece in hand can win at once, are skipped
(the seeds used are printed). Each position is solved exactly (no budget) by each engine:
the plain-Python search, and the compiled kernel when it is built. Each engine must agree
on the value, which is checked. One core; the numbers depend on the machine's load.

``--empty-board`` also solves the empty board (player 1 to give) with the kernel, standard
and squares rules: both known draws; on this machine 107 s (392 M positions) and 61 s
(135 M) with the default 64 MB table (``--table-bits B``: 2**B entries of 16 bytes).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

from tabletop_quarto.agents import winning_squares
from tabletop_quarto.pieces import ATTRIBUTES
from tabletop_quarto.rules import OVER, PLACE, State, apply, initial, legal, make_rules
from tabletop_quarto.solver import Engine, kernel_available, solve


def position(seed: int, empties: int, squares: bool) -> State | None:
    """The position random play with ``seed`` reaches, or None (ended, or a win at once)."""
    rng = random.Random(seed)
    state = initial(make_rules(squares, frozenset(ATTRIBUTES), False))
    while state.phase != OVER:
        if 16 - state.occupied.bit_count() == empties and state.phase == PLACE:
            if winning_squares(state.board, state.occupied, state.hand, state):
                return None
            return state
        state = apply(state, rng.choice(legal(state)))
    return None


def positions(empties: int, count: int, squares: bool) -> list[tuple[int, State]]:
    """The first ``count`` usable seeds and their positions."""
    found: list[tuple[int, State]] = []
    seed = 0
    while len(found) < count:
        state = position(seed, empties, squares)
        if state is not None:
            found.append((seed, state))
        seed += 1
    return found


def run(empties: int, engines: list[Engine], count: int, squares: bool, python_up_to: int) -> None:
    cases = positions(empties, count, squares)
    print(f"\n{empties} empty squares: seeds {' '.join(str(seed) for seed, _ in cases)}")
    values: dict[int, tuple[int, int]] = {}
    for engine in engines:
        if engine == "python" and empties > python_up_to:
            print(f"  python: skipped above {python_up_to} empty squares (--python-up-to)")
            continue
        times: list[float] = []
        nodes = 0
        for seed, state in cases:
            began = time.perf_counter()
            solution = solve(state, engine=engine)
            times.append(time.perf_counter() - began)
            nodes += solution.nodes
            got = (solution.value, solution.placements)
            if values.setdefault(seed, got) != got:
                sys.exit(f"seed {seed}: {engine} says {got}, another engine {values[seed]}")
        outcomes = [values[seed][0] for seed, _ in cases]
        print(
            f"  {engine:>6}: median {statistics.median(times):.4f} s, worst {max(times):.4f} s, "
            f"mean nodes {nodes // len(cases)}; "
            f"wins {outcomes.count(1)} draws {outcomes.count(0)} losses {outcomes.count(-1)}"
        )


def empty_board(squares: bool) -> None:
    state = initial(make_rules(squares, frozenset(ATTRIBUTES), False))
    began = time.perf_counter()
    solution = solve(state, engine="kernel")
    name = "squares" if squares else "standard"
    outcome = {1: "win", 0: "draw", -1: "loss"}[solution.value]
    print(
        f"\nempty board, {name}: {outcome} for player 1 in {solution.placements} placements, "
        f"{time.perf_counter() - began:.1f} s, {solution.nodes} nodes"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=20, help="positions per depth")
    parser.add_argument("--empties", type=int, nargs="+", default=[10, 12])
    parser.add_argument("--engines", nargs="+", default=["python", "kernel"])
    parser.add_argument(
        "--python-up-to", type=int, default=10, help="skip plain Python above this depth"
    )
    parser.add_argument("--squares", action="store_true", help="the squares variant (Q4.4)")
    parser.add_argument("--empty-board", action="store_true", help="solve the empty board too")
    parser.add_argument(
        "--table-bits", type=int, default=None, help="kernel table of 2**bits entries (22)"
    )
    args = parser.parse_args()
    engines: list[Engine] = []
    for name in args.engines:
        if name == "kernel" and not kernel_available():
            print("kernel: not built (pip install -e . with a C compiler); skipped")
        elif name in ("python", "kernel"):
            engines.append(name)
        else:
            parser.error(f"unknown engine {name!r}; engines are python, kernel")
    variant = "squares" if args.squares else "standard"
    print(f"Quarto solver, {variant} rules, {args.count} positions per depth, one core")
    if args.table_bits is not None and "kernel" in engines:
        from tabletop_quarto import kernel

        kernel.table_bits(args.table_bits)
    if "kernel" in engines:  # the first kernel call allocates its table: not a solve time
        began = time.perf_counter()
        warm = positions(4, 1, args.squares)[0][1]
        solve(warm, engine="kernel")
        print(f"kernel table allocated in {time.perf_counter() - began:.3f} s (first call only)")
    for empties in args.empties:
        run(empties, engines, args.count, args.squares, args.python_up_to)
    if args.empty_board and "kernel" in engines:
        empty_board(False)
        empty_board(True)


if __name__ == "__main__":
    main()

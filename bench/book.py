"""Build Quarto's opening book (``plugins/quarto/book.bin``) with the project's own solver.

    python -m bench.book [--depth D] [--variants default[:D],squares[:D]] [--work FILE]
                         [--limit N]

Layer k is every canonical PLACE position (a piece in hand) with k pieces on the board,
all four attributes counted (the solver's symmetries: one entry per class). The deepest
layer asked for (``--depth``, default 1) is solved exactly, position by position (the
solver without a budget); every layer above it follows from its children (a placement's
value is the best over the gives after it, :func:`tabletop_quarto.book.place_values`),
so the top of the tree costs nothing more. Every solved position is appended to the work
file (default ``build/quarto-book.jsonl``) at once: a build stopped at any point resumes
where it stopped. ``--limit N`` stops after N new solves (a build in parts);
``--shard K/N`` solves only every N-th position of the deepest layer from the K-th, so N
processes on N cores share one work file (each line is one append); a last run without
it writes the book. The book is
written only when every layer of a variant is complete; the report says how long it took
(CPU and wall seconds), how many positions and bytes. ``--verify`` checks every entry
of the book at ``--out`` (of the ``--variants`` named) against the solver (the benchmark
of the whole book), in shards as the build is.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from tabletop_quarto import book as qbook
from tabletop_quarto.pieces import ATTRIBUTES
from tabletop_quarto.rules import (
    GIVE,
    OVER,
    State,
    apply,
    initial,
    legal,
    make_rules,
)
from tabletop_quarto.solver import solve

Key = tuple[int, ...]
Entries = dict[Key, tuple[int, int]]
VARIANTS = {"default": False, "squares": True}


def layer(squares: bool, pieces: int) -> dict[Key, State]:
    """One representative state per canonical PLACE position with ``pieces`` on the board
    (and not over), reached by any play."""
    rules = make_rules(squares, frozenset(ATTRIBUTES), False)
    frontier = {qbook.key_of(s): s for s in [apply(initial(rules), 0)]}
    for _ in range(pieces):
        following: dict[Key, State] = {}
        for state in frontier.values():
            for place in legal(state):
                after = apply(state, place)
                if after.phase != GIVE:
                    continue  # a win or a full board: not a position to place in
                for give in legal(after):
                    child = apply(after, give)
                    following.setdefault(qbook.key_of(child), child)
        frontier = following
    return frontier


def derived(state: State, known: Entries, squares: bool) -> tuple[int, int]:
    """A PLACE position's (value, placements) from its children's entries."""
    best: tuple[int, int] | None = None
    for place in legal(state):
        after = apply(state, place)
        if after.phase == OVER:
            result = (1, 1) if after.player == state.player else (0, 1)
        else:
            result = (-2, 0)
            for give in legal(after):
                value, moves = known[qbook.key_of(apply(after, give))]
                candidate = (-value, moves + 1)
                if better(candidate, result):
                    result = candidate
        if best is None or better(result, best):
            best = result
    assert best is not None
    return best


def better(a: tuple[int, int], b: tuple[int, int]) -> bool:
    """A higher value; a win sooner, a loss later."""
    if a[0] != b[0]:
        return a[0] > b[0]
    return a[1] < b[1] if a[0] > 0 else a[1] > b[1] if a[0] < 0 else False


def build(args: argparse.Namespace) -> None:
    work = Path(args.work)
    work.parent.mkdir(parents=True, exist_ok=True)
    done = _read_work(work)
    shard, shards = (int(part) for part in args.shard.split("/"))
    started, cpu = time.perf_counter(), time.process_time()
    solved = 0
    sections: dict[bool, tuple[int, Entries]] = {}
    complete = True
    for spec in args.variants.split(","):
        name, _colon, deep = spec.partition(":")
        depth = int(deep) if deep else args.depth
        squares = VARIANTS[name]
        known = done[name]
        leaves = layer(squares, depth)
        print(f"{name}: layer {depth}: {len(leaves)} positions, {len(known)} solved before")
        with work.open("a") as out:
            for index, (key, state) in enumerate(leaves.items()):
                if key in known or index % shards != shard:
                    continue
                if args.limit is not None and solved >= args.limit:
                    complete = False
                    break
                t = time.process_time()
                found = solve(state)
                assert found.exact
                known[key] = (found.value, found.placements)
                out.write(json.dumps({"variant": name, "key": list(key), "value": found.value,
                                      "placements": found.placements}) + "\n")  # fmt: skip
                out.flush()
                solved += 1
                have = sum(k in known for k in leaves)
                print(f"  {name} {have}/{len(leaves)}: value {found.value:+d} "
                      f"({time.process_time() - t:.1f} s CPU)", flush=True)  # fmt: skip
        if any(key not in known for key in leaves):
            complete = False
            continue
        entries = {key: known[key] for key in leaves}
        for pieces in range(depth - 1, -1, -1):
            for key, state in layer(squares, pieces).items():
                entries[key] = derived(state, entries, squares)
        sections[squares] = (depth, entries)
    wall, used = time.perf_counter() - started, time.process_time() - cpu
    if not complete:
        print(f"not complete: {solved} solved in {used:.0f} s CPU, {wall:.0f} s; run again")
        return
    data = qbook.encode(sections)
    Path(args.out).write_bytes(data)
    count = sum(len(e) for _d, e in sections.values())
    print(f"book: {count} positions, {len(data)} bytes, {args.out}; this run "
          f"{used:.0f} s CPU, {wall:.0f} s wall ({solved} solved)")  # fmt: skip


def verify(args: argparse.Namespace, variants: set[str]) -> None:
    """Every entry of the book at ``--out`` against the solver (the deepest layer solved
    again, the rest derived again): the whole book, as the test checks a sample; only the
    sections of ``variants``. As the build does, ``--shard K/N`` solves again only every
    N-th entry of the deepest layer, appending to ``--work`` (default
    ``build/quarto-verify.jsonl``), so N processes share the work; a last run without it
    solves what is left, derives the layers above and reports."""
    work = Path(args.work)
    work.parent.mkdir(parents=True, exist_ok=True)
    solved = _read_work(work)
    shard, shards = (int(part) for part in args.shard.split("/"))
    started, cpu = time.perf_counter(), time.process_time()
    sections = qbook.decode(Path(args.out).read_bytes())
    wrong = checked = 0
    for name in sorted(variants):
        squares = VARIANTS[name]
        section = sections[squares]
        known = solved[name]
        entries: Entries = {}
        with work.open("a") as out:
            for index, (key, state) in enumerate(layer(squares, section.depth).items()):
                if key not in known:
                    if index % shards != shard:
                        continue
                    found = solve(state)
                    known[key] = (found.value, found.placements)
                    out.write(json.dumps({"variant": name, "key": list(key), "value": found.value,
                                          "placements": found.placements}) + "\n")  # fmt: skip
                    out.flush()
                entries[key] = known[key]
                checked += 1
                wrong += section.get(key) != entries[key]
                if checked % 250 == 0:
                    print(f"  {checked} checked, {wrong} wrong", flush=True)
        if shards > 1:
            continue  # the layers above: the last run, without a shard
        for pieces in range(section.depth - 1, -1, -1):
            for key, state in layer(squares, pieces).items():
                entries[key] = derived(state, entries, squares)
                checked += 1
                wrong += section.get(key) != entries[key]
    took, used = time.perf_counter() - started, time.process_time() - cpu
    part = f" (shard {shard}/{shards}: its part of the deepest layer)" if shards > 1 else ""
    print(
        f"verified {checked} entries against the solver{part}: {wrong} wrong "
        f"({took:.0f} s wall, {used:.0f} s CPU this run)"
    )


def _read_work(work: Path) -> dict[str, Entries]:
    """The positions a work file holds, by variant (a line cut short is skipped)."""
    done: dict[str, Entries] = {name: {} for name in VARIANTS}
    if work.exists():
        for line in work.read_text().splitlines():
            try:
                row = json.loads(line)
            except ValueError:
                continue  # a line cut short by a run stopped mid-write: solved again
            done[row["variant"]][tuple(row["key"])] = (row["value"], row["placements"])
    return done


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--depth", type=int, default=1)
    parser.add_argument("--variants", default="default,squares")
    parser.add_argument(
        "--work",
        default=None,
        help="default build/quarto-book.jsonl, or build/quarto-verify.jsonl with --verify",
    )
    parser.add_argument("--out", default=str(qbook.PATH))
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--shard", default="0/1", help="K/N: solve every N-th position from K")
    parser.add_argument("--verify", action="store_true", help="check the book at --out")
    args = parser.parse_args()
    if args.work is None:
        args.work = "build/quarto-verify.jsonl" if args.verify else "build/quarto-book.jsonl"
    if args.verify:
        verify(args, {part.split(":")[0] for part in args.variants.split(",")})
    else:
        build(args)


if __name__ == "__main__":
    main()

"""Fuzz report per game: hostile and random action texts through Match.play and the CLI,
mutated positions through from_json, and peak memory of a run --from a 4 MB position file.

    python bench/fuzz_report.py [--texts 15000] [--cli 200] [--mutants 3000]

"Internal error": any exception other than ActionError (API) or exit status 3 (CLI).
"Impossible accepted": a mutant that from_json accepted although its mutation surely cannot
arise (a JSON type other than the real one, a negative count, a count of 10**18 or more; see
tabletop.kit.fuzzing._replacements), or whose acceptance broke an invariant while playing on.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from tabletop.core.errors import ActionError
from tabletop.core.match import Match
from tabletop.core.registry import registry
from tabletop.kit import fuzzing
from tabletop.testing import _fuzz_texts

GAMES = {"quarto": 2, "quartino": 3, "ctverak": 3, "connect4": 2}


def positions(game_id: str, players: int, seed: int) -> tuple[list[Any], list[list[Any]]]:
    """States of a random game and the actions leading to each."""
    game = registry().get(game_id)
    state, rng = game.new(players, game.info.options(), seed), random.Random(seed)
    states: list[Any] = [state]
    actions: list[list[Any]] = [[]]
    played: list[Any] = []
    while game.legal(state) and len(played) < 3000:
        legal = game.legal(state)
        action = legal[rng.randrange(len(legal))]
        played.append(action)
        state = game.apply(state, action)
        states.append(state)
        actions.append(list(played))
    return states, actions


def api_texts(game_id: str, players: int, total: int) -> tuple[int, int]:
    game = registry().get(game_id)
    tried = internal = 0
    seed = 0
    while tried < total:
        states, actions = positions(game_id, players, seed)
        rng = random.Random(seed)
        index = rng.randrange(len(states))
        match = Match(game, players, game.info.options(), seed)
        for action in actions[index]:
            match.push(action)
        listed = match.listing_text()
        texts = fuzzing.hostile_texts(rng, listed) + _fuzz_texts(rng, listed, match.texts, 60)
        for text in texts:
            tried += 1
            try:
                match.play(text)
            except ActionError:
                continue
            except Exception:
                internal += 1
                continue
            match.undo()
        seed += 1
    return tried, internal


def _escaped(text: str) -> bool:
    """Whether ``text`` holds only the surrogates that stand for raw bytes (U+DC80-DCFF)."""
    return all(not "\ud800" <= ch <= "\udfff" or "\udc80" <= ch <= "\udcff" for ch in text)


def cli_texts(game_id: str, players: int, total: int) -> tuple[int, int, int, int]:
    """Action files of hostile lines through ``tabletop run``: runs, exit 3, stderr of more
    than one line, the longest stderr (bytes)."""
    rng = random.Random(7)
    game = registry().get(game_id)
    listed = Match(game, players, game.info.options(), 0).listing_text()
    texts = fuzzing.hostile_texts(rng, listed) + _fuzz_texts(rng, listed, [], total)
    runs = internal = multiline = longest = 0
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "a.txt"
        for text in texts[:total]:
            raw = text.encode("utf-8", "surrogateescape" if _escaped(text) else "surrogatepass")
            path.write_bytes(raw + b"\n")
            done = subprocess.run(
                [
                    sys.executable,
                    "-m",
                    "tabletop",
                    "run",
                    game_id,
                    "--players",
                    str(players),
                    "--actions",
                    str(path),
                ],
                capture_output=True,
                timeout=60,
                check=False,
            )
            runs += 1
            internal += done.returncode == 3
            multiline += len(done.stderr.splitlines()) > 1
            longest = max(longest, len(done.stderr))
    return runs, internal, multiline, longest


def mutants(game_id: str, players: int, total: int) -> tuple[int, int, int, int]:
    game = registry().get(game_id)
    options = game.info.options()
    tried = refused = impossible = failures = 0
    seed = 0
    while tried < total:
        states, _ = positions(game_id, players, seed)
        rng = random.Random(seed)
        for _ in range(25):
            data = game.to_json(rng.choice(states))
            problem, accepted, sure = fuzzing.check_mutant(game, data, players, options, seed, rng)
            tried += 1
            refused += not accepted
            impossible += accepted and (sure or problem is not None)
            failures += problem is not None
        seed += 1
    return tried, refused, impossible, failures


def peak_memory(game_id: str, players: int, megabytes: int = 4) -> str:
    """Max RSS of ``tabletop run GAME --from`` a position file padded to ``megabytes``."""
    game = registry().get(game_id)
    data = game.to_json(game.new(players, game.info.options(), 0))
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "p.json"  # a real position padded with JSON whitespace
        path.write_text(json.dumps(data) + " " * (megabytes * 1024 * 1024))
        done = subprocess.run(
            [
                "/usr/bin/time",
                "-v",
                sys.executable,
                "-m",
                "tabletop",
                "run",
                game_id,
                "--players",
                str(players),
                "--from",
                str(path),
            ],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
    found = re.search(r"Maximum resident set size \(kbytes\): (\d+)", done.stderr)
    rss = f"{int(found.group(1)) / 1024:.0f} MB" if found else "?"
    return f"{rss} (exit {done.returncode})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--texts", type=int, default=15000)
    parser.add_argument("--cli", type=int, default=200)
    parser.add_argument("--mutants", type=int, default=3000)
    parser.add_argument("--games", nargs="*", default=list(GAMES))
    args = parser.parse_args()
    for game_id in args.games:
        players = GAMES[game_id]
        tried, internal = api_texts(game_id, players, args.texts)
        runs, cli_internal, multiline, longest = cli_texts(game_id, players, args.cli)
        m_tried, m_refused, m_impossible, m_fail = mutants(game_id, players, args.mutants)
        print(
            f"{game_id}: API texts {tried}, internal errors {internal}; "
            f"CLI runs {runs}, exit 3 {cli_internal}, stderr > 1 line {multiline}, "
            f"longest stderr {longest} bytes; "
            f"mutants {m_tried}, refused {m_refused}, impossible accepted {m_impossible}, "
            f"kit failures {m_fail}; peak RSS --from 4 MB: {peak_memory(game_id, players)}",
            flush=True,
        )


if __name__ == "__main__":
    main()

"""Hostile input at the core's edges, counted per game and input class (issue 14).

    python -m bench.fuzz_edges [--per-class N] [--cli-per-class M] [--seed S]

Through the API: action texts into ``Match.play`` (from a random reachable position),
position texts through the bounded JSON reader into ``Match``, saves with one field
changed (checksum recomputed) into ``Record.from_text`` + ``Match.from_record``, option
values into ``options.build``. Through the CLI (in-process, typer's runner): the same
classes as files and flags. An internal error is any exception that is not a
``TabletopError`` (API) or an exit status other than 0, 1, 2 or a stderr that is not one
line (CLI). Prints one row per game and class: tried, refused, accepted, internal errors,
and the first internal error of each kind.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import tempfile
from collections import Counter
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from tabletop.cli.app import app
from tabletop.core import options as opts
from tabletop.core import reading
from tabletop.core.errors import TabletopError
from tabletop.core.match import Match
from tabletop.core.records import Record
from tabletop.core.registry import registry

DIGITS = "0123456789²³¹٣۴߅१൬๓໘༣၄០᠖᥈᧓᭙᮰᱕꘠꣔꤁꩓０"
CONTROL = "".join(map(chr, [*range(0, 9), *range(10, 32), 127, 0x85, 0x2028]))


def hostile_text(rng: random.Random, cls: str, sample: str) -> str:
    """One input of class ``cls``, often built around a real action ``sample``."""
    words = sample.split() or ["x"]
    if cls == "unicode-digits":
        word = "".join(rng.choice(DIGITS) for _ in range(rng.randint(1, 4)))
        words[rng.randrange(len(words))] = word
        return " ".join(words)
    if cls == "huge-integers":
        words[rng.randrange(len(words))] = rng.choice("+-") * rng.randint(0, 1) + "9" * rng.choice(
            [20, 21, 4300, 4301, 10_000]
        )
        return " ".join(words)
    if cls == "control-characters":
        at = rng.randrange(len(sample) + 1)
        return sample[:at] + rng.choice(CONTROL) + sample[at:]
    if cls == "oversized-lines":
        return sample + " " + "x" * rng.choice([1_001, 10_000, 1_000_000])
    alphabet = [chr(rng.randrange(32, 0x3000)) for _ in range(8)] + list(sample) + [" "]
    return "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 30)))


ACTION_CLASSES = (
    "unicode-digits",
    "huge-integers",
    "control-characters",
    "oversized-lines",
    "text",
)


def reachable(game: Any, rng: random.Random) -> Match:
    """A match after a random number of random legal actions."""
    match = Match(game, game.info.min_players, game.info.options(), rng.randrange(2**31))
    for _ in range(rng.randrange(12)):
        if match.outcome() is not None:
            break
        match.push(rng.choice(list(game.legal(match.state))))
    return match


class Tally:
    def __init__(self) -> None:
        self.counts: Counter[tuple[str, str, str]] = Counter()
        self.first: dict[tuple[str, str, str], str] = {}

    def api(self, game: str, cls: str, attempt: Callable[[], object]) -> None:
        try:
            attempt()
            self.counts[(game, cls, "accepted")] += 1
        except TabletopError as exc:
            self.counts[(game, cls, "refused")] += 1
            assert "\n" not in str(exc)
        except Exception as exc:  # counting bugs is this script's job
            key = (game, cls, type(exc).__name__)
            self.counts[(game, cls, "internal")] += 1
            self.first.setdefault(key, f"{type(exc).__name__}: {str(exc)[:120]}")
        self.counts[(game, cls, "tried")] += 1

    def cli(self, game: str, cls: str, args: list[str], stdin: bytes | None = None) -> None:
        cls = f"cli {cls}"
        result = CliRunner().invoke(app, args, input=stdin)
        err = result.stderr
        ok = result.exit_code == 0 or (
            result.exit_code in (1, 2) and err.count("\n") == 1 and len(err) < 1000
        )
        self.counts[(game, cls, "tried")] += 1
        if ok:
            self.counts[(game, cls, "refused" if result.exit_code else "accepted")] += 1
        else:
            self.counts[(game, cls, "internal")] += 1
            self.first.setdefault((game, cls, "cli"), f"exit {result.exit_code}: {err[:160]!r}")


def save_text(record: Record, field: str, value: object) -> str:
    data = record.model_dump(mode="json") | {field: value}
    body = json.dumps(data, sort_keys=True, ensure_ascii=False)
    data["checksum"] = hashlib.sha256(body.encode()).hexdigest()
    return json.dumps(data)


def weird_value(rng: random.Random) -> object:
    return rng.choice(
        [
            -1,
            0,
            7,
            2**63,
            10**30,
            1.5,
            -5.0,
            1e300,
            True,
            None,
            "2",
            "²",
            [],
            {},
            [1],
            {"player": 7, "reason": "time"},
            {"player": 1, "reason": "time"},
            {"player": True},
            {"1": "3"},
            {"²": "3"},
            "x" * 5000,
        ]
    )


def play_line(match: Match, text: str) -> None:
    """What ``run --actions`` does with a line: the reader's check, then the checked path."""
    match.play(reading.check_line(text, "line", TabletopError))


def start_from(match: Match, text: str) -> Match:
    """What ``run --from`` does with a position text."""
    position = reading.parse_json(text, "position", TabletopError)
    return Match(match.game, match.players, match.options, 0, position)


def load_save(game: Any, text: str) -> Match:
    """What ``--load`` and ``replay`` do with a save's text."""
    return Match.from_record(game, Record.from_text(text, "save"), "save")


def fuzz_game(gid: str, rng: random.Random, tally: Tally, folder: Path, per: int, cli: int) -> None:
    """Every input class against one game, through the API and the CLI."""
    game = registry().get(gid)
    args = argparse.Namespace(per_class=per, cli_per_class=cli)
    for cls in ACTION_CLASSES:
        for _ in range(args.per_class):
            match = reachable(game, rng)
            sample = rng.choice(match.listing_text() or ["x"])
            text = hostile_text(rng, cls, sample)
            if cls in ("control-characters", "oversized-lines"):
                # the API path is what the readers feed: the line check first
                tally.api(gid, cls, partial(play_line, match, text))
            else:
                tally.api(gid, cls, partial(match.play, text))
        for _ in range(args.cli_per_class):
            match = reachable(game, rng)
            path = folder / "actions.txt"
            data = "\n".join([*match.texts, hostile_text(rng, cls, "x 1")]).encode()
            if rng.random() < 0.3:
                data += b"\n\xff\xfe" if cls == "text" else b""
            path.write_bytes(data)
            tally.cli(gid, cls, ["run", gid, "--seed", str(match.seed), "--actions", str(path)])
    # positions: real positions with one value mutated, and the reader's classes
    for _ in range(args.per_class):
        match = reachable(game, rng)
        position = game.to_json(match.state)
        position[rng.choice(list(position))] = weird_value(rng)
        tally.api(gid, "position-mutated", partial(start_from, match, json.dumps(position)))
    for cls, text in [
        ("position-deep", "[" * 100_000 + "]" * 100_000),
        ("position-huge-number", '{"a": 1' + "0" * 5000 + "}"),
        ("position-nan", '{"a": NaN}'),
    ]:
        for _ in range(max(1, args.cli_per_class // 4)):
            path = folder / "position.json"
            path.write_text(text)
            tally.cli(gid, cls, ["run", gid, "--from", str(path)])
            tally.api(gid, cls, partial(reading.parse_json, text, "p", TabletopError))
    # saves: one field changed, checksum recomputed
    for _ in range(args.per_class // 4):
        match = reachable(game, rng)
        text = save_text(
            match.record(),
            rng.choice(["players", "seed", "move_time", "forfeit", "seats", "options", "actions"]),
            weird_value(rng),
        )
        tally.api(gid, "save-field", partial(load_save, game, text))
    for _ in range(args.cli_per_class):
        match = reachable(game, rng)
        path = folder / "save.json"
        path.write_text(
            save_text(
                match.record(),
                rng.choice(["players", "seed", "move_time", "forfeit", "seats"]),
                weird_value(rng),
            )
        )
        tally.cli(gid, "save-field", ["replay", str(path)])
    # options
    for row in opts.describe(game.info.options):
        for _ in range(args.per_class // 20):
            value = hostile_text(rng, rng.choice((*ACTION_CLASSES[:3], "text")), "4")
            tally.api(
                gid,
                "option-value",
                partial(opts.build, game.info.options, {row["name"]: value}, gid),
            )
        for _ in range(max(1, args.cli_per_class // 8)):
            value = hostile_text(rng, rng.choice(("unicode-digits", "huge-integers")), "4")
            tally.cli(gid, "option-value", ["run", gid, "-o", f"{row['name']}={value}"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-class", type=int, default=2000)
    parser.add_argument("--cli-per-class", type=int, default=40)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    tally = Tally()
    folder = Path(tempfile.mkdtemp())
    for gid in registry().ids():
        fuzz_game(gid, rng, tally, folder, args.per_class, args.cli_per_class)
    games = sorted({g for g, _, _ in tally.counts})
    classes = sorted({c for _, c, _ in tally.counts})
    head = ("tried", "refused", "accepted", "internal")
    print(f"{'game':10s} {'class':26s} " + " ".join(f"{h:>8s}" for h in head))
    for gid in games:
        for cls in classes:
            tried = tally.counts[(gid, cls, "tried")]
            if tried:
                print(
                    f"{gid:10s} {cls:26s} {tried:8d} {tally.counts[(gid, cls, 'refused')]:8d} "
                    f"{tally.counts[(gid, cls, 'accepted')]:8d} "
                    f"{tally.counts[(gid, cls, 'internal')]:8d}"
                )
    for key, text in sorted(tally.first.items()):
        print("internal:", *key, "-", text)


if __name__ == "__main__":
    main()

"""``--resume FILE``: a stopped run's finished games, so that a rerun plays only the rest.

When ``analyse`` or ``compare`` is stopped (Ctrl-C, SIGTERM), every game finished by then
is written to a resume file (``--resume FILE``, else ``GAME-COMMAND-seedS.resume.json``
in the current folder) with what the run was: the command, the game, every configuration,
the levels, the games and the seeds. The same command with ``--resume FILE`` checks that
it is the same run, keeps those games and plays the others with their own seeds: every
game depends on its seed alone, so the results are those of a run never stopped, byte for
byte (the export, the JSON but for its timing, the report).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tabletop.analysis.observe import GameStats
from tabletop.analysis.sweep import Plan
from tabletop.core.errors import TabletopError, UsageError
from tabletop.core.i18n.text import Domain

_ = Domain("tabletop")

FORMAT = 1
TUPLES = ("seats", "winners", "scores")


def describe(command: str, plans: Sequence[Plan]) -> dict[str, Any]:
    """What identifies a run: a resume file continues only the run it was written by."""
    first = plans[0]
    return {
        "format": FORMAT,
        "command": command,
        "game": first.game,
        "configurations": [[c.players, [list(v) for v in c.values]] for c in first.configurations],
        "levels": list(first.levels),
        "games": first.games,
        "seeds": [plan.seed for plan in plans],
    }


def default_path(command: str, plans: Sequence[Plan]) -> Path:
    """Where a stopped run without ``--resume`` keeps its games."""
    return Path(f"{plans[0].game}-{command}-seed{plans[0].seed}.resume.json")


def save(path: Path, command: str, plans: Sequence[Plan], done: dict[int, GameStats]) -> None:
    """Write the finished games (by position in the run) and what the run was."""
    games = {str(position): stats._asdict() for position, stats in sorted(done.items())}
    data = {**describe(command, plans), "finished": games}
    try:
        path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    except OSError as exc:
        raise TabletopError(
            _("cannot write {path}: {reason}", path=str(path), reason=exc.strerror or str(exc))
        ) from None


def load(path: Path, command: str, plans: Sequence[Plan]) -> dict[int, GameStats]:
    """The finished games of ``path``; UsageError when it is no resume file of this run."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        data = None
    if not isinstance(data, dict) or not isinstance(data.get("finished"), dict):
        raise UsageError(
            _("--resume {path}: not a resume file of tabletop analyse or compare", path=str(path))
        )
    wanted = describe(command, plans)
    if any(data.get(key) != value for key, value in wanted.items()):
        raise UsageError(
            _(
                "--resume {path} holds another run; give the words of the stopped run "
                "(game, players, options, agents, games, seed, replicate)",
                path=str(path),
            )
        )
    total = sum(len(plan.configurations) * plan.games for plan in plans) * (
        len(plans[0].levels) + len(plans[0].pairs())
    )
    done: dict[int, GameStats] = {}
    try:
        for position, fields in data["finished"].items():
            number = int(position)
            if not 0 <= number < total:
                raise ValueError(position)
            done[number] = _stats(fields)
    except (TypeError, ValueError, KeyError):
        raise UsageError(
            _("--resume {path}: a finished game in it is damaged", path=str(path))
        ) from None
    return done


def _stats(fields: dict[str, Any]) -> GameStats:
    values = dict(fields)
    for key in TUPLES:
        if values.get(key) is not None:
            values[key] = tuple(values[key])
    values["branching"] = tuple(tuple(pair) for pair in values.get("branching", ()))
    if set(values) != set(GameStats._fields):
        raise ValueError(sorted(values))
    return GameStats(**values)

"""``--export FILE.jsonl`` or ``FILE.csv``: one row per game played, for a notebook.

A row says where the game was played (configuration, block, level), from which seed and
seats, and what happened (winners, points, end kind, length, lead changes and the other
per-game measures, at full precision, with the decisions taken and the legal actions
summed over them). JSON Lines keeps lists and options as they are; CSV puts every
option in its own ``option:KEY`` column and writes lists as JSON text.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tabletop.analysis.compare import Measured
from tabletop.analysis.run import Played, label, swept
from tabletop.core.errors import TabletopError, UsageError
from tabletop.core.i18n.text import Domain
from tabletop.core.selfplay import SECONDS_PER_TURN
from tabletop.core.setup import resolve

_ = Domain("tabletop")

FORMATS = (".jsonl", ".csv")


def check_export(path: Path | None) -> None:
    """UsageError unless ``path`` ends in .jsonl or .csv in an existing folder."""
    if path is None:
        return
    if path.suffix.lower() not in FORMATS:
        raise UsageError(
            _(
                "--export {path}: the file must end in {first} or {second}",
                path=str(path),
                first=FORMATS[0],
                second=FORMATS[1],
            )
        )
    if not path.parent.is_dir():
        raise UsageError(
            _("--export {path}: no such folder {folder}", path=str(path), folder=str(path.parent))
        )


def game_rows(
    played: Played,
    arms: tuple[str, ...] = (),
    seconds_per_turn: float = SECONDS_PER_TURN,
) -> list[dict[str, Any]]:
    """One dict per game, in the order played. ``arms`` names the configurations (for
    ``compare``: baseline and variant); without it a row has no ``arm``."""
    plan = played.plan
    game = resolve(plan.game)
    keys = swept(plan)
    rows: list[dict[str, Any]] = []
    for n, (what, number, _setup, levels) in enumerate(played.blocks):
        config = plan.configurations[number]
        options = config.options(game)
        head: dict[str, Any] = {"arm": arms[number]} if arms else {}
        head["configuration"] = label({"players": config.players, "options": options}, keys)
        head.update(players=config.players, options=options, block=what, levels=list(levels))
        for g in played.block_games(n):
            branching = g.legal / g.decisions if g.decisions else None
            rows.append(
                {
                    **head,
                    "index": g.number,
                    "seed": g.seed,
                    "seats": list(g.seats),
                    "winners": list(g.winners),
                    "scores": list(g.scores) if g.scores is not None else None,
                    "kind": g.kind,
                    "turns": g.turns,
                    "actions": g.actions,
                    "decisions": g.decisions,
                    "legal_actions": g.legal,
                    "minutes_estimate": g.turns * seconds_per_turn / 60,
                    "branching": branching,
                    "lead_changes": g.lead_changes,
                    "decisiveness": g.decisive,
                    "drama": g.drama,
                    "stability": g.stability,
                    "clarity": g.clarity,
                }
            )
    return rows


def measures_path(path: Path) -> Path:
    """Where ``compare --export FILE`` writes its measures: ``FILE.measures`` + ending."""
    return path.with_name(f"{path.stem}.measures{path.suffix}")


def write_measures(found: Sequence[Measured], path: Path) -> Path:
    """``compare``'s measures next to its export at full precision, one row each with
    the raw and the Holm-adjusted p-value (the games' rows alone cannot say them)."""
    rows: list[dict[str, Any]] = [
        {
            "name": m.name,
            "a": m.result.a,
            "b": m.result.b,
            "difference": m.result.difference,
            "ci_low": m.result.ci[0],
            "ci_high": m.result.ci[1],
            "p": m.result.p,
            "p_adjusted": m.p_adjusted,
            "significant": m.significant,
            "test": m.result.test,
        }
        for m in found
    ]
    target = measures_path(path)
    write_rows(rows, target)
    return target


def write_rows(rows: list[dict[str, Any]], path: Path) -> None:
    """Write the rows as JSON Lines or CSV (by the file's ending)."""
    try:
        with path.open("w", encoding="utf-8", newline="") as out:
            if path.suffix.lower() == ".jsonl":
                for row in rows:
                    out.write(json.dumps(row, ensure_ascii=False) + "\n")
            else:
                flat = [flatten(row) for row in rows]
                columns = list(dict.fromkeys(k for row in flat for k in row))
                writer = csv.DictWriter(out, columns)
                writer.writeheader()
                writer.writerows(flat)
    except OSError as exc:
        raise TabletopError(
            _("cannot write {path}: {reason}", path=str(path), reason=exc.strerror or str(exc))
        ) from None


def flatten(row: dict[str, Any]) -> dict[str, Any]:
    """A row for CSV: ``options`` as ``option:KEY`` columns, lists as JSON text."""
    flat: dict[str, Any] = {}
    for key, value in row.items():
        if key == "options":
            for name, option in value.items():
                flat[f"option:{name}"] = json.dumps(option) if isinstance(option, list) else option
        elif isinstance(value, list):
            flat[key] = json.dumps(value)
        else:
            flat[key] = "" if value is None else value
    return flat

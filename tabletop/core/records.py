"""Saved games: the record format, atomic writes and strict reads.

A record is the game id and version, options, seed, player count, an optional
starting position and the actions in notation. The state is derived by replaying
it, so replay, save/load, undo and golden games share one mechanism. A checksum
guards against truncation and hand edits: such a file is refused, never half-loaded.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from tabletop.core.errors import RecordError

FORMAT: Literal["tabletop-record/1"] = "tabletop-record/1"


class Forfeit(BaseModel):
    """A game ended outside the rules' actions: a player ran out of time."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    player: int
    reason: Literal["time"] = "time"


class Record(BaseModel):
    """One game as saved on disk (JSON)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    format: Literal["tabletop-record/1"] = FORMAT
    game: str
    game_version: str
    players: int
    options: dict[str, Any]
    seed: int
    start: dict[str, Any] | None = None
    actions: list[str] = []
    seats: dict[str, str] = {}
    move_time: float | None = None
    forfeit: Forfeit | None = None

    def checksum(self) -> str:
        """SHA-256 of the record's canonical JSON."""
        body = json.dumps(self.model_dump(mode="json"), sort_keys=True, ensure_ascii=False)
        return hashlib.sha256(body.encode()).hexdigest()

    def to_text(self) -> str:
        """The file's text: the record plus its checksum."""
        data = self.model_dump(mode="json")
        data["checksum"] = self.checksum()
        return json.dumps(data, indent=1, ensure_ascii=False) + "\n"

    @classmethod
    def from_text(cls, text: str, source: str = "save file") -> Record:
        """Parse and verify a record; RecordError says what is wrong with it."""
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RecordError(
                f"{source} is not a tabletop save (broken JSON at line {exc.lineno}: "
                f"{exc.msg}); it may be truncated"
            ) from None
        if not isinstance(data, dict):
            raise RecordError(f"{source} is not a tabletop save (no JSON object)")
        if data.get("format") != FORMAT:
            raise RecordError(f"{source} is not a tabletop save (format is not {FORMAT!r})")
        stored = data.pop("checksum", None)
        try:
            record = cls.model_validate(data)
        except ValidationError as exc:
            err = exc.errors()[0]
            where = ".".join(str(p) for p in err["loc"]) or "record"
            raise RecordError(f"{source} is damaged: {where}: {err['msg']}") from None
        if stored != record.checksum():
            raise RecordError(
                f"{source} fails its checksum: it was truncated or edited outside tabletop"
            )
        return record


def save(record: Record, path: Path) -> None:
    """Write ``record`` atomically: a temp file in the same folder, fsync, rename."""
    path = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(record.to_text())
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def load(path: Path) -> Record:
    """Read and verify a saved game; RecordError for a missing or damaged file."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise RecordError(f"no such save file: {path}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise RecordError(f"cannot read save file {path}: {exc}") from None
    return Record.from_text(text, source=f"save file {path}")

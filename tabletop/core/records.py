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
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from tabletop.core import flags, reading
from tabletop.core.errors import RecordError
from tabletop.core.i18n.text import Domain
from tabletop.core.numbers import quote

_ = Domain("tabletop")
FORMAT: Literal["tabletop-record/1"] = "tabletop-record/1"
NAME_MOST = 24  # characters of a display name (tabletop.web.names)
SAVE_FILE = _("save file")


def save_file(path: Path | str) -> str:
    """``save file PATH``, as errors name a saved game (translated where shown)."""
    return _("save file {path}", path=path)


Ending = Literal["time", "resigned", "agreed-draw"]


class Forfeit(BaseModel):
    """A game ended outside the rules' actions (``reason``): ``player`` ran out of time on
    the move clock ("time"), resigned ("resigned"), or offered the draw that every other
    person accepted ("agreed-draw"). A record saved before resignations and draws has only
    "time" here, written as it always was, so its checksum stands."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)
    player: Annotated[int, Field(ge=1, le=flags.PLAYERS_MAX)]
    reason: Ending = "time"


class Record(BaseModel):
    """One game as saved on disk (JSON). Every field is as strict as the flag it stands
    for (``--players``, ``--seed``, ``--move-time``); the match checks the rest
    (:meth:`tabletop.core.match.Match.from_record`)."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    format: Literal["tabletop-record/1"] = FORMAT
    game: str
    game_version: str
    players: Annotated[int, Field(ge=1, le=flags.PLAYERS_MAX)]
    options: dict[str, Any]
    seed: Annotated[int, Field(ge=0, le=flags.SEED_MAX)]
    start: dict[str, Any] | None = None
    actions: list[str] = []
    # how chance was drawn: "actions": every chance outcome is among the actions (issue
    # 35); "seed" (a record made before the game declared chance steps, which have no such
    # key): the game drew from the seed inside its state, and its ``legacy`` facet draws
    # the same again (:mod:`tabletop.core.legacy`)
    chance: Literal["seed", "actions"] = "seed"
    # a simultaneous step's sealed choices not yet applied, by player number
    sealed: dict[str, str] = {}
    seats: dict[str, str] = {}
    move_time: (
        Annotated[float, Field(ge=flags.MOVE_TIME_MIN, le=flags.MOVE_TIME_MAX, allow_inf_nan=False)]
        | None
    ) = None
    forfeit: Forfeit | None = None
    # the display names the people chose at the table, by player number (as they typed
    # them; a seat without one is called by its number in the reader's language)
    names: dict[str, Annotated[str, Field(min_length=1, max_length=NAME_MOST)]] = {}

    def _dumped(self) -> dict[str, Any]:
        """The record as JSON values; ``sealed`` only when it holds a choice, ``names``
        only when a seat has one and ``chance`` only when it is "actions", so that every
        record saved before simultaneous and chance steps and names keeps its checksum."""
        data = self.model_dump(mode="json")
        if not data["sealed"]:
            del data["sealed"]
        if not data["names"]:
            del data["names"]
        if data["chance"] == "seed":
            del data["chance"]
        return data

    def checksum(self, whole: bool = False, names: bool = False) -> str:
        """SHA-256 of the record's canonical JSON (``whole``: with an empty ``sealed`` too,
        as a program that dumps the model writes it; ``names``: with an empty ``names``
        too, as one that dumps today's model does)."""
        data = self.model_dump(mode="json") if whole else self._dumped()
        if data.get("chance") == "seed":
            del data["chance"]
        if data.get("names") == {} and not names:  # a field newer than older programs
            del data["names"]
        body = json.dumps(data, sort_keys=True, ensure_ascii=False)
        return hashlib.sha256(body.encode()).hexdigest()

    def to_text(self) -> str:
        """The file's text: the record plus its checksum."""
        data = self._dumped()
        data["checksum"] = self.checksum()
        return json.dumps(data, indent=1, ensure_ascii=False) + "\n"

    @classmethod
    def from_text(cls, text: str, source: str = SAVE_FILE) -> Record:
        """Parse and verify a record; RecordError says what is wrong with it."""
        data = reading.parse_json(text, source, RecordError)
        if not isinstance(data, dict):
            raise RecordError(_("{source} is not a tabletop save (no JSON object)", source=source))
        if data.get("format") != FORMAT:
            raise RecordError(
                _(
                    "{source} is not a tabletop save (format is not {format})",
                    source=source,
                    format=repr(FORMAT),
                )
            )
        stored = data.pop("checksum", None)
        try:
            record = cls.model_validate(data)
        except ValidationError as exc:
            err = exc.errors()[0]
            where = ".".join(str(p) for p in err["loc"]) or "record"
            given = quote(repr(err.get("input")))
            raise RecordError(
                _(
                    "{source} is damaged: {where}: {reason}, not {given}",
                    source=source,
                    where=where,
                    reason=err["msg"],
                    given=given,
                )
            ) from None
        dumped = (record.checksum(whole=True), record.checksum(whole=True, names=True))
        if stored not in (record.checksum(), *dumped):
            raise RecordError(
                _(
                    "{source} fails its checksum: it was truncated or edited outside tabletop",
                    source=source,
                )
            )
        return record


def check_path(path: Path) -> Path:
    """``path`` if a save can be written there: not a folder, in a folder that exists."""
    path = Path(path)
    if path.is_dir():
        raise RecordError(_("cannot save to {path}: it is a folder; give a file name", path=path))
    if not path.parent.is_dir():
        raise RecordError(
            _(
                "cannot save to {path}: no folder {folder}; create it first",
                path=path,
                folder=path.parent,
            )
        )
    return path


def _cannot_save(path: Path, exc: OSError) -> str:
    return _("cannot save to {path}: {reason}", path=path, reason=exc.strerror or exc)


def save(record: Record, path: Path) -> None:
    """Write ``record`` atomically: a temp file in the same folder, fsync, rename.

    RecordError (one line) when the place cannot take it; the old file stays whole."""
    path = check_path(path)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except OSError as exc:
        raise RecordError(_cannot_save(path, exc)) from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(record.to_text())
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, path)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise RecordError(_cannot_save(path, exc)) from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def load(path: Path) -> Record:
    """Read and verify a saved game (bounded: see :mod:`tabletop.core.reading`); RecordError
    for a missing, oversized or damaged file."""
    text = reading.read_text(Path(path), SAVE_FILE, RecordError)
    return Record.from_text(text, source=save_file(path))

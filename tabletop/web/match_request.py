"""The request to create a match (``POST /api/matches``), read strictly, and the
refusal a request the server will not carry out now is answered with."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from tabletop.core.errors import TabletopError, UsageError
from tabletop.core.i18n.text import Domain
from tabletop.core.options import library_reason

_ = Domain("tabletop")


class Refused(TabletopError):
    """A request the server will not carry out now; ``status`` is its HTTP status."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


class SeatSpec(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    seat: int
    ai: str | None = None
    open: bool = False  # a person's seat left for whoever takes it first from the lobby


class CreateMatch(BaseModel):
    """The body of ``POST /api/matches``: strict, as JSON is typed (``true`` is no number,
    ``1`` no yes)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    game: str = Field(max_length=100)
    players: int | None = None
    options: dict[str, Any] = {}
    seats: list[SeatSpec] = []
    spectators: bool = True
    spectator_chat: bool = False  # may spectators write in the chat (they always read it)
    move_time: float | None = None
    hints: bool | None = None  # the coach's hints (default: on against the computer)


def read_body(data: Any) -> CreateMatch:
    """The create request, or UsageError naming the first bad field."""
    try:
        return CreateMatch.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(p) for p in err["loc"]) or "body"
        raise UsageError(
            _(
                "bad match request: {where}: {reason}",
                where=where,
                reason=library_reason(err["type"], err.get("ctx") or {}, err["msg"]),
            )
        ) from None

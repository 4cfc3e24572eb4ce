"""Quarto's options (variants Q4.4, Q4.5 and claim modes Q5.1, Q5.2)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_serializer, field_validator

from tabletop.core.i18n.text import Domain
from tabletop_quarto.pieces import ATTRIBUTES

_ = Domain("tabletop_quarto")

Attribute = Literal["colour", "height", "shape", "top"]


class QuartoOptions(BaseModel):
    """Variants combine freely (Q4.6)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    squares: bool = Field(
        False,
        title=_("squares"),
        description=_("Q4.4 advanced: the nine 2×2 blocks also win (19 patterns)"),
    )
    attributes: frozenset[Attribute] = Field(
        frozenset(ATTRIBUTES),  # type: ignore[arg-type]
        title=_("attributes"),
        description=_(
            "Q4.5 beginners: the attributes that count, comma-separated "
            "(e.g. colour or colour,height)"
        ),
        json_schema_extra={
            "allowed": _("any non-empty comma list of {names}", names="colour, height, shape, top")
        },
    )
    claim: Literal["auto", "manual"] = Field(
        "auto",
        title=_("claim"),
        json_schema_extra={"labels": {"auto": _("automatic"), "manual": _("manual")}},
        description=_(
            "Q5.1 auto: a winning placement wins at once; Q5.2 manual: only the "
            "action 'quarto' wins, a missed claim may be taken by the opponent (Q5.3)"
        ),
    )

    @field_validator("attributes", mode="before")
    @classmethod
    def _split(cls, value: Any) -> Any:
        if isinstance(value, str):
            value = [part.strip().lower() for part in value.split(",") if part.strip()]
        if isinstance(value, list | tuple):
            value = ["colour" if v == "color" else v for v in value]
        if isinstance(value, list | tuple | set | frozenset) and not value:
            raise ValueError(_("at least one attribute must count (Q4.5)"))
        return value

    @field_serializer("attributes")
    def _ordered(self, value: frozenset[str]) -> list[str]:
        return [name for name in ATTRIBUTES if name in value]

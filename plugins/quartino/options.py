"""Quartino's options (N2.2, N3.2, N4.1, N5.2), a pydantic model at the edge, and the plain
:class:`~tabletop_quartino.rules.Config` the rules read, stored in every state."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from tabletop.core.i18n.text import Domain
from tabletop.game import options_as
from tabletop_quartino.rules import Config

_ = Domain("tabletop_quartino")
MAX_TURNS = 10_000  # N5.2: a bound far above any real game (400 by default)


class QuartinoOptions(BaseModel):
    """Quartino's variants and the choices the rules leave to the players."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    situations: bool = Field(
        default=True,
        title=_("situations"),
        description=_(
            "N4.1: start-of-turn check for the four-colours and column situations; "
            "false = the learning variant (1 placement a turn, columns stay)"
        ),
    )
    mirror: bool = Field(
        default=False,
        title=_("mirror image"),
        description=_("N3.2: a card also matches turned over (its mirror image)"),
    )
    max_turns: int = Field(
        default=400,
        ge=1,
        le=MAX_TURNS,
        title=_("turn limit"),
        description=_(
            "N5.2: the game is a draw when this many turns have ended (1-{max})", max=MAX_TURNS
        ),
    )
    start: Literal["first", "lot"] = Field(
        default="first",
        title=_("who starts"),
        json_schema_extra={"labels": {"first": _("player 1"), "lot": _("drawn by lot")}},
        description=_("N2.2: who starts: player 1 (first) or a player drawn by lot from the seed"),
    )


def config(options: BaseModel) -> Config:
    """The rules' plain config from the options model."""
    opts = options_as(QuartinoOptions, options)
    return Config(opts.situations, opts.mirror, opts.max_turns)

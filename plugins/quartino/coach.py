"""Quartino's coaching facet: the generic coach (each level's search), with Quartino's own
line of advice from the player's view (:mod:`.agents.hint`)."""

from __future__ import annotations

from pydantic import BaseModel

from tabletop.game import JSON
from tabletop_quartino.agents import hint as advice


def hint(view: JSON, player: int, options: BaseModel) -> str:
    """Which of the player's cards match now and at which k (the view only: ``mirror``
    is in it)."""
    return advice.hint(view, player)

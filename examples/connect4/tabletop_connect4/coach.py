"""Connect Four's coaching facet: the generic coach (each level's search), with a line of
advice of its own (:func:`tabletop_connect4.agents.hint`)."""

from __future__ import annotations

from pydantic import BaseModel
from tabletop.game import JSON

from tabletop_connect4 import agents, position
from tabletop_connect4.rules import config


def hint(view: JSON, player: int, options: BaseModel) -> str:
    """Where to win now, where to block, or which columns to avoid (from the view: nothing
    is hidden in Connect Four, so it is the position)."""
    return agents.hint(position.from_json(view, config(2, options)), player)

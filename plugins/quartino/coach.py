"""Quartino's coaching facet: the generic coach (each level's search), with Quartino's own
line of advice from the player's view (:mod:`.agents.hint`)."""

from __future__ import annotations

from pydantic import BaseModel

from tabletop.game import JSON, OptionError
from tabletop_quartino import rules
from tabletop_quartino.agents import hint as advice
from tabletop_quartino.cards import RING


def hint(view: JSON, player: int, options: BaseModel) -> str:
    """Which of the player's cards match now and at which k (the view: ``mirror`` is in
    it; the options: the rotations a claim may name on a research variant's ring)."""
    try:  # the rotations a claim may name on this board (research variants: fewer)
        allowed: tuple[int, ...] = rules.rotations(rules.config(2, options))
    except OptionError:
        allowed = tuple(range(RING))
    return advice.hint(view, player, allowed)

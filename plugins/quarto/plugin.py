"""Registers Quarto with tabletop (entry point ``tabletop``: ``quarto``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tabletop.hookspecs import hookimpl


@hookimpl
def tabletop_register_games(register: Callable[[Any], None]) -> None:
    """Quarto and its variants."""
    from tabletop_quarto.game import QuartoGame

    register(QuartoGame())

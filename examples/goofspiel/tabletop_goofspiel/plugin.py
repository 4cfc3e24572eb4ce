"""Registers Goofspiel with tabletop (entry point ``tabletop``: ``goofspiel``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tabletop.hookspecs import hookimpl


@hookimpl
def tabletop_register_games(register: Callable[[Any], None]) -> None:
    """Goofspiel."""
    from tabletop_goofspiel.game import GoofspielGame

    register(GoofspielGame())

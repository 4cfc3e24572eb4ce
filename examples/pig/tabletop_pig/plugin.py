"""Registers Pig with tabletop (entry point ``tabletop``: ``pig``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tabletop.hookspecs import hookimpl


@hookimpl
def tabletop_register_games(register: Callable[[Any], None]) -> None:
    """Pig."""
    from tabletop_pig.game import PigGame

    register(PigGame())

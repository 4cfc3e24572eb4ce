"""Registers the Quartino game with tabletop (entry point ``tabletop``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tabletop.hookspecs import hookimpl


@hookimpl
def tabletop_register_games(register: Callable[[Any], None]) -> None:
    """Register Quartino."""
    from tabletop_quartino.game import QuartinoGame  # here: the hookspec asks for a lazy import

    register(QuartinoGame())

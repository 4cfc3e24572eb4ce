"""Registers the Quartino game with tabletop (entry point ``tabletop``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tabletop.hookspecs import hookimpl
from tabletop_quartino.game import QuartinoGame


@hookimpl
def tabletop_register_games(register: Callable[[Any], None]) -> None:
    """Register Quartino."""
    register(QuartinoGame())

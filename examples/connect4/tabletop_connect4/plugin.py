"""Registers Connect Four with tabletop (entry point ``tabletop``: ``connect4``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tabletop.hookspecs import hookimpl


@hookimpl
def tabletop_register_games(register: Callable[[Any], None]) -> None:
    """Connect Four and its board sizes."""
    from tabletop_connect4.game import ConnectFourGame

    register(ConnectFourGame())

"""Registers the Čtverák game with tabletop (entry point ``tabletop``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tabletop.hookspecs import hookimpl


@hookimpl
def tabletop_register_games(register: Callable[[Any], None]) -> None:
    """Register :class:`~tabletop_ctverak.game.CtverakGame`."""
    from tabletop_ctverak.game import CtverakGame  # here: the hookspec asks for a lazy import

    register(CtverakGame())

"""Registers the old-shape copy of Connect Four (tests/test_old_shape.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tabletop.hookspecs import hookimpl


@hookimpl
def tabletop_register_games(register: Callable[[Any], None]) -> None:
    """Connect Four and its board sizes."""
    from tabletop_oldfour.game import OldFourGame

    register(OldFourGame())

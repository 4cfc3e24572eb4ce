"""Shared fixtures: the game, and a registry that has it even before ``pip install``."""

from __future__ import annotations

import pytest
from tabletop.testing import Registry, registry

from tabletop_connect4 import plugin
from tabletop_connect4.game import ConnectFourGame


@pytest.fixture(scope="session")
def game() -> ConnectFourGame:
    """The game under test."""
    return ConnectFourGame()


@pytest.fixture(scope="session")
def games() -> Registry:
    """The installed games when connect4 is installed, else them plus this plugin."""
    installed = registry()
    if "connect4" in installed.ids():
        return installed
    return Registry(extra=[plugin])

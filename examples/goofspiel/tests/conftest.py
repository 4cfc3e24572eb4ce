"""Shared fixtures: a registry that has Goofspiel even before ``pip install``."""

from __future__ import annotations

import pytest
from tabletop_goofspiel import plugin

from tabletop.testing import Registry, registry


@pytest.fixture(scope="session")
def games() -> Registry:
    """The installed games when goofspiel is installed, else them plus this plugin."""
    installed = registry()
    if "goofspiel" in installed.ids():
        return installed
    return Registry(extra=[plugin])

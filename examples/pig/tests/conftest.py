"""Shared fixtures: a registry that has Pig even before ``pip install``."""

from __future__ import annotations

import pytest
from tabletop_pig import plugin

from tabletop.testing import Registry, registry


@pytest.fixture(scope="session")
def games() -> Registry:
    """The installed games when pig is installed, else them plus this plugin."""
    installed = registry()
    if "pig" in installed.ids():
        return installed
    return Registry(extra=[plugin])

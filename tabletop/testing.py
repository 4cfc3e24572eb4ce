"""The conformance kit: checks any game plugin can run on itself, and golden playthroughs.

From a plugin's own tests::

    from tabletop.testing import assert_conformance

    def test_conformance():
        assert_conformance("mygame", games=200, seed=0)

or from the terminal: ``tabletop check mygame --games 200 --seed 0``.

:func:`check_game` plays seeded random games for every player count and option value
combination (:func:`configurations`): ``games`` in all (default :data:`GAMES`), spread over
the configurations by :func:`spread_games`, or ``games_per_config`` in each; it runs the
checks named in :data:`CHECKS`;
:class:`CheckReport` counts runs and failures per check and keeps the first failing game
(configuration, seed, actions) to replay. :func:`record_golden` writes seeded games with
the position after every action (``tabletop check GAME --record``: ``tests/golden/``);
:func:`replay_golden` plays one again and lists every difference. What each check
demands, and how the ``views`` check finds hidden information without help from the
game, is in ``docs/scenarios.md`` ("The conformance kit").

This module is the public face; the kit lives in :mod:`tabletop.kit` (configurations,
checks/, conformance, report, golden) and the command's table in :mod:`tabletop.cli.check`.
A plugin's tests need nothing else: :class:`Match` (the core's checked path),
:class:`Configured` (a game built once for a player count and options),
:func:`build_options` (options from text), :func:`registry` / :class:`Registry` (the
installed games) and the pytest helpers :class:`Kit`, :func:`golden_params` and
:func:`scenario_params` (the ``tabletop_kit`` fixture's class) are here too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tabletop.agents.facet import players_of
from tabletop.bridges.facet import encoding_of
from tabletop.coach.facet import coaching_of
from tabletop.core.configured import Configured
from tabletop.core.match import Match
from tabletop.core.options import build as build_options
from tabletop.core.presentation import presentation_of
from tabletop.core.registry import Registry, registry
from tabletop.kit.checks import CHECKS, FAILED
from tabletop.kit.checks.fuzz import JUNK
from tabletop.kit.checks.positions import DAMAGED, SAMPLES
from tabletop.kit.checks.views import MIN_SWAPS, SWAPS, Leaf
from tabletop.kit.configurations import Config, ConfigPlan, configurations, plan_configurations
from tabletop.kit.conformance import (
    DEEP_GAMES,
    DEEP_POSITIONS,
    GAMES,
    MUTANTS,
    PURE_EVERY,
    assert_conformance,
    check_game,
    spread_games,
)
from tabletop.kit.golden import (
    GOLDEN_DIR,
    GOLDEN_FORMAT,
    GOLDEN_LEVELS,
    GOLDEN_STEPS,
    GOLDEN_TRIES,
    playthrough,
    record_golden,
    replay_golden,
)
from tabletop.kit.jsonpaths import PathT
from tabletop.kit.report import CheckFailure, CheckReport, CheckStats, GameRef

if TYPE_CHECKING:
    from tabletop.cli.check import check_command
    from tabletop.kit.pytest_plugin import Kit, golden_params, scenario_params

# imported when asked for: the CLI draws with rich, the pytest helpers import pytest
_LAZY = {
    "check_command": "tabletop.cli.check",
    "Kit": "tabletop.kit.pytest_plugin",
    "golden_params": "tabletop.kit.pytest_plugin",
    "scenario_params": "tabletop.kit.pytest_plugin",
}

__all__ = [
    "CHECKS",
    "DAMAGED",
    "DEEP_GAMES",
    "DEEP_POSITIONS",
    "FAILED",
    "GAMES",
    "GOLDEN_DIR",
    "GOLDEN_FORMAT",
    "GOLDEN_LEVELS",
    "GOLDEN_STEPS",
    "GOLDEN_TRIES",
    "JUNK",
    "MIN_SWAPS",
    "MUTANTS",
    "PURE_EVERY",
    "SAMPLES",
    "SWAPS",
    "CheckFailure",
    "CheckReport",
    "CheckStats",
    "Config",
    "ConfigPlan",
    "Configured",
    "GameRef",
    "Kit",
    "Leaf",
    "Match",
    "PathT",
    "Registry",
    "assert_conformance",
    "build_options",
    "check_command",
    "check_game",
    "coaching_of",
    "configurations",
    "encoding_of",
    "golden_params",
    "plan_configurations",
    "players_of",
    "playthrough",
    "presentation_of",
    "record_golden",
    "registry",
    "replay_golden",
    "scenario_params",
    "spread_games",
]


def __getattr__(name: str) -> Any:
    """``check_command`` (``tabletop check``'s body, drawn with rich) and the pytest helpers
    (``Kit``, ``golden_params``, ``scenario_params``) are imported only when asked for."""
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

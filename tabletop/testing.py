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
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

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
    "GameRef",
    "Leaf",
    "PathT",
    "assert_conformance",
    "check_command",
    "check_game",
    "configurations",
    "plan_configurations",
    "playthrough",
    "record_golden",
    "replay_golden",
    "spread_games",
]


def __getattr__(name: str) -> Any:
    """``check_command`` (``tabletop check``'s body) lives in the CLI, which draws with
    rich; it is imported only when asked for."""
    if name == "check_command":
        from tabletop.cli.check import check_command

        return check_command
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

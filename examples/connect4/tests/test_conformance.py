"""tabletop's conformance kit on Connect Four, and the golden games of ``tests/golden``."""

from __future__ import annotations

from pathlib import Path

import pytest
from tabletop.testing import assert_conformance, configurations, replay_golden

from tabletop_connect4.game import ConnectFourGame

GOLDEN = sorted((Path(__file__).parent / "golden").glob("connect4-*.json"))


def test_connect4_passes_the_conformance_kit(game: ConnectFourGame) -> None:
    report = assert_conformance(game, games_per_config=60, seed=0)
    # every option value was played: 7 and 4 columns, 6 and 4 rows, connect 4 and 3
    assert len(report.configs) == 8 and report.games == 480
    assert report.checks["fuzz"].runs > 10_000


def test_configurations_cover_every_board(game: ConnectFourGame) -> None:
    labels = {config.label() for config in configurations(game)}
    assert "2 players" in labels and "2 players, columns=4 rows=4 connect=3" in labels


def test_there_are_golden_games() -> None:
    assert [path.name for path in GOLDEN] == [f"connect4-{n}.json" for n in range(1, 5)]


@pytest.mark.parametrize("path", GOLDEN, ids=[path.name for path in GOLDEN])
def test_golden_game_replays_unchanged(path: Path, game: ConnectFourGame) -> None:
    """``tabletop check connect4 --record`` wrote these; a difference is a rule change."""
    assert replay_golden(path, game) == []

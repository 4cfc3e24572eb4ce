"""tabletop's conformance kit on Goofspiel: chance steps and simultaneous steps included."""

from __future__ import annotations

from tabletop_goofspiel.game import GoofspielGame

from tabletop.testing import assert_conformance


def test_goofspiel_passes_the_conformance_kit() -> None:
    report = assert_conformance(GoofspielGame(), games=60, seed=0)
    assert report.games == 60

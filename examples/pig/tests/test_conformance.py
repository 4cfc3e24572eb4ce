"""tabletop's conformance kit on Pig: chance steps included."""

from __future__ import annotations

from tabletop_pig.game import PigGame

from tabletop.testing import assert_conformance


def test_pig_passes_the_conformance_kit() -> None:
    report = assert_conformance(PigGame(), games=60, seed=0)
    assert report.games == 60

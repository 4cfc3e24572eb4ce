"""A damaged Goofspiel position is refused in one short line naming the value (G1)."""

from __future__ import annotations

from typing import Any

import pytest
from tabletop_goofspiel.game import GoofspielGame
from tabletop_goofspiel.rules import GoofspielOptions

from tabletop.game import PositionError


@pytest.mark.parametrize(
    ("prize", "named"),
    [
        (10**5000, "a number of more than 30 digits"),  # repr() of it raises
        (2.5, "the fraction 2.5"),
        ("x", "'x'"),
        (99, "99"),
        (True, "true"),
    ],
    ids=["huge", "fraction", "text", "out-of-range", "bool"],
)
def test_a_bad_number_is_named_briefly(prize: Any, named: str) -> None:
    game, options = GoofspielGame(), GoofspielOptions()
    data = game.to_json(game.new(2, options, 1))
    with pytest.raises(PositionError) as refused:
        game.from_json({**data, "prize": prize}, 2, options, 1)
    said = str(refused.value)
    assert f"({named} is not a whole number 0-13)" in said
    assert "\n" not in said and len(said) < 160

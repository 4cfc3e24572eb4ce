"""tabletop.core.jsonvalues: exact types and safe descriptions for position readers."""

from __future__ import annotations

from typing import Any

import pytest

from tabletop.core.jsonvalues import describe, player_key, whole


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (None, "null"),
        (True, "true"),
        (2, "2"),
        pytest.param(10**5000, "a number of more than 30 digits", id="huge"),
        (2.0, "the fraction 2.0"),
        ("x" * 100, "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'… (100 characters)"),
        ([1], "a list of 1 item"),
        ({"a": 1, "b": 2}, "an object of 2 keys"),
    ],
)
def test_describe_is_short_and_never_prints_a_huge_number(value: Any, text: str) -> None:
    assert describe(value) == text


@pytest.mark.parametrize(
    "value", [True, False, 1.0, "1", None, [1], pytest.param(10**5000, id="huge"), 0, 3]
)
def test_whole_takes_exact_ints_in_range_only(value: Any) -> None:
    assert whole(value, 1, 2) is None
    assert whole(2, 1, 2) == 2


@pytest.mark.parametrize(
    "key", ["01", "+1", " 1", "²", "٣", "4", pytest.param("9" * 5000, id="5000 digits"), 1]
)
def test_player_keys_are_canonical_numbers_of_a_player(key: Any) -> None:
    assert player_key(key, 3) is None
    assert player_key("3", 3) == 3

"""``tabletop.core.numbers.parse_int``: ASCII digits only, bounded, never negative unless
asked (issue 29)."""

from __future__ import annotations

import pytest
from pydantic import BaseModel, ConfigDict, Field

from tabletop.core import options as opts
from tabletop.core.errors import OptionError
from tabletop.core.numbers import parse_int


@pytest.mark.parametrize(
    ("text", "lo", "hi", "value"),
    [
        ("7", 0, None, 7),
        (" 12 ", 0, None, 12),
        ("0", 0, None, 0),
        ("-1", 0, None, None),  # the default lower bound is 0
        ("-1", None, None, -1),  # signed numbers when asked for
        ("+3", 0, None, 3),
        ("16", 0, 15, None),
        ("²", 0, None, None),
        ("1" * 21, None, None, None),
    ],
)
def test_parse_int(text: str, lo: int | None, hi: int | None, value: int | None) -> None:
    assert parse_int(text, lo, hi) == value


def test_parse_int_refuses_negative_numbers_by_default() -> None:
    assert parse_int("-1") is None and parse_int("-0") == 0 and parse_int("5") == 5


class Signed(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    offset: int = Field(0, ge=-3, le=3)


def test_an_option_keeps_its_own_bounds() -> None:
    """Options read signed numbers: their model, not parse_int, says what is allowed."""
    assert opts.build(Signed, {"offset": "-2"}, "toy").model_dump() == {"offset": -2}
    with pytest.raises(OptionError, match="below -3"):
        opts.build(Signed, {"offset": "-4"}, "toy")

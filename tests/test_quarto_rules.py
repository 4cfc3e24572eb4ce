"""Quarto rule tests that need enumeration rather than a scenario (Q4.2, Q4.5, Q5, Q8)."""

from __future__ import annotations

from itertools import combinations

import pytest

from tabletop.core.errors import PositionError
from tests.quarto_helpers import quarto_match

CODES = [
    "".join(pair[(p >> i) & 1] for i, pair in enumerate(("LD", "ST", "RQ", "FH")))
    for p in range(16)
]
ATTRS = ("colour", "height", "shape", "top")


def shares_value(pieces: tuple[int, ...], counted: tuple[int, ...]) -> bool:
    """Brute force: some counted attribute has one value on all four pieces (Q4.2)."""
    return any(len({p >> i & 1 for p in pieces}) == 1 for i in counted)


def engine_wins(pieces: tuple[int, ...], **options: str) -> bool:
    """Place three pieces on rank 1 by position, the fourth through the engine."""
    a, b, c, d = pieces
    start = {
        "board": {"a1": CODES[a], "b1": CODES[b], "c1": CODES[c]},
        "in_hand": CODES[d],
        "to_act": 2,
        "last_placed": None,
    }
    match = quarto_match(start, **options)
    match.play("place d1")
    outcome = match.outcome()
    return outcome is not None and outcome.winners == (2,)


def test_winning_sets_536_of_1820() -> None:
    """Q4.2: both values of every attribute count; an AND-only check would find 274."""
    sets = list(combinations(range(16), 4))
    assert len(sets) == 1820
    wins = [s for s in sets if engine_wins(s)]
    assert len(wins) == 536
    assert wins == [s for s in sets if shares_value(s, (0, 1, 2, 3))]
    all_ones = [s for s in sets if any(all(p >> i & 1 for p in s) for i in range(4))]
    assert len(all_ones) == 274


@pytest.mark.parametrize(
    ("counted", "expected"),
    [(("colour",), 140), (("height", "top"), 276), (("colour", "shape", "top"), 408)],
)
def test_winning_sets_with_attributes_restricted(counted: tuple[str, ...], expected: int) -> None:
    """Q4.5: only the chosen attributes count; k attributes give 140k - 4·C(k,2) sets."""
    idx = tuple(ATTRS.index(name) for name in counted)
    sets = list(combinations(range(16), 4))
    wins = [s for s in sets if engine_wins(s, attributes=",".join(counted))]
    assert len(wins) == expected
    assert wins == [s for s in sets if shares_value(s, idx)]


def test_squares_variant_blocks() -> None:
    """Q4.4: all nine 2×2 blocks win with squares=true; none without."""
    round_pieces = [p for p in range(16) if not p >> 2 & 1][:4]  # all round
    for f in range(3):
        for r in range(1, 4):
            squares = [
                f"{'abcd'[f]}{r}",
                f"{'abcd'[f + 1]}{r}",
                f"{'abcd'[f]}{r + 1}",
                f"{'abcd'[f + 1]}{r + 1}",
            ]
            board = {sq: CODES[p] for sq, p in zip(squares[:3], round_pieces, strict=False)}
            start = {"board": board, "in_hand": CODES[round_pieces[3]], "to_act": 1}
            on = quarto_match(start, squares="true")
            on.play(f"place {squares[3]}")
            assert on.outcome() is not None and on.outcome().winners == (1,)  # type: ignore[union-attr]
            off = quarto_match(start)
            off.play(f"place {squares[3]}")
            assert off.outcome() is None


@pytest.mark.parametrize(
    ("position", "fragment"),
    [
        ({"board": {"a1": "DTRH", "b1": "DTRH"}, "to_act": 1}, "both a1 and b1"),
        ({"board": {"a1": "DTRH"}, "in_hand": "DTRH", "to_act": 1}, "also on a1"),
        (
            {
                "board": {
                    f"{f}{r}": CODES[i]
                    for i, (f, r) in enumerate((f, r) for r in range(1, 5) for f in "abcd")
                },
                "in_hand": "LSRF",
                "to_act": 1,
            },
            "17 pieces",
        ),
        ({"board": {"e5": "DTRH"}, "to_act": 1}, "not a square"),
        ({"board": {"a1": "XXXX"}, "to_act": 1}, "not a piece"),
        ({"board": {}, "to_act": 3}, "to_act"),
        ({"board": {}, "to_act": 1, "last_placed": "a1"}, "empty square"),
        ({"board": {}, "to_act": 1, "colour": 1}, "unknown key"),
        ({"board": {"a1": "LTRF", "b1": "DTRF", "c1": "LTQH", "d1": "DTQH"}, "to_act": 1}, "Q5.1"),
    ],
)
def test_impossible_positions_are_refused(position: dict[str, object], fragment: str) -> None:
    """Q8: a position that cannot arise is refused with a message naming what is wrong."""
    with pytest.raises(PositionError, match=fragment):
        quarto_match(position)


def test_position_json_round_trip_and_required_keys() -> None:
    """Q8: board, in_hand, to_act, last_placed mean exactly what the spec says."""
    match = quarto_match()
    match.play_all(["give DTRH", "place b2", "give LSRF"])
    data = match.game.to_json(match.state)
    assert data["board"] == {"b2": "DTRH"}
    assert data["in_hand"] == "LSRF"
    assert data["to_act"] == 1
    assert data["last_placed"] == "b2"
    again = quarto_match(data)
    assert again.state == match.state

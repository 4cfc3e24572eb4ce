"""Random-play invariants over every Quarto variant and claim mode."""

from __future__ import annotations

import random
from itertools import product

import pytest

from tabletop.core.match import Match
from tabletop.core.records import Record
from tests.quarto_helpers import quarto, quarto_match

VARIANTS = [
    {"squares": squares, "attributes": attributes, "claim": claim}
    for squares, attributes, claim in product(
        ("false", "true"), ("colour,height,shape,top", "colour", "height,top"), ("auto", "manual")
    )
]


def pieces_of(data: dict[str, object]) -> list[str]:
    board = data["board"]
    assert isinstance(board, dict)
    pool = data["pool"]
    assert isinstance(pool, list)
    hand = [data["in_hand"]] if data["in_hand"] else []
    return [*board.values(), *pool, *hand]


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: "-".join(v.values()))
def test_random_games_keep_the_invariants(variant: dict[str, str]) -> None:
    game = quarto()
    for seed in range(25):
        rng = random.Random(seed)
        match = quarto_match(None, **variant)
        while match.outcome() is None:
            state = match.state
            legal = list(game.legal(state))
            assert legal, "legal actions are never empty before the end"
            assert set(legal) <= set(game.listing(state))
            action = rng.choice(legal)
            snapshot = game.to_json(state)
            assert game.parse(state, game.format(state, action)) == action
            match.push(action)
            assert game.to_json(state) == snapshot, "apply never mutates its input"
            data = game.to_json(match.state)
            assert sorted(pieces_of(data)) == sorted(set(pieces_of(data)))
            assert len(pieces_of(data)) == 16, "pieces are conserved (Q1.2)"
            assert game.view(match.state, match.player()) == data
        assert not game.legal(match.state)
        placements = sum(text.startswith("place") for text in match.texts)
        assert placements <= 16 and len(match.actions) <= game.info.max_actions(2, match.options)
        record = match.record()
        again = Match.from_record(game, Record.from_text(record.to_text()))
        assert again.state == match.state and again.texts == match.texts
        resumed = quarto_match(game.to_json(match.state), **variant)
        assert resumed.state == match.state, "the position JSON round-trips (Q8)"

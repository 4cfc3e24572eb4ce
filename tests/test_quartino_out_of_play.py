"""Issue 41, item 7: what the rules text says of ``out_of_play`` (written for
``--reveal``, ignored when read, N9) is what ``from_json`` does."""

from __future__ import annotations

import random

import pytest

from tabletop.core.presentation import presentation_of
from tabletop.core.registry import registry
from tabletop_quartino.legacy import dealt_as_before

GAME = registry().get("quartino")


def _played(seed: int, players: int) -> object:
    options = GAME.info.options()
    state = dealt_as_before(players, options, seed)
    rng = random.Random(seed)
    for _ in range(12):
        if GAME.to_act(state) is None:
            break
        state = GAME.apply(state, rng.choice(list(GAME.legal(state))))
    return state


def test_the_rules_text_says_out_of_play_is_ignored_when_read() -> None:
    text = " ".join(presentation_of(GAME).rules_text().split())
    assert "`out_of_play` is written for `--reveal` and ignored when read" in text


@pytest.mark.parametrize(("seed", "players"), [(1, 2), (2, 3), (3, 4)])
def test_from_json_ignores_out_of_play_whatever_it_holds(seed: int, players: int) -> None:
    options = GAME.info.options()
    state = _played(seed, players)
    data = GAME.to_json(state)
    cards = list(data["out_of_play"])
    assert len(cards) == 24 - 4 * players  # written: the cards dealt to nobody (N2.1)
    expected = GAME.to_json(GAME.from_json(data, players, options, 0))
    assert expected == data
    for given in (cards[::-1], sorted(cards, key=str.lower), [], ["not a card"], None, 7):
        variant = {**data, "out_of_play": given}
        assert GAME.to_json(GAME.from_json(variant, players, options, 0)) == expected
    absent = {key: value for key, value in data.items() if key != "out_of_play"}
    assert GAME.to_json(GAME.from_json(absent, players, options, 0)) == expected

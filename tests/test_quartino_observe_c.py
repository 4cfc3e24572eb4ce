"""Quartino's compiled observation (``_observe.c``) against the Python fast path and the
slow ``observation(view(state, p), p)``: seeded random games at every player count and
option that changes the vector, for every player, on resampled states too; it refuses bad
arguments with an error; without the compiled module the Python path is used."""

from __future__ import annotations

import importlib
import random
import sys
from array import array
from typing import Any

import numpy as np
import pytest

from tabletop_quartino import encoding
from tabletop_quartino.game import QuartinoGame
from tabletop_quartino.legacy import dealt_as_before
from tabletop_quartino.rules import QuartinoOptions

GAME = QuartinoGame()
# In CI (and wherever pip builds with a compiler) the module exists: no skip.
COMPILED: Any = importlib.import_module("tabletop_quartino._observe")
OPTIONS = [
    {},
    {"situations": False},
    {"mirror": True},
    {"situations": False, "mirror": True, "max_turns": 30},
]


def states(players: int, options: QuartinoOptions, games: int, seed: int) -> list[Any]:
    rng = random.Random(seed)
    found = []
    for game in range(games):
        state = dealt_as_before(players, options, seed + game)
        found.append(state)
        while GAME.outcome(state) is None and len(found) < 400 * (game + 1):
            state = GAME.apply(state, rng.choice(GAME.legal(state)))
            found.append(state)
    return found


def written(observe: Any, state: Any, player: int) -> array[float]:
    out = array("f", bytes(4 * encoding.SIZE))
    observe(state, player, out)
    return out


def test_the_game_hands_out_the_compiled_function() -> None:
    assert encoding.observer(2, QuartinoOptions()) is COMPILED.observe
    assert (*(encoding.OFFSET[name] for name, _ in encoding.LAYOUT), encoding.SIZE) == (
        COMPILED.OFFSETS
    )


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("option", OPTIONS, ids=str)
def test_compiled_equals_python_and_slow_path(players: int, option: dict[str, Any]) -> None:
    options = QuartinoOptions(**option)
    rng = random.Random(players)
    checked = 0
    for state in states(players, options, 3, 100 * players):
        for player in range(1, players + 1):
            view = GAME.view(state, player)
            slow = array("f", encoding.observation(view, player, players, options))
            assert written(COMPILED.observe, state, player) == slow
            assert written(encoding.observe, state, player) == slow
            checked += 1
            if GAME.outcome(state) is None and checked % 7 == 0:
                other = GAME.sample(view, player, players, options, rng)
                assert written(COMPILED.observe, other, player) == slow
                assert written(encoding.observe, other, player) == slow
    assert checked > 300  # not vacuous (30 turns: ~350)


def test_it_writes_into_a_numpy_row_through_a_memoryview_slice() -> None:
    state = states(3, QuartinoOptions(), 1, 5)[50]
    rows: Any = np.zeros((2, encoding.SIZE), np.float32)
    flat = memoryview(rows).cast("B").cast("f")
    COMPILED.observe(state, 2, flat[encoding.SIZE : 2 * encoding.SIZE])
    assert not rows[0].any()
    assert rows[1].tolist() == list(written(encoding.observe, state, 2))
    COMPILED.observe(state, 1, rows[0])  # a numpy array itself
    assert rows[0].tolist() == list(written(encoding.observe, state, 1))


def test_bad_arguments_raise_not_crash() -> None:
    state = states(2, QuartinoOptions(), 1, 9)[20]
    good = array("f", bytes(4 * encoding.SIZE))
    for out in (
        bytes(4 * encoding.SIZE),  # read-only
        array("d", bytes(8 * encoding.SIZE)),  # float64
        memoryview(array("f", bytes(8 * encoding.SIZE)))[::2],  # not contiguous
        [0.0] * encoding.SIZE,  # no buffer
        None,
    ):
        with pytest.raises(TypeError):
            COMPILED.observe(state, 1, out)
    with pytest.raises(ValueError, match="at least 217"):
        COMPILED.observe(state, 1, array("f", bytes(4 * (encoding.SIZE - 1))))
    for player in (0, 3, -1, 2**80):
        with pytest.raises(ValueError):
            COMPILED.observe(state, player, good)
    for broken in (
        state._replace(board=state.board[:8]),
        state._replace(board=((5,), *state.board[1:])),
        state._replace(supply=(1, 2, 3)),
        state._replace(stands=((99,), *state.stands[1:])),
        state._replace(to_act=7),
    ):
        with pytest.raises(ValueError):
            COMPILED.observe(broken, 1, good)
    for wrong in (tuple(state)[:10], "state", state._replace(board=[()] * 9)):
        with pytest.raises(TypeError):
            COMPILED.observe(wrong, 1, good)
    with pytest.raises(TypeError):
        COMPILED.observe(state, 1)
    assert good == array("f", bytes(4 * encoding.SIZE))  # nothing written on an error


def test_without_the_compiled_module_the_python_path_is_used(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "tabletop_quartino._observe", None)  # import fails
    assert encoding.observer(2, QuartinoOptions()) is encoding.observe
    monkeypatch.undo()
    stale = type(sys)("tabletop_quartino._observe")
    stale.OFFSETS = (0,) * 13  # type: ignore[attr-defined]  # built for another layout
    stale.observe = COMPILED.observe  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "tabletop_quartino._observe", stale)
    assert encoding.observer(2, QuartinoOptions()) is encoding.observe

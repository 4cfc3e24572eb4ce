"""The bridges' compiled action mask (tabletop/bridges/_mask.c) against the Python loop, on
the legal ids of seeded random games of every built-in game; its refusals of a wrong
buffer or wrong ids (nothing written then); and the Python fallback where it is not
built, which gives the same masks."""

from __future__ import annotations

import importlib
import random
from typing import Any

import numpy as np
import pytest

from tabletop.bridges import encoder
from tabletop.bridges.common import setup

mark: Any = importlib.import_module("tabletop.bridges._mask").mark  # built by setup.py
GAMES = [("quarto", 2), ("quartino", 4), ("ctverak", 3), ("connect4", 2)]


def masks_along_random_games(game_id: str, players: int) -> list[tuple[list[int], Any, Any]]:
    """(legal ids, compiled mask, Python mask) at each state of three random games."""
    config = setup(game_id, players=players)
    game = config.game
    ids = config.encoding.id_lister(players, config.options)
    compiled = encoder._masks(config.ids)
    python = encoder._masks_in_python(config.ids)
    rng = random.Random(7)
    found = []
    for seed in range(3):
        state = game.new(players, config.options, seed)
        for _ in range(200):
            legal = ids(state)
            if not legal:
                break
            found.append((list(legal), compiled(legal), python(legal)))
            state = game.apply(state, game.legal(state)[rng.randrange(len(legal))])
    return found


@pytest.mark.parametrize(("game_id", "players"), GAMES)
def test_the_compiled_mask_is_the_python_mask(game_id: str, players: int) -> None:
    found = masks_along_random_games(game_id, players)
    assert len(found) > 30
    for legal, compiled, python in found:
        assert compiled.dtype == np.int8 and python.dtype == np.int8
        assert list(np.flatnonzero(compiled)) == sorted(legal)
        assert np.array_equal(compiled, python)


def test_each_mask_is_a_new_array_that_later_masks_leave_alone() -> None:
    make = encoder._masks(7)
    first = make([1, 3])
    kept = first.copy()
    later = [make([0, 2, 4, 5, 6]) for _ in range(2 * encoder.ROWS)]
    assert np.array_equal(first, kept)
    assert all(m is not first for m in later)
    assert list(np.flatnonzero(make(None))) == [] and list(np.flatnonzero(make(()))) == []


@pytest.mark.parametrize(
    ("ids", "error", "words"),
    [
        ([1, 9], ValueError, "id 9 is not 0-7"),
        ((2, -1), ValueError, "id -1 is not 0-7"),
        ([1, 2**80], ValueError, "is not 0-7"),
        ([1, "2"], TypeError, "id str is not an int"),
        ({1, 2}, TypeError, "ids is set, not a list or tuple"),
    ],
)
def test_mark_refuses_wrong_ids_and_writes_nothing(ids: Any, error: type, words: str) -> None:
    out = np.zeros(8, np.int8)
    with pytest.raises(error, match=words):
        mark(out, ids)
    assert not out.any()


def test_mark_refuses_a_buffer_that_is_not_writable_bytes() -> None:
    with pytest.raises(TypeError, match="'f' items, not bytes"):
        mark(np.zeros(8, np.float32), [1])
    frozen = np.zeros(8, np.int8)
    frozen.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        mark(frozen, [1])
    with pytest.raises(BufferError):
        mark(bytes(8), [1])
    with pytest.raises(ValueError, match="not C-contiguous"):
        mark(np.zeros((8, 2), np.int8)[:, 0], [1])
    with pytest.raises(TypeError, match="takes 2 arguments"):
        mark(np.zeros(8, np.int8))
    out = bytearray(4)
    mark(out, (0, 3))
    assert out == bytearray(b"\x01\x00\x00\x01")


def test_without_the_module_the_encoder_marks_in_python(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(encoder, "_compiled_mark", lambda: None)
    make = encoder._masks(5)
    assert list(make([4, 0, 2])) == [1, 0, 1, 0, 1]
    assert list(make((0, 1, 2, 3))) == [1, 1, 1, 1, 0]
    assert list(make((0, 1, 2, 3))) == [1, 1, 1, 1, 0]  # the second copied whole

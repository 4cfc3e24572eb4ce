"""Quarto's compiled observer (plugins/quarto/_observe.c) against the Python one and the
slow path of the view, on states of seeded random games in every variant; its refusals of
a wrong state or buffer; and the Python fallback where it is not built."""

from __future__ import annotations

import random
from array import array
from itertools import product

import pytest

from tabletop_quarto import encoding
from tabletop_quarto.game import QuartoGame

GAME = QuartoGame()
VARIANTS = [
    {"squares": squares, "claim": claim}
    for squares, claim in product((False, True), ("auto", "manual"))
]


def python_observer(monkeypatch: pytest.MonkeyPatch, options: object) -> object:
    monkeypatch.setattr(encoding, "_compiled", lambda: None)
    return encoding.observer(2, options)  # type: ignore[arg-type]


@pytest.mark.parametrize("variant", VARIANTS, ids=str)
def test_compiled_observer_writes_what_the_python_one_and_the_view_give(
    variant: dict[str, object], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert encoding._compiled() is not None, "pip install -e . builds _observe with a C compiler"
    options = GAME.info.options(**variant)
    compiled = encoding.observer(2, options)
    plain = python_observer(monkeypatch, options)
    assert compiled is not plain
    rng = random.Random(7)
    checked = 0
    for seed in range(40):
        state = GAME.new(2, options, seed)
        while True:
            for player in (1, 2):
                fast, slow = (
                    array("f", bytes(4 * encoding.SIZE)),
                    array("f", bytes(4 * encoding.SIZE)),
                )
                compiled(state, player, fast)
                plain(state, player, slow)  # type: ignore[operator]
                view = array(
                    "f", encoding.observation(GAME.view(state, player), player, 2, options)
                )
                assert fast == slow == view
                checked += 1
            legal = GAME.legal(state)
            if not legal:
                break
            state = GAME.apply(state, rng.choice(legal))
    assert checked > 1000


@pytest.mark.parametrize(
    ("args", "error", "words"),
    [
        (lambda s, out: ((1, 2), 1, out), TypeError, "Quarto State"),
        (lambda s, out: (s, 1, array("f", [0.0] * 3)), ValueError, "float32 buffer of 318"),
        (lambda s, out: (s, 1, array("d", [0.0] * 318)), ValueError, "float32 buffer"),
        (lambda s, out: (s, 1, bytes(2000)), BufferError, "not writable"),
        (lambda s, out: (s._replace(phase=9), 1, out), ValueError, "phase must be 0-4"),
        (lambda s, out: (s._replace(board="x"), 1, out), TypeError, "board must be an int"),
        (lambda s, out: (s, 7, out), ValueError, "observing player must be 0-2"),
    ],
)
def test_compiled_observer_refuses_a_wrong_state_or_buffer(
    args: object, error: type[Exception], words: str
) -> None:
    options = GAME.info.options()
    observe = encoding.observer(2, options)
    out = array("f", bytes(4 * encoding.SIZE))
    with pytest.raises(error, match=words):
        observe(*args(GAME.new(2, options, 0), out))  # type: ignore[operator]

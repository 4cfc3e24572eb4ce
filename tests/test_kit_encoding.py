"""The kit's ``encoding`` check: it passes the built-in games and fails broken encodings."""

from __future__ import annotations

import random
from array import array
from collections.abc import MutableSequence
from types import ModuleType
from typing import Any, ClassVar

import pytest
from pydantic import BaseModel

from tabletop.bridges.facet import encoding_of, slow_id_lister, slow_observer
from tabletop.core.match import Match
from tabletop.core.registry import registry
from tabletop.game import JSON, Game, IdLister, Observer
from tabletop.testing import CHECKS, check_game
from tabletop_ctverak import encoding as ctverak_encoding
from tabletop_ctverak.game import CtverakGame
from tabletop_quartino import encoding as quartino_encoding
from tabletop_quartino.game import QuartinoGame
from tabletop_quarto import encoding as quarto_encoding
from tabletop_quarto.game import QuartoGame


class Replaced:
    """An encoding module with some of its functions replaced (given as the game's
    ``facets["encoding"]``)."""

    def __init__(self, base: ModuleType, **replaced: Any) -> None:
        self.__dict__.update({k: v for k, v in vars(base).items() if not k.startswith("__")})
        self.__dict__.update(replaced)


class SharedIds(QuartoGame):
    # "give LSRF" and "give DSRF" collide
    facets: ClassVar[dict[str, Any]] = {
        "encoding": Replaced(quarto_encoding, action_id=lambda state, action: action // 2)
    }


class WrongWayBack(QuartoGame):
    facets: ClassVar[dict[str, Any]] = {
        "encoding": Replaced(quarto_encoding, action_of=lambda state, number: 31 - number)
    }


class OutOfRange(QuartoGame):
    # the placements are ids 16-31
    facets: ClassVar[dict[str, Any]] = {
        "encoding": Replaced(quarto_encoding, action_ids=lambda players, options: 20)
    }


def _short(view: JSON, player: int, players: int, options: BaseModel) -> list[float]:
    return quarto_encoding.observation(view, player, players, options)[:-1]


class ShortObservation(QuartoGame):
    facets: ClassVar[dict[str, Any]] = {"encoding": Replaced(quarto_encoding, observation=_short)}


LAST: list[Any] = [None]  # the last state PeekingObservation showed


def _peeking(view: JSON, player: int, players: int, options: BaseModel) -> list[float]:
    values = quartino_encoding.observation(view, player, players, options)
    values[-1] = float(sum(sum(stand) for stand in LAST[0].stands))
    return values


class PeekingObservation(QuartinoGame):
    """Remembers the last state it showed and reads the other stands from it: a leak."""

    facets: ClassVar[dict[str, Any]] = {
        "encoding": Replaced(quartino_encoding, observation=_peeking)
    }

    def view(self, state: Any, player: int | None) -> JSON:
        LAST[0] = state
        return super().view(state, player)


def _lying(players: int, options: BaseModel) -> Observer:
    """A fast path that writes one number more than the view's observation holds."""
    fast = quarto_encoding.observer(players, options)

    def observe(state: Any, player: int, out: MutableSequence[float]) -> None:
        fast(state, player, out)
        out[0] += 1.0

    return observe


class LyingObserver(QuartoGame):
    facets: ClassVar[dict[str, Any]] = {"encoding": Replaced(quarto_encoding, observer=_lying)}


def _peeking_fast(players: int, options: BaseModel) -> Observer:
    """A fast path that reads the next player's stand from the state: a leak the view
    would never allow (N7), written where the own stand goes."""
    fast = quartino_encoding.observer(players, options)

    def observe(state: Any, player: int, out: MutableSequence[float]) -> None:
        fast(state, player, out)
        for card in state.stands[player % players]:
            out[quartino_encoding.OFFSET["stand"] + card] = 1.0

    return observe


class PeekingObserver(QuartinoGame):
    facets: ClassVar[dict[str, Any]] = {
        "encoding": Replaced(quartino_encoding, observer=_peeking_fast)
    }


def _stock_peeking(players: int, options: BaseModel) -> Observer:
    """A fast path that counts the stock's next card (face down, K8) into the hand."""
    fast = ctverak_encoding.observer(players, options)

    def observe(state: Any, player: int, out: MutableSequence[float]) -> None:
        fast(state, player, out)
        if state.stock:
            out[ctverak_encoding.OFFSET["hand"] + state.stock[0]] += 1.0

    return observe


class StockPeekingObserver(CtverakGame):
    facets: ClassVar[dict[str, Any]] = {
        "encoding": Replaced(ctverak_encoding, observer=_stock_peeking)
    }


def _reversed(players: int, options: BaseModel) -> IdLister:
    fast = quartino_encoding.id_lister(players, options)
    return lambda state: fast(state)[::-1]


class ReversedIds(QuartinoGame):
    facets: ClassVar[dict[str, Any]] = {
        "encoding": Replaced(quartino_encoding, id_lister=_reversed)
    }


CONNECT4 = registry().get("connect4")  # the example plugin (its own package, no stubs)

BROKEN: list[tuple[Game[Any, Any], str]] = [
    (SharedIds(), "share the action id"),
    (WrongWayBack(), "reads back as"),
    (OutOfRange(), "not one of 0-19"),
    (ShortObservation(), "numbers, not 318"),
    (PeekingObservation(), "observation changes when only what they cannot see does"),
    (LyingObserver(), "fast observation (Game.observer) differs"),
    (PeekingObserver(), "fast observation (Game.observer) differs"),
    (StockPeekingObserver(), "fast observation (Game.observer) differs"),
    (ReversedIds(), "id_lister gives"),
]


@pytest.mark.parametrize(("game", "message"), BROKEN, ids=[type(g).__name__ for g, _ in BROKEN])
def test_a_broken_encoding_fails_the_check(game: Game[Any, Any], message: str) -> None:
    report = check_game(game, games=3, seed=0, fuzz=0, max_configs=2)
    stats = report.checks["encoding"]
    assert stats.failures > 0 and stats.first is not None, report.text()
    assert message in stats.first.message, stats.first.message


@pytest.mark.parametrize("game", [QuartoGame(), QuartinoGame(), CtverakGame(), CONNECT4], ids=str)
def test_the_built_in_encodings_pass(game: Game[Any, Any]) -> None:
    report = check_game(game, games=3, seed=2, fuzz=0)
    assert report.checks["encoding"].runs > 0 and report.checks["encoding"].failures == 0, (
        report.text()
    )
    assert set(report.checks) == {*CHECKS, "encoding"}


def test_ctverak_meld_ids_do_not_depend_on_the_hand() -> None:
    """The same meld has the same id whatever else the hand holds (K3.1: rank + cards)."""
    game = CtverakGame()
    options = game.info.options()
    seven_s, seven_h, joker = 6 * 4 + 0, 6 * 4 + 1, 52
    ids = set()
    for other in ((0, 4), (50, 51), (8, 12)):
        state = Match(game, 2, options, 0).state  # dealt (chance steps, issue 35)
        hand = tuple(sorted((seven_s, seven_h, joker, other[0])))
        state = state._replace(hands=(hand, state.hands[1]))
        meld = (1, seven_s, seven_h, joker)
        assert meld in game.legal(state)
        ids.add(ctverak_encoding.action_id(state, meld))
    assert len(ids) == 1 and ctverak_encoding.IDS == 1692


@pytest.mark.parametrize(
    ("game", "players"),
    [(QuartoGame(), 2), (QuartinoGame(), 3), (CtverakGame(), 4), (CONNECT4, 2)],
    ids=str,
)
def test_the_fast_paths_equal_the_generic_defaults(game: Game[Any, Any], players: int) -> None:
    """Each built-in fast path writes what the contract's default (built from ``view`` and
    ``observation``, :func:`tabletop.bridges.facet.slow_observer`) writes, along random games."""
    options = game.info.options()
    encoding = encoding_of(game)
    assert encoding is not None
    size = encoding.observation_shape(players, options)[0]
    fast, slow = (
        encoding.observer(players, options),
        slow_observer(game, encoding, players, options),
    )
    fast_ids, slow_ids = encoding.id_lister(players, options), slow_id_lister(game, encoding)
    rng = random.Random(4)
    for seed in range(3):
        state = game.new(players, options, seed)
        for _ in range(300):
            assert list(fast_ids(state)) == slow_ids(state)  # a tuple or a list (IdLister)
            for player in range(1, players + 1):
                got, want = array("f", bytes(4 * size)), array("f", bytes(4 * size))
                fast(state, player, got)
                slow(state, player, want)
                assert got == want
            legal = game.legal(state)
            if not legal:
                break
            state = game.apply(state, rng.choice(list(legal)))

"""The kit's ``encoding`` check: it passes the built-in games and fails broken encodings."""

from __future__ import annotations

import random
from array import array
from collections.abc import MutableSequence
from typing import Any

import pytest
from pydantic import BaseModel

from tabletop.core.registry import registry
from tabletop.game import JSON, Game, IdLister, Observer
from tabletop.testing import CHECKS, check_game
from tabletop_ctverak import encoding as ctverak_encoding
from tabletop_ctverak.game import CtverakGame
from tabletop_quartino import encoding as quartino_encoding
from tabletop_quartino.game import QuartinoGame
from tabletop_quarto.game import QuartoGame


class SharedIds(QuartoGame):
    def action_id(self, state: Any, action: int) -> int:
        return action // 2  # "give LSRF" and "give DSRF" collide


class WrongWayBack(QuartoGame):
    def action_of(self, state: Any, action_id: int) -> int:
        return 31 - action_id


class OutOfRange(QuartoGame):
    def action_ids(self, players: int, options: BaseModel) -> int | None:
        return 20  # the placements are ids 16-31


class ShortObservation(QuartoGame):
    def observation(self, view: JSON, player: int, players: int, options: BaseModel) -> list[float]:
        return super().observation(view, player, players, options)[:-1]


class PeekingObservation(QuartinoGame):
    """Remembers the last state it showed and reads the other stands from it: a leak."""

    last: Any = None

    def view(self, state: Any, player: int | None) -> JSON:
        self.last = state
        return super().view(state, player)

    def observation(self, view: JSON, player: int, players: int, options: BaseModel) -> list[float]:
        values = super().observation(view, player, players, options)
        values[-1] = float(sum(sum(stand) for stand in self.last.stands))
        return values


class LyingObserver(QuartoGame):
    """A fast path that writes one number more than the view's observation holds."""

    def observer(self, players: int, options: BaseModel) -> Observer:
        fast = super().observer(players, options)

        def observe(state: Any, player: int, out: MutableSequence[float]) -> None:
            fast(state, player, out)
            out[0] += 1.0

        return observe


class PeekingObserver(QuartinoGame):
    """A fast path that reads the next player's stand from the state: a leak the view
    would never allow (N7), written where the own stand goes."""

    def observer(self, players: int, options: BaseModel) -> Observer:
        fast = super().observer(players, options)

        def observe(state: Any, player: int, out: MutableSequence[float]) -> None:
            fast(state, player, out)
            for card in state.stands[player % players]:
                out[quartino_encoding.OFFSET["stand"] + card] = 1.0

        return observe


class StockPeekingObserver(CtverakGame):
    """A fast path that counts the stock's next card (face down, K8) into the hand."""

    def observer(self, players: int, options: BaseModel) -> Observer:
        fast = super().observer(players, options)

        def observe(state: Any, player: int, out: MutableSequence[float]) -> None:
            fast(state, player, out)
            if state.stock:
                out[ctverak_encoding.OFFSET["hand"] + state.stock[0]] += 1.0

        return observe


class ReversedIds(QuartinoGame):
    def id_lister(self, players: int, options: BaseModel) -> IdLister:
        fast = super().id_lister(players, options)
        return lambda state: fast(state)[::-1]


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
        state = game.new(2, options, 0)
        hand = tuple(sorted((seven_s, seven_h, joker, other[0])))
        state = state._replace(hands=(hand, state.hands[1]))
        meld = (1, seven_s, seven_h, joker)
        assert meld in game.legal(state)
        ids.add(game.action_id(state, meld))
    assert len(ids) == 1 and ctverak_encoding.IDS == 1692


@pytest.mark.parametrize(
    ("game", "players"),
    [(QuartoGame(), 2), (QuartinoGame(), 3), (CtverakGame(), 4), (CONNECT4, 2)],
    ids=str,
)
def test_the_fast_paths_equal_the_generic_defaults(game: Game[Any, Any], players: int) -> None:
    """Each built-in fast path writes what the contract's default (built from ``view`` and
    ``observation``, :meth:`Game.observer` of the base class) writes, along random games."""
    options = game.info.options()
    size = game.observation_shape(players, options)[0]
    fast, slow = game.observer(players, options), Game.observer(game, players, options)
    fast_ids, slow_ids = game.id_lister(players, options), Game.id_lister(game, players, options)
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

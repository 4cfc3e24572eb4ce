"""The server's garbage-collector policy (tabletop.web.collector): survivors of a full
collection are frozen, so the next one walks only newer objects; every so often the
permanent generation is thawed so garbage cycles among old objects are reclaimed."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from tabletop.web import collector


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Iterator[Clock]:
    yield Clock()
    collector.uninstall()


class Cycle:
    def __init__(self) -> None:
        self.me = self


def test_a_full_collection_freezes_its_survivors(clock: Clock) -> None:
    collector.uninstall()
    assert gc.get_freeze_count() == 0
    collector.install(collector.Freezer(thaw_every=60, clock=clock))
    kept = [Cycle() for _ in range(100)]
    gc.collect()
    frozen = gc.get_freeze_count()
    assert frozen >= 100  # at least the survivors we hold
    gc.collect(1)  # a younger collection freezes nothing
    assert gc.get_freeze_count() == frozen
    del kept


def test_the_permanent_generation_is_thawed_and_its_cycles_reclaimed(clock: Clock) -> None:
    collector.uninstall()
    freezer = collector.install(collector.Freezer(thaw_every=60, clock=clock))
    assert collector.install() is freezer  # installed once
    import weakref

    old = Cycle()
    probe = weakref.ref(old)
    gc.collect()  # old survives and is frozen
    del old
    gc.collect()
    assert probe() is not None  # a frozen cycle waits
    clock.now = 61
    gc.collect()  # this one thaws ...
    assert freezer.thaws == 1 and gc.get_freeze_count() == 0
    gc.collect()  # ... and the next reclaims the cycle
    assert probe() is None

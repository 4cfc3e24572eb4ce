"""Spectators are let in at a pace (tabletop.web.guard.Admission.spectator_turn): a crowd
arriving at once waits its turn, after a short burst, so the persons playing keep the
event loop (issue 22)."""

from __future__ import annotations

import asyncio
import time

from tabletop.web.config import Limits
from tabletop.web.guard import SPECTATOR_BURST, Admission


async def join_times(admission: Admission, count: int) -> list[float]:
    start = time.monotonic()

    async def one() -> float:
        await admission.spectator_turn()
        return time.monotonic() - start

    return list(await asyncio.gather(*(one() for _ in range(count))))


def test_a_burst_goes_in_at_once_and_the_rest_at_the_pace() -> None:
    admission = Admission(Limits(spectator_joins_per_second=100))
    times = sorted(asyncio.run(join_times(admission, SPECTATOR_BURST + 30)))
    assert max(times[:SPECTATOR_BURST]) < 0.05  # the burst: no waiting
    # the 30 after it: one every 10 ms, so the last waited about 0.3 s
    assert 0.28 <= times[-1] < 1.5


def test_a_quiet_server_lets_a_spectator_in_at_once() -> None:
    admission = Admission(Limits(spectator_joins_per_second=10))
    asyncio.run(join_times(admission, SPECTATOR_BURST))
    time.sleep(SPECTATOR_BURST / 10)  # the pace has caught up
    assert asyncio.run(join_times(admission, 1))[0] < 0.05

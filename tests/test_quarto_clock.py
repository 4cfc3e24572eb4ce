"""The solver's ``seconds`` are the thinking thread's CPU seconds (issue 38): a machine
busy with other work makes a move slower on the wall clock but never cuts its proof."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator

import pytest

from tabletop_quarto.pieces import ATTRIBUTES
from tabletop_quarto.rules import apply, initial, make_rules
from tabletop_quarto.solver import Engine, kernel_available, solve

pytestmark = pytest.mark.skipif(not hasattr(os, "sched_setaffinity"), reason="Linux only")


@pytest.fixture
def shared_core() -> Iterator[None]:
    """This process and a busy one pinned to the same core: each gets about half of it."""
    before = os.sched_getaffinity(0)
    core = min(before)
    os.sched_setaffinity(0, {core})
    busy = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    os.sched_setaffinity(busy.pid, {core})
    time.sleep(0.2)  # the busy process is running
    try:
        yield
    finally:
        busy.kill()
        busy.wait()
        os.sched_setaffinity(0, before)


@pytest.mark.parametrize("engine", ["python", "kernel"])
def test_a_shared_core_slows_the_solver_without_cutting_its_budget(
    engine: Engine, shared_core: None
) -> None:
    if engine == "kernel" and not kernel_available():
        pytest.skip("the compiled kernel is not built")
    state = apply(initial(make_rules(False, frozenset(ATTRIBUTES), False)), 0)  # the first place
    wall, cpu = time.perf_counter(), time.thread_time()
    found = solve(state, seconds=0.3, engine=engine)
    wall, cpu = time.perf_counter() - wall, time.thread_time() - cpu
    assert not found.exact  # the empty board is far beyond 0.3 s
    assert cpu >= 0.28  # the whole budget was searched, in CPU seconds
    assert wall >= 0.45  # on half a core that took longer: the clock is not the wall's

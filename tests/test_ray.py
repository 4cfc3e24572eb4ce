"""The Ray backend (issue 13): the same results as local processes for the same seed,
on 1 or 2 workers, for ``tabletop analyse`` and ``tabletop arena``; a progress report
per game; and a run that starts its own Ray leaves no process behind.

One local Ray instance serves the whole test session (``ray_session``); skipped when
Ray is not installed (``pip install -e '.[cluster]'``).
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from tabletop.analysis.arena import Setup, play_all
from tabletop.analysis.run import analyse
from tabletop.analysis.sweep import make_plan
from tabletop.cli.app import app

ray = pytest.importorskip("ray")
runner = CliRunner()


@pytest.fixture(scope="session")
def ray_session() -> Iterator[None]:
    """One local Ray for every test here, shut down at the end of the session."""
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level=logging.ERROR)
    yield
    ray.shutdown()


def decided(results: list[Any]) -> list[Any]:
    """What the seed decides about each arena game (not the clock's thinking times)."""
    return [(r.index, r.seats, r.winners, r.actions, r.kind) for r in results]


@pytest.mark.parametrize("workers", [1, 2])
def test_arena_on_ray_plays_the_same_games_as_locally(ray_session: None, workers: int) -> None:
    setup = Setup("quarto", ("1", "2"), 11, 2, {"squares": "true"}, 5)
    seen: list[Any] = []
    on_ray = play_all(setup, workers, seen.append, "ray")
    assert decided(on_ray) == decided(play_all(setup, 1))
    assert sorted(r.index for r in seen) == list(range(11))  # progress: every game, once


@pytest.mark.parametrize("workers", [1, 2])
def test_analyse_on_ray_equals_local_on_any_number_of_workers(
    ray_session: None, workers: int
) -> None:
    plan = make_plan("ctverak", "2,3", ["min_natural=1,2"], "1,2", 2, 9)
    local = analyse(plan, 1)
    seen: list[Any] = []
    remote = analyse(plan, workers, "ray", None, seen.append)
    assert remote["configurations"] == local["configurations"]
    assert remote["skill"] == local["skill"]
    assert len(seen) == 2 * 4 * 3  # 4 configurations x (2 levels + 1 pair) x 2 games


def test_the_commands_take_the_ray_backend(ray_session: None) -> None:
    args = ["analyse", "quarto", "--games", "5", "--agents", "1,2", "--json", "--seed", "3"]
    local = json.loads(runner.invoke(app, args).output)
    done = runner.invoke(app, [*args, "--backend", "ray", "--jobs", "2"])
    assert done.exit_code == 0, done.output
    remote = json.loads(done.output)
    assert remote["configurations"] == local["configurations"] and remote["backend"] == "ray"
    arena = ["arena", "quarto", "--agents", "1,2", "--games", "6", "--json"]
    here = json.loads(runner.invoke(app, arena).output)["results"]
    there = runner.invoke(app, [*arena, "--backend", "ray", "--jobs", "2"])
    assert there.exit_code == 0, there.output
    assert json.loads(there.output)["results"] == here


def ray_processes(marker: str) -> list[str]:
    """Command lines of running processes that mention ``marker`` (Ray's temp folder)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                line = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
            except OSError:
                continue
            if marker in line:
                found.append(line)
    return found


def gone(folder: str) -> list[str]:
    """The processes still naming ``folder`` once they had up to 30 s to exit (Ray's
    daemons exit a moment after ``shutdown`` returns); empty when all are gone."""
    left = ray_processes(folder)
    for _ in range(60):
        if not left:
            break
        time.sleep(0.5)
        left = ray_processes(folder)
    return left


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads /proc")
def test_a_run_that_starts_its_own_ray_leaves_no_process_behind() -> None:
    """``--backend ray`` without ``--address`` starts a local Ray in a temp folder of its
    own (RAY_TMPDIR here) and shuts it down: afterwards no process names that folder."""
    folder = tempfile.mkdtemp(prefix="rt", dir="/tmp")  # short: Ray's socket paths
    try:
        env = {**os.environ, "RAY_TMPDIR": folder}
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "tabletop",
                "analyse",
                "quarto",
                "--games",
                "3",
                "--agents",
                "1",
                "--backend",
                "ray",
                "--json",
            ],
            capture_output=True,
            text=True,
            timeout=300,
            env=env,
            check=False,
        )
        assert done.returncode == 0, done.stderr
        assert json.loads(done.stdout)["backend"] == "ray"
        assert done.stderr == ""  # quiet: no Ray banner or log lines
        assert gone(folder) == []
    finally:
        shutil.rmtree(folder, ignore_errors=True)

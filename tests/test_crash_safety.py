"""A saved game survives SIGKILL right after an action (atomic writes)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tabletop.core.errors import RecordError
from tabletop.core.match import Match
from tabletop.core.records import load
from tests.quarto_helpers import quarto, quarto_match


def wait_for_actions(path: Path, count: int, timeout: float = 20.0) -> list[str]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            actions = load(path).actions
        except RecordError:
            actions = []
        if len(actions) >= count:
            return actions
        time.sleep(0.01)
    raise AssertionError(f"the save never reached {count} actions")


def test_sigkill_after_an_action_loses_nothing(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    proc = subprocess.Popen(
        [sys.executable, "-m", "tabletop", "play", "quarto", "--save", str(save), "--seed", "5"],
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdin is not None
    try:
        for count, action in enumerate(["give DTRH", "place b2", "give LSRF"], start=1):
            proc.stdin.write(action + "\n")
            proc.stdin.flush()
            wait_for_actions(save, count)
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        proc.kill()
        proc.wait()
    assert not list(tmp_path.glob(".game.json.*.tmp"))
    resumed = Match.from_record(quarto(), load(save))
    expected = quarto_match()
    expected.play_all(["give DTRH", "place b2", "give LSRF"])
    assert resumed.state == expected.state
    assert quarto().to_json(resumed.state)["in_hand"] == "LSRF"


def test_move_clock_runs_out_and_the_player_loses(tmp_path: Path) -> None:
    """Q6.2: a player whose clock runs out loses; the save records it."""
    save = tmp_path / "game.json"
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "tabletop",
            "play",
            "quarto",
            "--save",
            str(save),
            "--move-time",
            "1",
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdin is not None
        proc.stdin.write("give DTRH\n")
        proc.stdin.flush()
        proc.wait(timeout=30)  # player 2 never answers; stdin stays open
        assert proc.stdout is not None
        out = proc.stdout.read()
    finally:
        proc.kill()
    assert "player 2 ran out of time" in out
    record = load(save)
    assert record.forfeit is not None and record.forfeit.player == 2
    resumed = Match.from_record(quarto(), record)
    outcome = resumed.outcome()
    assert outcome is not None and outcome.winners == (1,)


def test_a_save_that_fails_midway_leaves_the_old_file_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Saving is write-temp, fsync, rename: if anything fails before the rename (a full
    disk, a kill), the previous save is untouched and no temp file is left behind."""
    from tabletop.core import records

    match = quarto_match()
    match.play("give LSRF")
    path = tmp_path / "game.json"
    records.save(match.record(), path)
    before = path.read_bytes()
    match.play("place a1")

    def fail(*args: object) -> None:
        raise OSError("no space left on device")

    monkeypatch.setattr(os, "replace", fail)
    with pytest.raises(OSError):
        records.save(match.record(), path)
    assert path.read_bytes() == before and load(path).actions == ["give LSRF"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json"]

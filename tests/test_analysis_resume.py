"""Issue 40, runs that survive: Ctrl-C or SIGTERM keeps every finished game (the export,
the JSON and the report of what was done, marked partial, and a resume file), and
``--resume FILE`` finishes the run with the same seeds, byte for byte what a run never
stopped gives. Real processes, real signals. Also the time-left estimate that weighs
each kind of game by its measured cost."""

from __future__ import annotations

import io
import json
import os
import re
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any, NamedTuple

from tabletop.analysis import progress

TIMING = ("seconds", "games_per_second")


def start(words: list[str], cwd: Path) -> subprocess.Popen[str]:
    env = {**os.environ, "TABLETOP_PROGRESS_EVERY": "0"}  # a progress line a game
    return subprocess.Popen(
        [sys.executable, "-m", "tabletop", *words],
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )


def stop_after(process: subprocess.Popen[str], games: int, sig: int) -> tuple[str, str]:
    """Send ``sig`` once the progress lines say ``games`` games are done."""
    assert process.stderr is not None
    seen = []
    for line in process.stderr:
        seen.append(line)
        done = re.search(r": (\d+)/(\d+) games", line)
        if done and int(done.group(1)) >= games:
            process.send_signal(sig)
            break
    out, err = process.communicate(timeout=300)
    return out, "".join(seen) + err


def finish(words: list[str], cwd: Path) -> dict[str, Any]:
    process = start(words, cwd)
    out, err = process.communicate(timeout=300)
    assert process.returncode == 0, err
    data: dict[str, Any] = json.loads(out)
    return data


def untimed(data: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k not in TIMING}


def test_ctrl_c_keeps_every_finished_game_and_resume_gives_the_uninterrupted_run(
    tmp_path: Path,
) -> None:
    words = ["analyse", "quarto", "--agents", "1,2", "--games", "16", "--seed", "3", "--json"]
    process = start([*words, "--export", "stopped.jsonl", "--resume", "keep.json"], tmp_path)
    out, err = stop_after(process, 3, signal.SIGINT)
    assert process.returncode == 130, err
    assert "Continue with the same words and --resume keep.json." in err
    assert err.rstrip().endswith("interrupted") and "Traceback" not in err
    stopped = json.loads(out)
    assert stopped["partial"] is True and 3 <= stopped["finished"] < stopped["planned"] == 48
    rows = [json.loads(line) for line in (tmp_path / "stopped.jsonl").read_text().splitlines()]
    assert len(rows) == stopped["finished"] and all(row["partial"] is True for row in rows)
    kept = json.loads((tmp_path / "keep.json").read_text())
    assert len(kept["finished"]) == stopped["finished"]

    resumed = finish([*words, "--export", "resumed.jsonl", "--resume", "keep.json"], tmp_path)
    whole = finish([*words, "--export", "whole.jsonl"], tmp_path)
    assert "partial" not in resumed and untimed(resumed) == untimed(whole)
    assert (tmp_path / "resumed.jsonl").read_bytes() == (tmp_path / "whole.jsonl").read_bytes()


def test_sigterm_stops_a_compare_on_two_processes_and_leaves_none_running(
    tmp_path: Path,
) -> None:
    seed = "424242"  # marks this run's processes
    words = ["compare", "quarto", "--change", "squares=true", "--agents", "2", "--games", "24"]
    words += ["--seed", seed, "--jobs", "2", "--json"]
    process = start([*words, "--export", "stopped.csv", "--report", "stopped.html"], tmp_path)
    out, err = stop_after(process, 4, signal.SIGTERM)
    assert process.returncode == 130, err
    left = [
        p.name
        for p in Path("/proc").iterdir()
        if p.name.isdigit() and seed in _cmdline(p) and "-m\0tabletop" in _cmdline(p)
    ]
    assert left == [], left
    default = tmp_path / f"quarto-compare-seed{seed}.resume.json"
    assert f"--resume {default.name}" in err
    stopped = json.loads(out)
    assert stopped["partial"] is True and 4 <= stopped["finished"] < stopped["planned"] == 48
    page = (tmp_path / "stopped.html").read_text(encoding="utf-8")
    assert "Stopped: partial results of the" in page
    resumed = finish([*words, "--export", "resumed.csv", "--resume", default.name], tmp_path)
    whole = finish([*words, "--export", "whole.csv"], tmp_path)
    assert resumed == whole  # compare's JSON has no timing: equal as a whole
    for name in ("{}.csv", "{}.measures.csv"):
        resumed_bytes = (tmp_path / name.format("resumed")).read_bytes()
        assert resumed_bytes == (tmp_path / name.format("whole")).read_bytes()


def _cmdline(path: Path) -> str:
    try:
        return (path / "cmdline").read_text()
    except OSError:
        return ""


def test_a_resume_file_of_another_run_is_refused_in_one_line(tmp_path: Path) -> None:
    (tmp_path / "other.json").write_text(json.dumps({"format": 1, "finished": {}}))
    (tmp_path / "junk.json").write_text("not json")
    for name, says in (("other.json", "holds another run"), ("junk.json", "not a resume file")):
        process = start(["analyse", "quarto", "--agents", "1", "--games", "2", "--resume", name],
                        tmp_path)  # fmt: skip
        _, err = process.communicate(timeout=120)
        assert process.returncode == 2 and says in err and err.count("\n") == 1, err


class Finished(NamedTuple):
    key: str
    seconds: float


def test_the_time_left_weighs_each_kind_of_game_by_its_measured_cost() -> None:
    """Two kinds, 10 games each, played in turns: 2-player games take 1 s, 6-player
    games 5 s (on one job). After 4 games, 16 remain, 8 of each: 8 + 40 = 48 s of play
    at the pace seen (the 3 games after the first took 5 + 1 + 5 = 11 s of play in 11 s)."""
    now = [0.0]
    out = io.StringIO()
    todo = {"2p": 10, "6p": 10}
    lines = progress.Lines("ctverak", 20, out, every=0.0, clock=lambda: now[0], todo=todo)
    for kind, cost in (("2p", 1.0), ("6p", 5.0), ("2p", 1.0), ("6p", 5.0)):
        now[0] += cost
        lines(Finished(kind, cost))
    line = out.getvalue().splitlines()[-1]
    assert line == "ctverak: 4/20 games (20%), 12 s so far, about 48 s left", line
    # counted the same, the games would have said 16 × 11 / 3 = 59 s

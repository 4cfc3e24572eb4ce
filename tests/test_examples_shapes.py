"""The example plugins of the new shapes, run as their authors run them: each one's own
test suite (rules against OpenSpiel's native game, the conformance kit, its scenarios) in
a real pytest process, without installing them (``PYTHONPATH`` names their folders)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


@pytest.mark.parametrize("name", ["pig", "goofspiel"])
def test_the_example_passes_its_own_suite(name: str) -> None:
    pytest.importorskip("pyspiel")  # the research extra: installed by the README's command
    folder = EXAMPLES / name
    paths = [str(folder), os.environ.get("PYTHONPATH", "")]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(paths))
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-o", "addopts=", "-q", "-p", "no:cacheprovider",
         str(folder / "tests")],
        cwd=folder, env=env, capture_output=True, text=True, timeout=900,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    counted = re.search(r"(\d+) passed", done.stdout)
    assert counted and int(counted.group(1)) >= 10 and "skipped" not in done.stdout

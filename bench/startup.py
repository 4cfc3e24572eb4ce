"""CLI start-up: ``tabletop games`` against importing its three libraries.

    python -m bench.startup [--runs N]

Runs each command ``N`` times (default 10), interleaved so that the machine's load
falls on all alike, and prints the median and the least wall time of each with its ratio
to the baseline ``python -c "import typer, pydantic, pluggy"``. Two more rows say where
the rest goes: the same imports plus what typer and pydantic load only once a command
runs (typer's parameter adapters, pydantic's ``BaseModel``, which every game's options
model needs), and ``tabletop --help`` (no game loaded). ``tabletop games`` lists from its
cache (:mod:`tabletop.cli.catalogue_cache`, filled by the warm-up run); the last row is
the same without it (every game imported, as on the first run after an install).

The commands run as a user's do: with Python's bytecode cache (a set
``PYTHONDONTWRITEBYTECODE`` is dropped for them, and each runs once unmeasured first), so
the figures do not count compiling the project's sources on every start.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time

BASELINE = "import typer, pydantic, pluggy"
RUNTIME = BASELINE + "; import typer.main, typer._adapters; from pydantic import BaseModel"


def commands() -> dict[str, list[str]]:
    tabletop = shutil.which("tabletop") or "tabletop"
    return {
        "python -c 'import typer, pydantic, pluggy'": [sys.executable, "-c", BASELINE],
        "... + typer runtime + pydantic BaseModel": [sys.executable, "-c", RUNTIME],
        "tabletop --help": [tabletop, "--help"],
        "tabletop games": [tabletop, "games"],
        "tabletop games (TABLETOP_NO_CACHE=1)": ["env", "TABLETOP_NO_CACHE=1", tabletop, "games"],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    runs = parser.parse_args().runs
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    for command in commands().values():  # writes the bytecode cache
        subprocess.run(command, stdout=subprocess.DEVNULL, check=True, env=env)
    times: dict[str, list[float]] = {name: [] for name in commands()}
    for _ in range(runs):
        for name, command in commands().items():
            began = time.perf_counter()
            subprocess.run(command, stdout=subprocess.DEVNULL, check=True, env=env)
            times[name].append(time.perf_counter() - began)
    base = statistics.median(next(iter(times.values())))
    for name, spent in times.items():
        median = statistics.median(spent)
        print(
            f"{name:44s} median {median * 1000:5.0f} ms  least {min(spent) * 1000:5.0f} ms"
            f"  ×{median / base:.2f}"
        )


if __name__ == "__main__":
    main()

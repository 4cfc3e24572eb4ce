"""The body of ``tabletop analyse``: check every word, play with a progress bar, print."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from tabletop.analysis.backends import check_backend
from tabletop.analysis.run import analyse, total_games
from tabletop.analysis.sweep import make_plan
from tabletop.core.errors import UsageError


def analyse_command(
    game: str,
    players: str | None,
    options: Sequence[str],
    agents: str,
    games: int,
    seed: int,
    jobs: int,
    backend: str,
    address: str | None,
    as_json: bool,
    report: Path | None,
) -> None:
    """Check everything first (nothing is played on bad input), then play and print."""
    plan = make_plan(game, players, options, agents, games, seed)
    check_backend(backend, jobs, address)  # Ray installed, the cluster reachable
    if report is not None:
        from tabletop.analysis.report import check_matplotlib

        check_matplotlib()
        if not report.parent.is_dir():
            raise UsageError(f"--report {report}: no such folder {report.parent}")
    if as_json:
        data = analyse(plan, jobs, backend, address)
    else:
        from rich.progress import Progress

        with Progress(transient=True) as bar:
            task = bar.add_task(f"{plan.game}: playing", total=total_games(plan))
            data = analyse(plan, jobs, backend, address, lambda _: bar.advance(task))
    if report is not None:
        from tabletop.analysis.report import write_report

        write_report(data, report)
    if as_json:
        print(json.dumps(data, ensure_ascii=False))
    else:
        from tabletop.analysis.table import print_analysis

        print_analysis(data)
        if report is not None:
            print(f"report written to {report}")

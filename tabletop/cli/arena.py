"""``tabletop arena``: agents play many games with seats rotated, shown as a rich table (the
games themselves are :mod:`tabletop.analysis.arena`, imported only when the command runs)."""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer

from tabletop.cli import parsers
from tabletop.cli.options import (
    AddressOpt,
    BackendOpt,
    FixedSeedOpt,
    GameArg,
    JsonOpt,
    OptionsOpt,
    PlayersOpt,
)
from tabletop.core import flags

SHARED = "a win shared by k winners counts 1/k for each"


def arena(
    game: GameArg,
    agents: Annotated[str, typer.Option("--agents", help="Levels or agents, e.g. 1,2,basic.")],
    games: Annotated[
        int,
        typer.Option(
            "--games", help=f"Number of games, 1..{flags.GAMES_MAX}.", parser=parsers.games
        ),
    ] = 100,
    players: PlayersOpt = None,
    option: OptionsOpt = None,
    jobs: Annotated[
        int,
        typer.Option(
            "--jobs", help=f"Processes to play on, 1..{flags.JOBS_MAX}.", parser=parsers.jobs
        ),
    ] = 1,
    seed: FixedSeedOpt = 0,
    as_json: JsonOpt = False,
    backend: BackendOpt = "local",
    address: AddressOpt = None,
) -> None:
    """Agents play many games with seats rotated: wins, 95% intervals, Elo; points and
    margins for games that score."""
    import time

    from tabletop.analysis import arena as ar
    from tabletop.analysis.backends import check_backend

    setup = ar.make_setup(game, agents, games, players, option or [], seed)
    check_backend(backend, jobs, address)
    began = time.perf_counter()
    if as_json:
        results = ar.play_all(setup, jobs, None, backend, address)
    else:
        from rich.progress import Progress

        with Progress(transient=True) as progress:
            task = progress.add_task("playing", total=setup.games)
            results = ar.play_all(setup, jobs, lambda _: progress.advance(task), backend, address)
    data = ar.summary(setup, results, jobs, time.perf_counter() - began)
    if as_json:
        typer.echo(json.dumps(data, ensure_ascii=False))
    else:
        print_table(data)


def _interval(bounds: list[float]) -> str:
    return f"{bounds[0] * 100:.0f}-{bounds[1] * 100:.0f}%"


def _share(value: float) -> str:
    return f"{value:g}" if value == int(value) else f"{value:.1f}"


def print_table(data: dict[str, Any]) -> None:
    """The arena's result as a rich table (with points, margins and a table per seat for
    games that score)."""
    from rich.console import Console
    from rich.table import Table

    points = any("points" in row for row in data["agents"])
    ranked = " ranked by mean points" if data.get("ranked_by") == "points" else ""
    table = Table(title=f"{data['game']}: {data['games']} games, seed {data['seed']}{ranked}")
    columns = ["agent", "W", "D", "L", "score", "95% CI", "won of decided", "95% CI", "Elo"]
    if points:
        columns += ["points ±95%", "margin ±95%"]
    for column in (*columns, "s/game"):
        table.add_column(column, justify="right")
    for row in data["agents"]:
        rate = row["win_rate_decided"]
        cells = [
            row["agent"],
            _share(row["wins"]),
            str(row["draws"]),
            _share(row["losses"]),
            f"{row['score']:.1%}",
            _interval(row["score_ci95"]),
            "-" if rate is None else f"{rate:.1%}",
            _interval(row["win_rate_decided_ci95"]),
            f"{row['elo']:.0f}",
        ]
        if points:
            cells += [
                _plus_minus(row["points"], row["points_ci95"]),
                _plus_minus(row["margin"], row["margin_ci95"], "+"),
            ]
        table.add_row(*cells, f"{row['seconds_per_game']:.2f}")
    console = Console()
    console.print(table)
    seats = Table(title="per seat", caption=SHARED, title_justify="left")
    for column in (
        "seat",
        "win share",
        "95% CI",
        *(("points ±95%", "margin ±95%") if points else ()),
    ):
        seats.add_column(column, justify="right")
    for row in data.get("seats", []):
        cells = [str(row["seat"]), f"{row['win_share']:.1%}", _interval(row["win_share_ci95"])]
        if "points" in row:
            cells += [
                _plus_minus(row["points"], row["points_ci95"]),
                _plus_minus(row["margin"], row["margin_ci95"], "+"),
            ]
        seats.add_row(*cells)
    console.print(seats)
    console.print(
        f"{data['seconds']} s, {data['games_per_second']} games/s on {data['jobs']} job(s)"
    )


def _plus_minus(mean: float, bounds: list[float], sign: str = "") -> str:
    """``43.5 ±12.0``: a mean and the half-width of its 95% interval."""
    return f"{mean:{sign}.1f} ±{(bounds[1] - bounds[0]) / 2:.1f}"

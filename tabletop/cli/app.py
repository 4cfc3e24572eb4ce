"""The ``tabletop`` command: thin typer commands behind one error boundary.

Every user error is a :class:`~tabletop.core.errors.TabletopError`, printed as one line on
stderr with exit status 1 or 2; never a traceback. Heavy imports live in functions.
"""

from __future__ import annotations

import functools
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, ParamSpec, TypeVar

import typer

from tabletop.core.errors import TabletopError, UsageError, one_line

app = typer.Typer(
    name="tabletop",
    help="Play, test and study tabletop games: every installed game plugin.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)

P = ParamSpec("P")
R = TypeVar("R")


def fail(message: str, code: int = 1) -> typer.Exit:
    """Print ``message`` as the one error line and return the Exit to raise."""
    sys.stderr.write(f"tabletop: {one_line(message)}\n")
    sys.stderr.flush()
    return typer.Exit(code)


def guarded(command: Callable[P, R]) -> Callable[P, R]:
    """The error boundary: TabletopError -> one line, its exit status; no traceback."""

    @functools.wraps(command)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return command(*args, **kwargs)
        except TabletopError as exc:
            raise fail(str(exc), exc.exit_code) from None
        except KeyboardInterrupt:
            raise fail("interrupted", 130) from None
        except BrokenPipeError:
            raise typer.Exit(1) from None
        except (typer.Exit, typer.Abort, SystemExit):
            raise
        except Exception as exc:  # a bug: still one line, unless debugging
            if os.environ.get("TABLETOP_DEBUG"):
                raise
            raise fail(
                f"internal error ({type(exc).__name__}: {exc}); "
                "rerun with TABLETOP_DEBUG=1 for the traceback and please report it",
                3,
            ) from None

    return wrapper


PlayersOpt = Annotated[int | None, typer.Option("--players", "-p", help="Number of players.")]
OptionsOpt = Annotated[
    list[str] | None, typer.Option("--option", "-o", help="Game option KEY=VALUE (repeatable).")
]
SeedOpt = Annotated[int | None, typer.Option("--seed", help="Seed for shuffles and lots.")]


@app.command()
@guarded
def games(as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False) -> None:
    """List the installed games with their players, options and AI levels."""
    from tabletop.catalogue import catalogue, print_catalogue

    rows = catalogue()
    if as_json:
        typer.echo(json.dumps(rows, indent=2, ensure_ascii=False))
    else:
        print_catalogue(rows)


@app.command()
@guarded
def rules(game: Annotated[str, typer.Argument(help="Game id, e.g. quarto.")]) -> None:
    """Show a game's rules and its action notation."""
    from tabletop.catalogue import print_rules
    from tabletop.core.setup import resolve

    print_rules(resolve(game))


@app.command()
@guarded
def play(
    game: Annotated[str, typer.Argument(help="Game id, e.g. quarto.")],
    players: PlayersOpt = None,
    option: OptionsOpt = None,
    seed: SeedOpt = None,
    ai: Annotated[
        list[str] | None,
        typer.Option(
            "--ai", help="Computer player SEAT[:LEVEL], e.g. --ai 2:basic; SEAT 'lot' draws it."
        ),
    ] = None,
    save: Annotated[Path | None, typer.Option("--save", help="Save after every action.")] = None,
    load: Annotated[Path | None, typer.Option("--load", help="Resume a saved game.")] = None,
    move_time: Annotated[
        float | None, typer.Option("--move-time", help="Seconds per move; time out and lose.")
    ] = None,
    series: Annotated[
        int, typer.Option("--games", help="Play a series of N games, the deal rotating.")
    ] = 1,
) -> None:
    """Play in the terminal: hot-seat, or against the computer with --ai."""
    from rich.console import Console

    from tabletop.cli.play import LineReader, Session
    from tabletop.core import records
    from tabletop.core.match import Match
    from tabletop.core.setup import new_match, parse_seats, resolve

    chosen = resolve(game)
    if move_time is not None and move_time <= 0:
        raise UsageError("--move-time must be a positive number of seconds")
    if series < 1:
        raise UsageError("--games must be at least 1")
    if series > 1:
        if load is not None:
            raise UsageError("--games starts a new series; it cannot resume one with --load")
        from tabletop.cli.series import play_series

        first = new_match(chosen, players, option or [], seed)
        seats = parse_seats(chosen, first.players, ai or [], first.seed)  # checks the levels
        levels: dict[int, str | None] = {seat: s.level for seat, s in seats.items()}
        play_series(
            chosen,
            first.players,
            first.options,
            first.seed,
            levels,
            series,
            Console(highlight=False),
            LineReader(),
            save,
            move_time,
        )
        raise typer.Exit(0)
    if load is not None:
        if players is not None or option or seed is not None:
            raise UsageError("--load resumes a saved game: its players, options and seed stand")
        record = records.load(load)
        match = Match.from_record(chosen, record, f"save file {load}")
        specs = ai if ai else [f"{seat}:{level}" for seat, level in record.seats.items()]
        move_time = record.move_time if move_time is None else move_time
        save = save or load
    else:
        match = new_match(chosen, players, option or [], seed)
        specs = ai or []
    seats = parse_seats(chosen, match.players, specs, match.seed)
    if any(spec.lower().startswith("lot") for spec in specs):
        drawn = ", ".join(f"player {n} ({seat.level})" for n, seat in sorted(seats.items()))
        typer.echo(f"drawn by lot: the computer plays {drawn}")
    session = Session(match, seats, Console(highlight=False), LineReader(), save, move_time)
    session.autosave()
    session.run()
    raise typer.Exit(0)


@app.command()
@guarded
def run(
    game: Annotated[str, typer.Argument(help="Game id, e.g. quarto.")],
    players: PlayersOpt = None,
    option: OptionsOpt = None,
    seed: Annotated[int, typer.Option("--seed", help="Seed for shuffles and lots.")] = 0,
    start: Annotated[
        Path | None, typer.Option("--from", help="Start from a position JSON file.")
    ] = None,
    actions: Annotated[
        str | None, typer.Option("--actions", help="Actions file, one a line; - for stdin.")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    reveal: Annotated[
        bool, typer.Option("--reveal", help="Add the full position (hidden parts too).")
    ] = False,
    trace: Annotated[
        bool, typer.Option("--trace", help="Print a JSON line after every action.")
    ] = False,
) -> None:
    """Apply actions non-interactively and print the result."""
    from tabletop.cli.run import emit, run_actions
    from tabletop.core.setup import new_match, resolve

    match = new_match(resolve(game), players, option or [], seed, start)
    refused = run_actions(match, actions, as_json, reveal, trace)
    summary = match.summary(reveal)
    if as_json:
        if refused is not None:
            summary["error"] = str(refused)
        emit(summary)
    else:
        from tabletop.catalogue import print_summary

        print_summary(match, summary)
    if refused is not None:
        raise fail(str(refused), 1)


@app.command()
@guarded
def replay(
    file: Annotated[Path, typer.Argument(help="A saved game.")],
    pause: Annotated[bool, typer.Option("--pause", help="Wait for Enter after each move.")] = False,
) -> None:
    """Show a saved game move by move."""
    from tabletop.cli.replay import replay as show

    show(file, pause)


@app.command("test")
@guarded
def test_(
    paths: Annotated[list[Path] | None, typer.Argument(help="Scenario files or folders.")] = None,
    game: Annotated[str | None, typer.Option("--game", help="Only this game's scenarios.")] = None,
    k: Annotated[str | None, typer.Option("-k", help="Only cases matching EXPR.")] = None,
    coverage: Annotated[
        bool, typer.Option("--coverage", help="List rule IDs no scenario covers.")
    ] = False,
) -> None:
    """Run rule scenario files (default: those every installed game ships)."""
    from tabletop.cli.scenarios import test_command

    raise typer.Exit(test_command(list(paths or []), game, k, coverage))


@app.command()
@guarded
def check(
    game: Annotated[str, typer.Argument(help="Game id, e.g. quarto.")],
    games: Annotated[int, typer.Option("--games", help="Random games per configuration.")] = 200,
    seed: Annotated[int, typer.Option("--seed", help="First seed.")] = 0,
    record: Annotated[bool, typer.Option("--record", help="Write golden playthroughs.")] = False,
    players: PlayersOpt = None,
) -> None:
    """Conformance kit: seeded random games checking the game's invariants."""
    from tabletop.testing import check_command

    raise typer.Exit(check_command(game, games, seed, record, players))


@app.command()
@guarded
def arena(
    game: Annotated[str, typer.Argument(help="Game id, e.g. quarto.")],
    agents: Annotated[str, typer.Option("--agents", help="Levels or agents, e.g. 1,2,basic.")],
    games: Annotated[int, typer.Option("--games", help="Number of games.")] = 100,
    players: PlayersOpt = None,
    option: OptionsOpt = None,
    jobs: Annotated[int, typer.Option("--jobs", help="Processes to play on.")] = 1,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the whole arena.")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Agents play many games with seats rotated: wins, 95% intervals, Elo."""
    import time

    from tabletop import arena as ar

    setup = ar.make_setup(game, agents, games, players, option or [], seed)
    began = time.perf_counter()
    if as_json:
        results = ar.play_all(setup, jobs)
    else:
        from rich.progress import Progress

        with Progress(transient=True) as progress:
            task = progress.add_task("playing", total=setup.games)
            results = ar.play_all(setup, jobs, lambda _: progress.advance(task))
    data = ar.summary(setup, results, jobs, time.perf_counter() - began)
    if as_json:
        typer.echo(json.dumps(data, ensure_ascii=False))
    else:
        ar.print_table(data)


@app.command()
@guarded
def solve(
    game: Annotated[str, typer.Argument(help="Game id, e.g. quarto.")],
    start: Annotated[
        Path | None, typer.Option("--from", help="Position JSON (default: the start).")
    ] = None,
    option: OptionsOpt = None,
    seconds: Annotated[
        float,
        typer.Option("--seconds", help="Time budget; 0: no limit, solve to the end."),
    ] = 60.0,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """The exact value of a position for the player to act, and a best action."""
    from tabletop.core.setup import new_match, resolve

    if seconds < 0:
        raise UsageError(f"--seconds must be 0 (no limit) or more, not {seconds:g}")
    chosen = resolve(game)
    match = new_match(chosen, None, option or [], 0, start)
    if match.outcome() is not None:
        raise TabletopError("the game is already over in that position; nothing to solve")
    result = chosen.solve(match.state, seconds or None)
    if result is None:
        raise TabletopError(f"{chosen.info.name} has no exact solver")
    typer.echo(json.dumps(result, ensure_ascii=False) if as_json else result["summary"])


@app.command()
@guarded
def new(
    game_id: Annotated[str, typer.Argument(metavar="ID", help="The new game's id.")],
    directory: Annotated[
        Path | None, typer.Option("--dir", help="Folder to create (default: ./tabletop-ID).")
    ] = None,
) -> None:
    """Create a complete plugin distribution for a new game."""
    from tabletop.cli.scaffold import new_command

    made = new_command(game_id, directory)
    typer.echo(f"created {made}")
    typer.echo(f"next: pip install -e {made} && tabletop play {game_id} && pytest {made}")


def main() -> Any:
    """Console entry point."""
    return app()

"""The ``tabletop`` command: thin typer commands behind one error boundary.

Every user error is a :class:`~tabletop.core.errors.TabletopError`, printed as one line on
stderr with exit status 1 or 2; never a traceback. Heavy imports live in functions.
"""

from __future__ import annotations

import functools
import json
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Annotated, Any, ParamSpec, TypeVar

import typer
from typer.core import TyperGroup

from tabletop.core import flags
from tabletop.core.errors import TabletopError, UsageError, one_line


class Commands(TyperGroup):
    """typer's command group, with every usage error (unknown flag, missing argument, bad
    value) printed as one line on stderr with exit status 2, like every other error: in
    the console script, ``python -m tabletop`` and typer's test runner alike."""

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        windows_expand_args: bool = True,
        **extra: Any,
    ) -> Any:
        usage_error, click_error = _click_errors()
        try:
            code = super().main(
                args,
                prog_name,
                complete_var,
                standalone_mode=False,
                windows_expand_args=windows_expand_args,
                **extra,
            )
        except usage_error as exc:
            ctx = getattr(exc, "ctx", None)
            if type(exc).__name__ == "NoArgsIsHelpError" and ctx is not None:
                typer.echo(ctx.get_help())  # a bare ``tabletop``: the help, as before
                code = 2
            else:
                where = ctx.command_path if ctx is not None else "tabletop"
                fail(f"{exc.format_message()} (see '{where} --help')", 2)
                code = 2
        except click_error as exc:
            fail(exc.format_message(), exc.exit_code)
            code = exc.exit_code
        except typer.Abort:
            fail("interrupted", 130)
            code = 130
        if not standalone_mode:
            return code
        sys.exit(code if isinstance(code, int) else 0)


def _click_errors() -> tuple[type[Any], type[Any]]:
    """click's UsageError and ClickException, wherever this typer keeps click (typer 0.2x
    vendors it privately): the bases of the public ``typer.BadParameter``."""
    found = {cls.__name__: cls for cls in typer.BadParameter.__mro__}
    return found["UsageError"], found["ClickException"]


app = typer.Typer(
    cls=Commands,
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


PlayersOpt = Annotated[
    int | None,
    typer.Option("--players", "-p", help="Number of players.", parser=flags.players),
]
OptionsOpt = Annotated[
    list[str] | None, typer.Option("--option", "-o", help="Game option KEY=VALUE (repeatable).")
]
SEED_HELP = f"Seed for shuffles and lots, 0..{flags.SEED_MAX}."
SeedOpt = Annotated[int | None, typer.Option("--seed", help=SEED_HELP, parser=flags.seed)]
BackendOpt = Annotated[
    str, typer.Option("--backend", help="Where games run: local (processes) or ray.")
]
AddressOpt = Annotated[
    str | None,
    typer.Option("--address", help="Ray cluster to join (default: start a local one)."),
]


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
    from tabletop.setup import resolve

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
        float | None,
        typer.Option(
            "--move-time",
            help=f"Seconds per move, {flags.MOVE_TIME_MIN:g}..{flags.MOVE_TIME_MAX:g}; "
            "time out and lose.",
            parser=flags.move_time,
        ),
    ] = None,
    series: Annotated[
        int,
        typer.Option(
            "--games",
            help=f"Play a series of N games (1..{flags.SERIES_MAX}), the deal rotating.",
            parser=flags.series,
        ),
    ] = 1,
) -> None:
    """Play in the terminal: hot-seat, or against the computer with --ai."""
    from rich.console import Console

    from tabletop.cli.play import LineReader, Session
    from tabletop.core import records
    from tabletop.core.match import Match
    from tabletop.setup import new_match, parse_seats, resolve

    chosen = resolve(game)
    if save is not None:
        records.check_path(save)
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
    seed: Annotated[int, typer.Option("--seed", help=SEED_HELP, parser=flags.seed)] = 0,
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
    from tabletop.setup import new_match, resolve

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
    mutate: Annotated[
        bool, typer.Option("--mutate", help="Mutation score of the suite (needs --game).")
    ] = False,
    module: Annotated[
        list[str] | None, typer.Option("--module", help="With --mutate: mutate this module.")
    ] = None,
    max_mutants: Annotated[
        int | None, typer.Option("--max-mutants", help="With --mutate: at most N mutants.")
    ] = None,
    seconds: Annotated[
        float | None, typer.Option("--seconds", help="With --mutate: stop after S seconds.")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="With --mutate: print JSON.")] = False,
) -> None:
    """Run rule scenario files (default: those every installed game ships)."""
    if not mutate and (module or max_mutants is not None or seconds is not None or as_json):
        raise UsageError("--module, --max-mutants, --seconds and --json go with --mutate")
    if mutate:
        from tabletop.cli.mutate import mutate_command

        status = mutate_command(paths or [], game, k, module or [], max_mutants, seconds, as_json)
        raise typer.Exit(status)
    from tabletop.cli.scenarios import test_command

    raise typer.Exit(test_command(list(paths or []), game, k, coverage))


@app.command()
@guarded
def check(
    game: Annotated[str, typer.Argument(help="Game id, e.g. quarto.")],
    games: Annotated[
        int,
        typer.Option(
            "--games",
            help=f"Random games per configuration, 1..{flags.GAMES_MAX}.",
            parser=flags.games,
        ),
    ] = 200,
    seed: Annotated[int, typer.Option("--seed", help=SEED_HELP, parser=flags.seed)] = 0,
    record: Annotated[bool, typer.Option("--record", help="Write golden playthroughs.")] = False,
    players: PlayersOpt = None,
    option: OptionsOpt = None,
) -> None:
    """Conformance kit: seeded random games checking the game's invariants."""
    from tabletop.cli.check import check_command

    raise typer.Exit(check_command(game, games, seed, record, players, option or []))


@app.command()
@guarded
def arena(
    game: Annotated[str, typer.Argument(help="Game id, e.g. quarto.")],
    agents: Annotated[str, typer.Option("--agents", help="Levels or agents, e.g. 1,2,basic.")],
    games: Annotated[
        int,
        typer.Option("--games", help=f"Number of games, 1..{flags.GAMES_MAX}.", parser=flags.games),
    ] = 100,
    players: PlayersOpt = None,
    option: OptionsOpt = None,
    jobs: Annotated[
        int,
        typer.Option(
            "--jobs", help=f"Processes to play on, 1..{flags.JOBS_MAX}.", parser=flags.jobs
        ),
    ] = 1,
    seed: Annotated[int, typer.Option("--seed", help=SEED_HELP, parser=flags.seed)] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    backend: BackendOpt = "local",
    address: AddressOpt = None,
) -> None:
    """Agents play many games with seats rotated: wins, 95% intervals, Elo."""
    import time

    from tabletop import arena as ar
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
            results = ar.play_all(
                setup, jobs, lambda _: progress.advance(task), backend, address
            )
    data = ar.summary(setup, results, jobs, time.perf_counter() - began)
    if as_json:
        typer.echo(json.dumps(data, ensure_ascii=False))
    else:
        ar.print_table(data)


@app.command()
@guarded
def analyse(
    game: Annotated[str, typer.Argument(help="Game id, e.g. quarto.")],
    players: Annotated[
        str | None, typer.Option("--players", "-p", help="Player counts to sweep, e.g. 2,3,4.")
    ] = None,
    option: Annotated[
        list[str] | None,
        typer.Option("--option", "-o", help="Option values to sweep, KEY=A,B (repeatable)."),
    ] = None,
    agents: Annotated[
        str, typer.Option("--agents", help="Self-play levels, e.g. 1,2 (pairs: skill).")
    ] = "1,2",
    games: Annotated[
        int, typer.Option("--games", help="Games per configuration and level.")
    ] = 100,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the whole analysis.")] = 0,
    jobs: Annotated[int, typer.Option("--jobs", help="Processes or Ray tasks at once.")] = 1,
    backend: BackendOpt = "local",
    address: AddressOpt = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    report: Annotated[
        Path | None, typer.Option("--report", help="Write an HTML page of plots.")
    ] = None,
) -> None:
    """Balance of a game by self-play: seat advantage, draws, length, skill; a sweep."""
    from tabletop.analysis.cli import analyse_command

    analyse_command(
        game, players, option or [], agents, games, seed, jobs, backend, address, as_json, report
    )


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
        typer.Option(
            "--seconds",
            help=f"Time budget, 0..{flags.SECONDS_MAX:g}; 0: no limit, solve to the end.",
            parser=flags.solve_seconds,
        ),
    ] = 60.0,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """The exact value of a position for the player to act, and a best action."""
    from tabletop.setup import new_match, resolve

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


@app.command()
@guarded
def serve(
    host: Annotated[str, typer.Option("--host", help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="Port to listen on.")] = 8000,
    db: Annotated[
        Path | None,
        typer.Option(
            "--db",
            help="SQLite file of the matches (default: $XDG_DATA_HOME/tabletop/matches.sqlite3, "
            "i.e. ~/.local/share/tabletop/matches.sqlite3).",
        ),
    ] = None,
) -> None:
    """Play in the browser: a lobby, matches, seat links (needs pip install 'tabletop[web]')."""
    try:
        from tabletop.web.serve import serve as run_server
    except ImportError as exc:
        raise UsageError(
            f"the web server needs its extra: pip install 'tabletop[web]' ({exc.name} missing)"
        ) from None
    run_server(host, port, db)


def main(argv: Sequence[str] | None = None) -> int:
    """Console entry point (``tabletop``, ``python -m tabletop``); returns the exit status."""
    code = app(args=list(argv) if argv is not None else None, standalone_mode=False)
    return code if isinstance(code, int) else 0

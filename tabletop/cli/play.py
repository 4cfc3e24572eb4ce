"""``tabletop play``: hot-seat or against the computer, one game or a series (the game loop
itself is :mod:`tabletop.cli.session`, the series :mod:`tabletop.cli.series`)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from tabletop.cli import parsers
from tabletop.cli.language import speak
from tabletop.cli.options import GameArg, LangOpt, OptionsOpt, PlayersOpt, SeedOpt
from tabletop.core import flags
from tabletop.core.errors import UsageError
from tabletop.core.i18n.text import Domain, translate

_ = Domain("tabletop")


def play(
    game: GameArg,
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
            parser=parsers.move_time,
        ),
    ] = None,
    series: Annotated[
        int,
        typer.Option(
            "--games",
            help=f"Play a series of N games (1..{flags.SERIES_MAX}), the deal rotating.",
            parser=parsers.series,
        ),
    ] = 1,
    lang: LangOpt = None,
) -> None:
    """Play in the terminal: hot-seat, or against the computer with --ai."""
    speak(lang)
    from rich.console import Console

    from tabletop.cli.seats import parse_seats
    from tabletop.cli.session import LineReader, Session
    from tabletop.core import records
    from tabletop.core.match import Match
    from tabletop.core.setup import new_match, resolve

    chosen = resolve(game)
    if save is not None:
        records.check_path(save)
    if series > 1:
        if load is not None:
            raise UsageError(_("--games starts a new series; it cannot resume one with --load"))
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
            raise UsageError(_("--load resumes a saved game: its players, options and seed stand"))
        record = records.load(load)
        match = Match.from_record(chosen, record, records.save_file(load))
        specs = ai if ai else [f"{seat}:{level}" for seat, level in record.seats.items()]
        move_time = record.move_time if move_time is None else move_time
        save = save or load
    else:
        match = new_match(chosen, players, option or [], seed)
        specs = ai or []
    seats = parse_seats(chosen, match.players, specs, match.seed)
    if any(spec.lower().startswith("lot") for spec in specs):
        from tabletop.core.match import player_name

        drawn = ", ".join(
            f"{translate(player_name(n))} ({seat.level})" for n, seat in sorted(seats.items())
        )
        typer.echo(translate(_("drawn by lot: the computer plays {players}", players=drawn)))
    session = Session(match, seats, Console(highlight=False), LineReader(), save, move_time)
    session.autosave()
    session.run()
    raise typer.Exit(0)

"""``tabletop solve``: a game's exact solver on a position, within a time budget."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from tabletop.cli import parsers
from tabletop.cli.language import speak
from tabletop.cli.options import GameArg, JsonOpt, OptionsOpt
from tabletop.core import flags
from tabletop.core.errors import TabletopError
from tabletop.core.i18n.text import Domain, translate

_ = Domain("tabletop")


def solve(
    game: GameArg,
    start: Annotated[
        Path | None, typer.Option("--from", help="Position JSON (default: the start).")
    ] = None,
    option: OptionsOpt = None,
    seconds: Annotated[
        float,
        typer.Option(
            "--seconds",
            help=f"Time budget in seconds of computation (CPU), 0..{flags.SECONDS_MAX:g}; "
            "0: no limit, solve to the end.",
            parser=parsers.solve_seconds,
        ),
    ] = 60.0,
    as_json: JsonOpt = False,
) -> None:
    """The exact value of a position for the player to act, and a best action."""
    speak(None, {} if as_json else None)  # errors: TABLETOP_LANG/locale; --json: English
    from tabletop.agents.facet import players_of
    from tabletop.core.setup import new_match, resolve

    chosen = resolve(game)
    match = new_match(chosen, None, option or [], 0, start)
    if match.outcome() is not None:
        raise TabletopError(_("the game is already over in that position; nothing to solve"))
    result = players_of(chosen).solve(match.state, seconds or None)
    if result is None:
        raise TabletopError(_("{game} has no exact solver", game=chosen.info.name))
    typer.echo(json.dumps(result, ensure_ascii=False) if as_json else translate(result["summary"]))

"""``tabletop replay``: a saved game shown move by move, as a spectator sees it."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer


def replay(
    file: Annotated[Path, typer.Argument(help="A saved game.")],
    pause: Annotated[bool, typer.Option("--pause", help="Wait for Enter after each move.")] = False,
) -> None:
    """Show a saved game move by move."""
    show(file, pause)


def show(path: Path, pause: bool = False) -> None:
    """Print every action with the position after it (spectator view: nothing hidden leaks)."""
    from rich.console import Console
    from rich.markup import escape
    from rich.rule import Rule

    from tabletop.cli.session import terminal_reader
    from tabletop.core import records
    from tabletop.core.match import Match
    from tabletop.core.setup import resolve

    record = records.load(path)
    game = resolve(record.game)
    match = Match.from_record(game, record, f"save file {path}")
    console = Console(highlight=False)
    # The seed rebuilds every hidden card: shown only once nothing is hidden any more.
    secret = game.info.hidden_information and match.outcome() is None
    seed = "" if secret else f", seed {record.seed}"
    console.print(
        f"[bold]{escape(game.info.name)}[/], {record.players} players, "
        f"options {record.options}{seed}"
    )
    wait = terminal_reader() if pause else None
    for number, text in enumerate(record.actions, start=1):
        state = match.states[number]
        player = game.to_act(match.states[number - 1])
        console.print(Rule(f"{number}. player {player}: {text}"))
        console.print(game.render(game.view(state, None), None))
        if wait is not None:
            try:
                wait("Enter for the next move ")
            except EOFError:  # input ended: show the rest without pausing
                wait = None
    outcome = match.outcome()
    if outcome is None:
        console.print(f"not finished: player {match.to_act()} to act ({game.prompt(match.state)})")
    elif outcome.winners:
        console.print(
            f"over: player(s) {', '.join(map(str, outcome.winners))} won. {outcome.reason}"
        )
    else:
        console.print(f"over: a draw. {outcome.reason}")

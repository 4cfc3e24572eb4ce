"""``tabletop replay``: a saved game shown move by move, as a spectator sees it."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from tabletop.cli.language import speak
from tabletop.cli.options import LangOpt
from tabletop.core.i18n.text import Domain, translate
from tabletop.core.presentation import presentation_of

_ = Domain("tabletop")


def replay(
    file: Annotated[Path, typer.Argument(help="A saved game.")],
    pause: Annotated[bool, typer.Option("--pause", help="Wait for Enter after each move.")] = False,
    lang: LangOpt = None,
) -> None:
    """Show a saved game move by move."""
    speak(lang)
    show(file, pause)


def show(path: Path, pause: bool = False) -> None:
    """Print every action with the position after it (spectator view: nothing hidden leaks)."""
    from rich.console import Console
    from rich.markup import escape
    from rich.rule import Rule

    from tabletop.cli.lines import terminal_reader
    from tabletop.core import records
    from tabletop.core.match import Match
    from tabletop.core.setup import resolve
    from tabletop.core.table import shown_text

    record = records.load(path)
    game = resolve(record.game)
    match = Match.from_record(game, record, records.save_file(path))
    console = Console(highlight=False)
    # The seed rebuilds every hidden card: shown only once nothing is hidden any more.
    secret = game.info.hidden_information and match.outcome() is None
    heading = (
        _("{players} players, options {options}", players=record.players, options=record.options)
        if secret
        else _(
            "{players} players, options {options}, seed {seed}",
            players=record.players,
            options=record.options,
            seed=record.seed,
        )
    )
    console.print(f"[bold]{escape(game.info.name)}[/], {translate(heading)}")
    wait = terminal_reader() if pause else None
    for number, text in enumerate(record.actions, start=1):
        state = match.states[number]
        player = game.to_act(match.states[number - 1])
        if secret:  # e.g. a false claim's card (N4.4), a card drawn
            text = translate(shown_text(match, number - 1, None))
        said = _("{number}. player {player}: {action}", number=number, player=player, action=text)
        console.print(Rule(translate(said)))
        console.print(presentation_of(game).render(game.view(state, None), None))
        if wait is not None:
            try:
                wait(translate(_("Enter for the next move")) + " ")
            except EOFError:  # input ended: show the rest without pausing
                wait = None
    outcome = match.outcome()
    if outcome is None:
        said = _(
            "not finished: player {player} to act ({prompt})",
            player=match.player(),
            prompt=game.prompt(match.state),
        )
    elif outcome.winners:
        said = _(
            "over: player(s) {players} won. {reason}",
            players=", ".join(map(str, outcome.winners)),
            reason=outcome.reason,
        )
    else:
        said = _("over: a draw. {reason}", reason=outcome.reason)
    console.print(translate(said))

"""``tabletop replay``: a saved game shown move by move, as a spectator sees it."""

from __future__ import annotations

from pathlib import Path

from rich.console import Console
from rich.markup import escape
from rich.rule import Rule

from tabletop.core import records
from tabletop.core.match import Match
from tabletop.core.setup import resolve


def replay(path: Path, pause: bool = False) -> None:
    """Print every action with the position after it (spectator view: nothing hidden leaks)."""
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
    for number, text in enumerate(record.actions, start=1):
        state = match.states[number]
        player = game.to_act(match.states[number - 1])
        console.print(Rule(f"{number}. player {player}: {text}"))
        console.print(game.render(game.view(state, None), None))
        if pause:
            console.input("[dim]Enter for the next move[/] ")
    outcome = match.outcome()
    if outcome is None:
        console.print(f"not finished: player {match.to_act()} to act ({game.prompt(match.state)})")
    elif outcome.winners:
        console.print(
            f"over: player(s) {', '.join(map(str, outcome.winners))} won. {outcome.reason}"
        )
    else:
        console.print(f"over: a draw. {outcome.reason}")

"""A series of games at one table (``tabletop play GAME --games N``).

The deal passes round the table: in game ``k`` the person in seat ``s`` plays as
player ``((s - 1 - k) mod N) + 1``, so every seat starts in turn. Totals add each
game's ``scores`` (one point per win for games that do not score), and a table is
shown after every game and at the end.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import BaseModel
from rich.console import Console
from rich.table import Table

from tabletop.agents.seat import make_seat
from tabletop.cli.session import LineReader, Session
from tabletop.core.i18n.text import Domain, translate
from tabletop.core.match import Match
from tabletop.game import Game

_ = Domain("tabletop")


def player_in_game(seat: int, game_index: int, players: int) -> int:
    """The player number of ``seat`` in game ``game_index`` (0-based)."""
    return (seat - 1 - game_index) % players + 1


def points(match: Match) -> dict[int, int]:
    """Points per player of a finished game: its scores, else one per winner."""
    scores = match.game.scores(match.state)
    if scores is not None:
        return dict(scores)
    outcome = match.outcome()
    return {w: 1 for w in (outcome.winners if outcome else ())}


def totals_table(totals: dict[int, int], title: str) -> Table:
    table = Table(title=translate(title))
    table.add_column(translate(_("seat")), justify="right")
    table.add_column(translate(_("points")), justify="right")
    for seat, value in sorted(totals.items(), key=lambda kv: (-kv[1], kv[0])):
        table.add_row(str(seat), str(value))
    return table


def play_series(
    game: Game[Any, Any],
    players: int,
    options: BaseModel,
    seed: int,
    ai_levels: dict[int, str | None],
    games: int,
    console: Console,
    reader: LineReader,
    save: Path | None = None,
    move_time: float | None = None,
) -> dict[int, int]:
    """Play up to ``games`` games; returns the totals per seat."""
    totals = dict.fromkeys(range(1, players + 1), 0)
    for index in range(games):
        seat_of = {player_in_game(s, index, players): s for s in range(1, players + 1)}
        seats = {
            player_in_game(s, index, players): make_seat(game, level)
            for s, level in ai_levels.items()
        }
        said = _(
            "game {number} of {games}: seat {seat} starts",
            number=index + 1,
            games=games,
            seat=seat_of[1],
        )
        console.rule(translate(said))
        match = Match(game, players, options, seed + index)
        session = Session(match, seats, console, reader, save, move_time, seat_of=seat_of)
        session.autosave()
        if not session.run():
            break
        for player, value in points(match).items():
            totals[seat_of[player]] += value
        console.print(totals_table(totals, _("after game {number}", number=index + 1)))
    console.print(totals_table(totals, _("final table")))
    return totals

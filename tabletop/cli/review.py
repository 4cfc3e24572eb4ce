"""``tabletop review FILE [--level L] [--json]``: every action of a saved game judged by
the coach (:mod:`tabletop.coach`) from the view its player had when acting."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from tabletop.cli.options import JsonOpt

if TYPE_CHECKING:
    from tabletop.coach.review import Reviewed

LEVEL_HELP = "The coach's strength: level 1-5 (default 5, the strongest; Quarto's 5 is exact)."

# Every sentence a person reads, in one place (for the catalogues).
HEADER = "{game} review, {count} actions, by {method}"
ENTRY = "{number:>3}. player {player}: {action:<14} {verdict:<10} {before:>4} → {after:>4}{mark}"
EXACT_MARK = " (exact)"
BETTER = "       best was {best}{why}"
REASON = "       {why}"
PLAYER_LINE = (
    "player {player}: accuracy {accuracy} ({sound} of {free} best or good); "
    "inaccuracies {inaccuracy}, mistakes {mistake}, blunders {blunder}"
)
NO_ACCURACY = "n/a"
PROGRESS = "\rreviewing action {done} of {total}"
EMPTY = "the saved game has no actions to review"


def review(
    file: Annotated[Path, typer.Argument(help="A saved game (play --save).")],
    level: Annotated[str, typer.Option("--level", help=LEVEL_HELP)] = "5",
    as_json: JsonOpt = False,
) -> None:
    """Judge every action of a saved game: its value before and after, the best action."""
    from tabletop.coach.choose import coach_for
    from tabletop.coach.review import review as review_match
    from tabletop.coach.review import summary
    from tabletop.core import records
    from tabletop.core.errors import TabletopError
    from tabletop.core.match import Match
    from tabletop.core.setup import resolve

    record = records.load(file)
    game = resolve(record.game)
    coach = coach_for(game, level)
    match = Match.from_record(game, record, f"save file {file}")
    if not match.actions:
        raise TabletopError(EMPTY)
    show = not as_json and sys.stderr.isatty()

    def progress(done: int, total: int) -> None:
        if show:
            sys.stderr.write(PROGRESS.format(done=done, total=total))
            sys.stderr.flush()

    entries = review_match(match, coach, progress=progress)
    if show:
        sys.stderr.write("\n")
    totals = summary(entries, match.players)
    if as_json:
        data = {
            "game": game.info.id,
            "players": match.players,
            "actions": [e.json() for e in entries],
            "summary": totals,
        }
        typer.echo(json.dumps(data, ensure_ascii=False))
        return
    method = getattr(coach, "method", f"level {level}")
    typer.echo(HEADER.format(game=game.info.name, count=len(entries), method=method))
    for entry in entries:
        typer.echo(entry_text(entry))
    for player, counts in totals.items():
        accuracy = counts["accuracy"]
        typer.echo(
            PLAYER_LINE.format(
                player=player,
                accuracy=NO_ACCURACY if accuracy is None else f"{accuracy:g}%",
                sound=counts["best"] + counts["good"],
                free=counts["actions"] - counts["forced"],
                inaccuracy=counts["inaccuracy"],
                mistake=counts["mistake"],
                blunder=counts["blunder"],
            )
        )


def percent(chance: float) -> str:
    return f"{round(100 * chance)}%"


def entry_text(entry: Reviewed) -> str:
    """An action's line, and for anything worse than good the better action and why."""
    lines = [
        ENTRY.format(
            number=entry.number,
            player=entry.player,
            action=entry.action,
            verdict=entry.verdict,
            before=percent(entry.before),
            after=percent(entry.after),
            mark=EXACT_MARK if entry.exact else "",
        )
    ]
    if entry.verdict not in ("best", "good"):
        if entry.why:
            lines.append(REASON.format(why=entry.why))
        why = f": {entry.best_why}" if entry.best_why else ""
        lines.append(BETTER.format(best=entry.best, why=why))
    return "\n".join(lines)

"""``tabletop review FILE [--level L] [--json]``: every action of a saved game judged by
the coach (:mod:`tabletop.coach`) from the view its player had when acting."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from tabletop.cli.language import speak
from tabletop.cli.options import JsonOpt, LangOpt
from tabletop.core.i18n import formats
from tabletop.core.i18n.text import Domain, translate

if TYPE_CHECKING:
    from tabletop.coach.review import Reviewed

LEVEL_HELP = "The coach's strength: level 1-5 (default 5, the strongest; Quarto's 5 is exact)."

_ = Domain("tabletop")

# Every sentence a person reads, in one place (for the catalogues).
HEADER = _("{game} review, {count} actions, by {method}")
# (the columns are padded before they are filled in: a translation keeps them aligned)
ENTRY = _("{number}. player {player}: {action} {verdict} {before} → {after}{mark}")
EXACT_MARK = _(" (exact)")
BETTER = _("       best was {best}{why}")
REASON = "       {why}"
PLAYER_LINE = _(
    "player {player}: accuracy {accuracy} ({sound} of {free} best or good); "
    "inaccuracies {inaccuracy}, mistakes {mistake}, blunders {blunder}"
)
NO_ACCURACY = _("n/a")
PROGRESS = _("reviewing action {done} of {total}")
EMPTY = _("the saved game has no actions to review")
# The verdicts as the text names them (the JSON keeps the machine words).
VERDICTS = {
    "best": _("best"),
    "good": _("good"),
    "inaccuracy": _("inaccuracy"),
    "mistake": _("mistake"),
    "blunder": _("blunder"),
    "forced": _("forced"),
}


def review(
    file: Annotated[Path, typer.Argument(help="A saved game (play --save).")],
    level: Annotated[str, typer.Option("--level", help=LEVEL_HELP)] = "5",
    as_json: JsonOpt = False,
    lang: LangOpt = None,
) -> None:
    """Judge every action of a saved game: its value before and after, the best action."""
    from tabletop.coach.choose import coach_for
    from tabletop.coach.review import review as review_match
    from tabletop.coach.review import summary
    from tabletop.core import records
    from tabletop.core.errors import TabletopError
    from tabletop.core.match import Match
    from tabletop.core.setup import resolve

    speak(lang, {} if as_json else None)  # the JSON: English unless --lang (as for `run`)
    record = records.load(file)
    game = resolve(record.game)
    coach = coach_for(game, level)
    match = Match.from_record(game, record, records.save_file(file))
    if not match.actions:
        raise TabletopError(EMPTY)
    show = not as_json and sys.stderr.isatty()

    def progress(done: int, total: int) -> None:
        if show:
            sys.stderr.write("\r" + translate(PROGRESS.format(done=done, total=total)))
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
    said = HEADER.format(game=game.info.name, count=len(entries), method=method)
    typer.echo(translate(said))
    for entry in entries:
        typer.echo(entry_text(entry))
    for player, counts in totals.items():
        accuracy = counts["accuracy"]
        typer.echo(
            translate(
                PLAYER_LINE.format(
                    player=player,
                    accuracy=NO_ACCURACY if accuracy is None else formats.percent(accuracy),
                    sound=counts["best"] + counts["good"],
                    free=counts["actions"] - counts["forced"],
                    inaccuracy=counts["inaccuracy"],
                    mistake=counts["mistake"],
                    blunder=counts["blunder"],
                )
            )
        )


def percent(chance: float) -> str:
    """A win chance in the reader's way: ``74%``, Czech ``74 %``."""
    return formats.percent(round(100 * chance))


def entry_text(entry: Reviewed) -> str:
    """An action's line, and for anything worse than good the better action and why."""
    lines = [
        translate(
            ENTRY.format(
                number=f"{entry.number:>3}",
                player=entry.player,
                action=f"{entry.action:<14}",
                verdict=f"{translate(VERDICTS.get(entry.verdict, entry.verdict)):<10}",
                before=f"{percent(entry.before):>4}",
                after=f"{percent(entry.after):>4}",
                mark=EXACT_MARK if entry.exact else "",
            )
        )
    ]
    if entry.verdict not in ("best", "good"):
        if entry.why:
            lines.append(REASON.format(why=translate(entry.why)))
        why = f": {translate(entry.best_why)}" if entry.best_why else ""
        lines.append(translate(BETTER.format(best=entry.best, why=why)))
    return "\n".join(lines)

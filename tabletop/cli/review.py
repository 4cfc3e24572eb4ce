"""``tabletop review FILE [--level L] [--as SEAT|spectator] [--json]``: every action of a
saved game judged by the coach (:mod:`tabletop.coach`) from the view its player had when
acting, as far as the reader may see it (:mod:`tabletop.coach.review`): by default the
person who saved the game (the one seat the computer did not hold), else a spectator."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from tabletop.cli.language import speak
from tabletop.cli.options import JsonOpt, LangOpt
from tabletop.core.i18n import formats
from tabletop.core.i18n.text import Domain, translate, translated_json

if TYPE_CHECKING:
    from tabletop.coach.review import Reviewed

LEVEL_HELP = "The coach's strength: level 1-5 (default 5, the strongest; Quarto's 5 is exact)."
AS_HELP = (
    "Read the review as this seat (1, 2, ...) or as a spectator ('spectator'): in a game "
    "with hidden cards only the reader's own actions are judged. Default: the player who "
    "saved the game (the one seat not held by the computer), else a spectator."
)
SPECTATOR = "spectator"

_ = Domain("tabletop")

# Every sentence a person reads, in one place (for the catalogues).
HEADER = _("{game} review, {count} actions, by {method}")
# (the columns are padded before they are filled in: a translation keeps them aligned)
ENTRY = _("{number}. player {player}: {action} {verdict} {before} → {after}{mark}")
EXACT_MARK = _(" (exact)")
ESTIMATE_MARK = _(" (estimate, ±{margin})")
BETTER = _("       best was {best}{why}")
REASON = "       {why}"
PLAYER_LINE = _(
    "player {player}: accuracy {accuracy} ({sound} of {free} best or good); "
    "inaccuracies {inaccuracy}, mistakes {mistake}, blunders {blunder}"
)
NO_ACCURACY = _("n/a")
PROGRESS = _("reviewing action {done} of {total}")
EMPTY = _("the saved game has no actions to review")
READER_SEAT = _("read as player {player}")
READER_SPECTATOR = _("read as a spectator")
UNSEEN_ENTRY = _(
    "{number}. player {player}: {action} (not judged: played from what you could not see)"
)
FORCED_ENTRY = _("{number}. player {player}: {action} forced (the only legal action)")
BAD_READER = _("--as {given}: give a seat 1-{players} or 'spectator'")
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
    reader_as: Annotated[str | None, typer.Option("--as", help=AS_HELP)] = None,
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
    reader = reader_of(reader_as, record.players, record.seats)
    show = not as_json and sys.stderr.isatty()

    def progress(done: int, total: int) -> None:
        if show:
            sys.stderr.write("\r" + translate(PROGRESS.format(done=done, total=total)))
            sys.stderr.flush()

    entries = review_match(match, coach, progress=progress, reader=reader)
    if show:
        sys.stderr.write("\n")
    totals = summary(entries, match.players)
    if as_json:
        data = {
            "game": game.info.id,
            "players": match.players,
            "reader": reader,
            "actions": [e.json() for e in entries],
            "summary": totals,
        }
        typer.echo(json.dumps(translated_json(data), ensure_ascii=False))
        return
    method = getattr(coach, "method", f"level {level}")
    said = HEADER.format(game=game.info.name, count=len(entries), method=method)
    read = READER_SPECTATOR if reader is None else READER_SEAT.format(player=reader)
    typer.echo(f"{translate(said)} ({translate(read)})")
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


def reader_of(given: str | None, players: int, seats: dict[str, str]) -> int | None:
    """The seat the review is read as (None: a spectator): ``--as`` when given (a seat
    1-``players`` or ``spectator``), else the one seat the computer did not hold in the
    save (``seats``: the computer's seats), else a spectator. UsageError otherwise."""
    from tabletop.core.errors import UsageError
    from tabletop.core.numbers import quote

    if given is None:
        people = [n for n in range(1, players + 1) if str(n) not in seats]
        return people[0] if len(people) == 1 else None
    word = given.strip().lower()
    if word == SPECTATOR:
        return None
    if word.isdigit() and 1 <= int(word) <= players:
        return int(word)
    raise UsageError(BAD_READER.format(given=quote(given), players=players))


def estimate_mark(margin: float) -> str:
    """`` (estimate, ±12%)``: how sure an estimated verdict is (its 95% margin)."""
    return ESTIMATE_MARK.format(margin=percent(min(margin, 1.0)))


def percent(chance: float) -> str:
    """A win chance in the reader's way: ``74%``, Czech ``74 %``."""
    return formats.percent(round(100 * chance))


def entry_text(entry: Reviewed) -> str:
    """An action's line, and for anything worse than good the better action and why
    (the actions in the reader's words)."""
    words = entry.said or entry.action
    if not entry.judged:
        said = UNSEEN_ENTRY.format(
            number=f"{entry.number:>3}", player=entry.player, action=translate(entry.action)
        )
        return translate(said)
    if entry.forced:  # no choice: no values to compare, nothing to learn
        said = FORCED_ENTRY.format(
            number=f"{entry.number:>3}", player=entry.player, action=translate(words)
        )
        return translate(said)
    lines = [
        translate(
            ENTRY.format(
                number=f"{entry.number:>3}",
                player=entry.player,
                action=f"{translate(words):<14}",
                verdict=f"{translate(VERDICTS.get(entry.verdict, entry.verdict)):<10}",
                before=f"{percent(entry.before):>4}",
                after=f"{percent(entry.after):>4}",
                mark=EXACT_MARK if entry.exact else estimate_mark(entry.margin),
            )
        )
    ]
    if entry.verdict not in ("best", "good"):
        if entry.why:
            lines.append(REASON.format(why=translate(entry.why)))
        why = f": {translate(entry.best_why)}" if entry.best_why else ""
        best = translate(entry.best_said or entry.best)
        lines.append(translate(BETTER.format(best=best, why=why)))
    return "\n".join(lines)

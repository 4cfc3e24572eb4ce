"""``tabletop run``: apply actions read from a file or a pipe and print the result."""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Annotated

import typer

from tabletop.cli.language import speak
from tabletop.cli.options import FixedSeedOpt, GameArg, LangOpt, OptionsOpt, PlayersOpt
from tabletop.core import reading
from tabletop.core.errors import ActionError, InputError, UsageError
from tabletop.core.i18n.text import Domain, and_list, message_of, translate
from tabletop.core.match import Match
from tabletop.core.numbers import quote
from tabletop.core.presentation import presentation_of
from tabletop.game import JSON

_ = Domain("tabletop")


def run(
    game: GameArg,
    players: PlayersOpt = None,
    option: OptionsOpt = None,
    seed: FixedSeedOpt = 0,
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
    lang: LangOpt = None,
) -> None:
    """Apply actions non-interactively and print the result (texts in English unless
    --lang says otherwise: scripts read them)."""
    speak(lang, {})
    from tabletop.core.setup import new_match, resolve

    match = new_match(resolve(game), players, option or [], seed, start)
    refused = run_actions(match, actions, as_json, reveal, trace)
    summary = localised(match.summary(reveal))
    if as_json:
        if refused is not None:
            summary["error"] = translate(message_of(refused))
        emit(summary)
    else:
        print_summary(match, summary)
    if refused is not None:
        raise refused  # the error boundary's one line, exit status 1


COMMENT = re.compile(r"(^|\s)#(\s|$)")


def strip_comment(line: str) -> str:
    """``line`` without its comment: ``#`` followed by a space or the end of the line.

    ``#2`` is not a comment (Čtverák's hand-position shortcut, for one).
    """
    if line.lstrip().startswith("#"):
        return ""
    found = COMMENT.search(line)
    return (line[: found.start()] if found else line).strip()


def action_lines(source: IO[bytes], what: str = "actions") -> Iterator[str]:
    """Actions, one a line; blank lines and comments are skipped. Lazy, for pipes; bounded
    (:func:`tabletop.core.reading.lines`: line length, UTF-8, no control characters, size)."""
    for raw in reading.lines(source, what, InputError):
        line = strip_comment(raw)
        if line:
            yield line


def open_actions(spec: str) -> IO[bytes]:
    """``-`` is standard input; anything else a file (not a folder)."""
    if spec == "-":
        return sys.stdin.buffer
    path = Path(spec)
    if path.is_dir():
        raise UsageError(
            _("actions file {file} is a folder; give a file, or - for stdin", file=quote(spec))
        )
    try:
        return path.open("rb")
    except FileNotFoundError:
        raise UsageError(_("no such actions file: {file}", file=quote(spec))) from None
    except OSError as exc:
        raise UsageError(
            _("cannot read actions file {file}: {reason}", file=quote(spec), reason=exc.strerror)
        ) from None


def emit(data: dict[str, object]) -> None:
    """One JSON object on one line, flushed (so a program on a pipe sees it at once)."""
    sys.stdout.write(json.dumps(data, ensure_ascii=False) + "\n")
    sys.stdout.flush()


def run_actions(
    match: Match, actions: str | None, as_json: bool, reveal: bool, trace: bool
) -> ActionError | None:
    """Play the actions; returns the refusal that stopped them, if any (after printing)."""
    if actions is None:
        return None
    source = open_actions(actions)
    what = "standard input" if actions == "-" else f"actions file {quote(actions)}"
    try:
        for line in action_lines(source, what):
            try:
                match.play(line)
            except ActionError as exc:
                return exc
            if trace:
                step = localised(match.summary(reveal))
                step["action"] = match.texts[-1]
                step["number"] = len(match.actions)
                emit(step)
    finally:
        if source is not sys.stdin.buffer:
            source.close()
    return None


def localised(summary: JSON) -> JSON:
    """The summary with its prose (``reason``) in the command's language."""
    if "reason" in summary:
        summary["reason"] = translate(summary["reason"])
    return summary


def print_summary(match: Match, summary: JSON) -> None:
    """The human form of ``tabletop run``'s result: the board and the status."""
    from rich.console import Console

    console = Console(highlight=False)
    game = match.game
    console.print(presentation_of(game).render(summary["view"], summary["to_act"]))
    if summary["status"] == "over":
        winners = summary["winners"]
        from tabletop.core.match import player_name

        who = (
            and_list([translate(player_name(w)) for w in winners])
            if winners
            else translate(_("nobody (a draw)"))
        )
        said = _("over: {players} won. {reason}", players=who, reason=summary.get("reason", ""))
        console.print(translate(said).rstrip())
    else:
        said = _.plural(
            "ongoing: player {player} to act: {prompt}; {n} legal action",
            "ongoing: player {player} to act: {prompt}; {n} legal actions",
            len(summary["legal"]),
            player=summary["to_act"],
            prompt=game.prompt(match.state),
        )
        console.print(translate(said))

"""``tabletop analyse``: check every word, play with a progress bar, print rich tables (the
analysis itself is :mod:`tabletop.analysis`, imported only when the command runs)."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any, TextIO

import typer

from tabletop.cli.language import speak
from tabletop.cli.options import (
    AddressOpt,
    AgentsOpt,
    BackendOpt,
    ExportOpt,
    GameArg,
    GamesOpt,
    JobsOpt,
    LangOpt,
    OneJsonOpt,
    ReportOpt,
    ResumeOpt,
    RunSeedOpt,
    SecondsPerTurnOpt,
)
from tabletop.core import selfplay
from tabletop.core.errors import UsageError
from tabletop.core.i18n.text import Domain, Msg, translate

_ = Domain("tabletop")

SECONDS_PER_TURN = selfplay.SECONDS_PER_TURN


def analyse(
    game: GameArg,
    players: Annotated[
        str | None, typer.Option("--players", "-p", help="Player counts to sweep, e.g. 2,3,4.")
    ] = None,
    option: Annotated[
        list[str] | None,
        typer.Option("--option", "-o", help="Option values to sweep, KEY=A,B (repeatable)."),
    ] = None,
    agents: AgentsOpt = selfplay.ANALYSE_AGENTS,
    games: GamesOpt = selfplay.ANALYSE_GAMES,
    seed: RunSeedOpt = selfplay.SEED,
    jobs: JobsOpt = selfplay.JOBS,
    backend: BackendOpt = selfplay.BACKEND,
    address: AddressOpt = None,
    as_json: OneJsonOpt = False,
    report: ReportOpt = None,
    export: ExportOpt = None,
    seconds_per_turn: SecondsPerTurnOpt = SECONDS_PER_TURN,
    resume: ResumeOpt = None,
    lang: LangOpt = None,
) -> None:
    """Balance of a game by self-play: seat advantage, draws, length, skill; a sweep."""
    speak(lang)
    analyse_command(
        game,
        players,
        option or [],
        agents,
        games,
        seed,
        jobs,
        backend,
        address,
        as_json,
        report,
        export,
        seconds_per_turn,
        resume,
    )


def check_outputs(report: Path | None, export: Path | None, seconds_per_turn: float) -> None:
    """The report's and export's files and the turn time, checked before any game."""
    from tabletop.analysis.export import check_export

    if not 0 < seconds_per_turn <= 3600:
        raise UsageError(
            _(
                "--seconds-per-turn must be above 0 and at most 3600, not {seconds}",
                seconds=format(seconds_per_turn, "g"),
            )
        )
    if report is not None:
        from tabletop.analysis.report import check_matplotlib

        check_matplotlib()
        if not report.parent.is_dir():
            raise UsageError(
                _(
                    "--report {report}: no such folder {folder}",
                    report=str(report),
                    folder=str(report.parent),
                )
            )
    check_export(export)


def analyse_command(
    game: str,
    players: str | None,
    options: Sequence[str],
    agents: str,
    games: int,
    seed: int,
    jobs: int,
    backend: str,
    address: str | None,
    as_json: bool,
    report: Path | None,
    export: Path | None = None,
    seconds_per_turn: float = SECONDS_PER_TURN,
    resume: Path | None = None,
) -> None:
    """Check everything first (nothing is played on bad input), then play and print. A
    stopped run prints and writes what it finished, marked partial, and keeps its games
    for ``--resume``."""
    from tabletop.analysis import text
    from tabletop.analysis.backends import check_backend
    from tabletop.analysis.run import summarise
    from tabletop.analysis.sweep import make_plan

    plan = make_plan(game, players, options, agents, games, seed)
    check_backend(backend, jobs, address)  # Ray installed, the cluster reachable
    check_outputs(report, export, seconds_per_turn)
    runs, stop, kept = play_stoppable("analyse", plan.game, [plan], jobs, backend, address, resume)
    played = runs[0]
    if played.finished == 0:  # stopped before any game: nothing to say but where to resume
        assert stop is not None
        done = {"finished": 0, "planned": len(played.stats)}
        print(translate(stopped_line(done, kept)), file=sys.stderr)
        raise stop
    data = summarise(played, jobs, backend, seconds_per_turn)
    notes: list[str] = []
    if stop is not None:
        notes.append(stopped_line(data, kept))
    if report is not None:
        from tabletop.analysis.report import write_report

        write_report(data, report)
        notes.append(text.REPORT_WRITTEN.format(path=report))
    if export is not None:
        from tabletop.analysis.export import game_rows, write_rows

        rows = game_rows(played, seconds_per_turn=seconds_per_turn)
        write_rows(marked(rows, stop is not None), export)
        notes.append(text.EXPORT_WRITTEN.format(rows=len(rows), path=export))
    if as_json:
        print(json.dumps(data, ensure_ascii=False))
        if stop is not None:
            print(translate(notes[0]), file=sys.stderr)
    else:
        print_analysis(data)
        for note in notes:
            print(translate(note))
    if stop is not None:
        raise stop


def play_stoppable(
    command: str,
    what: str,
    plans: Sequence[Any],
    jobs: int,
    backend: str,
    address: str | None,
    resume: Path | None,
) -> tuple[list[Any], Any, Path | None]:
    """Play the plans with progress, continuing ``resume`` when it exists. Stopped
    (Ctrl-C, SIGTERM): the games finished so far, the :class:`Stopped` to raise once what
    was done is written, and the resume file that now keeps them (None if it could not
    be written: then the reason is on stderr)."""
    from tabletop.analysis import resume as keep
    from tabletop.analysis.backends import Stopped
    from tabletop.analysis.run import costs, play_all, total_games
    from tabletop.core.errors import TabletopError
    from tabletop.core.i18n.text import message_of, translate

    done = keep.load(resume, command, plans) if resume is not None and resume.exists() else None
    total = sum(total_games(plan) for plan in plans)
    try:
        with progress(what, total, todo=costs(plans, done), already=len(done or {})) as advance:
            return play_all(plans, jobs, backend, address, advance, done), None, None
    except Stopped as stop:
        path = resume if resume is not None else keep.default_path(command, plans)
        try:
            keep.save(path, command, plans, stop.done)
        except TabletopError as exc:
            print(translate(message_of(exc)), file=sys.stderr)
            return stop.played, stop, None
        return stop.played, stop, path


def marked(rows: list[dict[str, Any]], stopped: bool) -> list[dict[str, Any]]:
    """The export's rows; a stopped run's each say ``"partial": true``."""
    return [{**row, "partial": True} for row in rows] if stopped else rows


def stopped_line(data: dict[str, Any], kept: Path | None) -> str:
    """What a stopped run did and how to go on."""
    from tabletop.analysis import text

    said = text.STOPPED.format(finished=data["finished"], planned=data["planned"])
    if kept is None:
        return said
    return Msg.joined(" ", [said, text.STOPPED_RESUME.format(path=str(kept))])


@contextmanager
def progress(
    what: str,
    total: int,
    stream: TextIO | None = None,
    todo: dict[Any, int] | None = None,
    already: int = 0,
) -> Iterator[Callable[[Any], None]]:
    """A callback that advances the progress of ``total`` games (``already`` of them
    played before a resume): a transient rich bar when ``stream`` (default stderr) is a
    terminal, else a line now and then with an ETA that weighs each kind of game by its
    measured cost (``todo``: :class:`tabletop.analysis.progress.Lines`)."""
    from tabletop.analysis import progress as lines_module

    out = stream if stream is not None else sys.stderr
    if out.isatty():
        from rich.console import Console
        from rich.progress import Progress

        with Progress(console=Console(file=out), transient=True) as bar:
            from tabletop.analysis.wording import PLAYING

            task = bar.add_task(
                translate(PLAYING.format(what=what)), total=total, completed=already
            )
            yield lambda _: bar.advance(task)
        return
    every = lines_module.every()
    lines = lines_module.Lines(what, total - already, out, every, todo=todo)
    yield lines
    lines.finish()


def output_console() -> Any:
    """A rich console for stdout that never cuts a table: full width when piped."""
    from rich.console import Console

    console = Console()
    return console if console.is_terminal else Console(width=PIPED_WIDTH)


PIPED_WIDTH = 400  # columns of the console when stdout is not a terminal


def _pct(value: float) -> str:
    from tabletop.analysis.wording import pct

    return pct(value)


def _seats(row: dict[str, Any]) -> str:
    """Seat win rates in percent, seat 1 first, and the widest half 95% interval; a seat
    whose interval is clear of a fair share (an edge) bold with a ``*``, the others dim."""
    from tabletop.analysis.findings import edges

    clear = edges(row)
    rates = " ".join(
        f"[bold]{rate * 100:.0f}*[/bold]" if seat in clear else f"[dim]{rate * 100:.0f}[/dim]"
        for seat, rate in enumerate(row["seat_win_rate"], start=1)
    )
    half = max((high - low) / 2 for low, high in row["seat_win_rate_ci95"])
    return f"{rates} ±{half * 100:.0f}"


def _maybe(value: float | None, digits: int = 2) -> str:
    from tabletop.analysis.wording import num

    return "-" if value is None else num(value, digits)


def _points(row: dict[str, Any]) -> list[str]:
    from tabletop.analysis.wording import num

    points = row.get("points")
    if not points:
        return ["-", "-"]
    seats = " ".join(num(p, 1) for p in points["seat_points"])
    low, high = points["score_margin"]["ci95"]
    margin = points["score_margin"]["mean"]
    return [seats, f"{num(margin, 1)} [{num(low, 1)}-{num(high, 1)}]"]


def print_analysis(data: dict[str, Any]) -> None:
    """The analysis as rich tables (``--json`` has every number)."""
    from rich import box
    from rich.markup import escape
    from rich.table import Table

    from tabletop.analysis import wording as w
    from tabletop.analysis.findings import (
        completion_level_changes,
        seat_level_changes,
        seat_warnings,
    )
    from tabletop.analysis.run import label

    say, num = w.say, w.num
    keys = data["swept"]
    console = output_console()
    console.print(escape(say(w.games_a_row(data["game"], data["games"], data["seed"]))))
    names = data.get("agents", {})
    listed = "; ".join(f"{lv} = {say(names.get(lv, lv))}" for lv in data["levels"])
    console.print(escape(say(w.LEVELS.format(names=listed))))
    evaluated = any(row["lead_changes"] is not None for row in data["configurations"])
    scored = any(row.get("points") for row in data["configurations"])
    columns = ["lvl", "seats won %", "bal", "draw", "done", "turns", "min", "acts", "bf"]
    columns += ["lead", "dec", "drama"] if evaluated else []
    columns += ["points", "margin"] if scored else []
    rows = data["configurations"]
    for start in range(0, len(rows), len(data["levels"])):
        group = rows[start : start + len(data["levels"])]
        table = Table(
            title=label(group[0], keys), box=box.SIMPLE_HEAD, title_justify="left", pad_edge=False
        )
        for column in columns:
            table.add_column(escape(say(w.COLUMNS[column])), justify="right", no_wrap=True)
        for row in group:
            actions, turns = row["length_actions"], row["length_turns"]
            evaluation = [
                _maybe(row["lead_changes"], 1),
                _maybe(row["decisiveness"]),
                _maybe(row.get("drama"), 3),
            ]
            table.add_row(
                row["level"],
                _seats(row),
                num(row["balance"], 2),
                _pct(row["draw_rate"]),
                _pct(row["completion_rate"]),
                num(turns["mean"]),
                num(row["length_minutes"]["mean"]),
                f"{num(actions['mean'])}±{num(actions['sd'])}",
                num(row["branching"], 1),
                *(evaluation if evaluated else []),
                *(_points(row) if scored else []),
            )
        console.print(table)
    legend = w.LEGEND.format(seconds=w.short(data.get("seconds_per_turn", SECONDS_PER_TURN)))
    legend = say(legend) + (say(w.EVALUATED) if evaluated else "")
    console.print(escape(legend + (say(w.SCORED) if scored else "")))
    if data["skill"]:
        skill = Table(title=escape(say(w.SKILL_TITLE)), box=box.SIMPLE_HEAD)
        for i, column in enumerate(w.SKILL_COLUMNS):
            skill.add_column(escape(say(column)), justify="right" if i else "left")
        for row in data["skill"]:
            low, high = row["higher_score_ci95"]
            unsure = "" if row["significant"] else f" ({say(w.NOT_SIGNIFICANT)})"
            skill.add_row(
                label(row, keys),
                escape(say(w.versus(row["higher"], row["lower"]))),
                _pct(row["higher_win_rate"]),
                f"{_pct(row['higher_score'])} {_pct(low)}-{_pct(high)}",
                _pct(row["baseline"]),
                escape(say(w.GAP.format(gap=f"{row['gap'] * 100:+.0f}")) + unsure),
                _pct(row["draw_rate"]),
            )
        console.print(skill)
    for line in seat_level_changes(data) + completion_level_changes(data) + seat_warnings(data):
        console.print(escape(translate(line)))
    pace = w.speed(w.short(data["seconds"]), w.short(data["games_per_second"]), data["jobs"],
                   data["backend"])  # fmt: skip
    console.print(escape(say(pace)))

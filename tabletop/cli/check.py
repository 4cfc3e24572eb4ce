"""``tabletop check``: the conformance kit's report drawn as a table (and, with
``--record``, the golden games written)."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console
from rich.table import Table
from rich.text import Text

from tabletop.core import options as opts
from tabletop.core.registry import registry
from tabletop.kit.conformance import check_game
from tabletop.kit.golden import record_golden
from tabletop.kit.report import failure_lines

TITLE = (
    "{name}: {games} games, {configs} configurations, seed {seed}, {seconds:.1f}s "
    "({rate:.1f} games/s)"
)


def check_command(
    game: str,
    games: int | None,
    seed: int,
    record: bool,
    players: int | None,
    options: Sequence[str] = (),
    games_per_config: int | None = None,
) -> int:
    """The body of ``tabletop check``: the report with rich; with ``record`` (and all checks
    passing), golden playthroughs written to ``tests/golden/``. ``games`` is the number of
    games in all (None: the kit's default), ``games_per_config`` that many in each
    configuration instead. Returns the exit status."""
    console = Console(highlight=False)
    resolved = registry().get(game)
    chosen = opts.parse_pairs(options) if options else None
    report = check_game(
        resolved,
        games=games,
        seed=seed,
        players=players,
        options=chosen,
        games_per_config=games_per_config,
    )
    table = Table(
        title=TITLE.format(
            name=resolved.info.name,
            games=report.games,
            configs=len(report.configs),
            seed=seed,
            seconds=report.seconds,
            rate=report.games / report.seconds if report.seconds else 0.0,
        ),
        title_justify="left",
    )
    for column in ("check", "result", "runs", "what it checks"):
        table.add_column(column, justify="right" if column == "runs" else "left")
    for stats in report.checks.values():
        verdict = (
            Text("ok", style="green")
            if stats.failures == 0
            else Text(f"FAILED {stats.failures}×", style="red bold")
        )
        table.add_row(stats.name, verdict, str(stats.runs), stats.description)
    console.print(table)
    console.print(
        Text(f"configurations ({report.how}): " + "; ".join(report.configs)), soft_wrap=True
    )
    for label in report.refused:
        console.print(Text(f"refused by the game: {label}", style="yellow"), soft_wrap=True)
    for failure in report.failures():
        lines = failure_lines(failure)
        console.print(Text(lines[0], style="red bold"), soft_wrap=True)
        for line in lines[1:]:
            console.print(Text(line), soft_wrap=True)
    if not report.ok:
        return 1
    if record:
        for path in record_golden(resolved, seed=seed):
            console.print(Text(f"wrote {path}", style="green"))
    return 0

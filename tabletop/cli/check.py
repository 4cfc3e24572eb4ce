"""``tabletop check``: the conformance kit's report drawn as a table (and, with
``--record``, the golden games written)."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console
from rich.table import Table
from rich.text import Text

from tabletop.cli.language import own_language, speak
from tabletop.core import options as opts
from tabletop.core.i18n.formats import Count
from tabletop.core.i18n.text import Domain, Msg, translate
from tabletop.core.registry import registry
from tabletop.kit.conformance import check_game
from tabletop.kit.golden import record_golden
from tabletop.kit.report import failure_lines, verdict_text

_ = Domain("tabletop")
_n = _.plural

COLUMNS = (_("check"), _("result"), _("runs"), _("what it checks"))


@own_language
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
    configuration instead. Returns the exit status. It speaks the environment's language
    (``TABLETOP_LANG``, the locale); check names stay the machine keys."""
    speak(None)
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
    rate = report.games / report.seconds if report.seconds else 0.0
    title = _(
        "{name}: {games}, {configs}, seed {seed}, {seconds}s ({rate} games/s)",
        name=resolved.info.name,
        games=_n("{n} game", "{n} games", report.games),
        configs=_n("{n} configuration", "{n} configurations", len(report.configs)),
        seed=seed,
        seconds=Count(report.seconds, 1, grouped=False),
        rate=Count(rate, 1, grouped=False),
    )
    table = Table(title=translate(title), title_justify="left")
    for column in COLUMNS:
        table.add_column(translate(column), justify="right" if column == "runs" else "left")
    for stats in report.checks.values():
        style = "green" if stats.failures == 0 else "red bold"
        verdict = Text(translate(verdict_text(stats.failures)), style=style)
        table.add_row(stats.name, verdict, str(stats.runs), translate(stats.description))
    console.print(table)
    said = _(
        "configurations ({how}): {configs}",
        how=report.how,
        configs=Msg.joined("; ", report.configs),
    )
    console.print(Text(translate(said)), soft_wrap=True)
    for label in report.refused:
        refused = _("refused by the game: {label}", label=label)
        console.print(Text(translate(refused), style="yellow"), soft_wrap=True)
    for failure in report.failures():
        lines = [translate(line) for line in failure_lines(failure)]
        console.print(Text(lines[0], style="red bold"), soft_wrap=True)
        for line in lines[1:]:
            console.print(Text(line), soft_wrap=True)
    if not report.ok:
        return 1
    if record:
        for path in record_golden(resolved, seed=seed):
            console.print(Text(translate(_("wrote {path}", path=str(path))), style="green"))
    return 0

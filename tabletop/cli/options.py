"""The typer declarations several commands share: game, players, options, seed, backend,
and those of the self-play commands (``analyse``, ``compare``)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from tabletop.cli import parsers
from tabletop.core import flags

GameArg = Annotated[str, typer.Argument(help="Game id, e.g. quarto.")]
PlayersOpt = Annotated[
    int | None,
    typer.Option("--players", "-p", help="Number of players.", parser=parsers.players),
]
OptionsOpt = Annotated[
    list[str] | None, typer.Option("--option", "-o", help="Game option KEY=VALUE (repeatable).")
]
SEED_HELP = f"Seed for shuffles and lots, 0..{flags.SEED_MAX}."
SeedOpt = Annotated[int | None, typer.Option("--seed", help=SEED_HELP, parser=parsers.seed)]
FixedSeedOpt = Annotated[int, typer.Option("--seed", help=SEED_HELP, parser=parsers.seed)]
BackendOpt = Annotated[
    str, typer.Option("--backend", help="Where games run: local (processes) or ray.")
]
AddressOpt = Annotated[
    str | None,
    typer.Option("--address", help="Ray cluster to join (default: start a local one)."),
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON.")]
LangOpt = Annotated[
    str | None,
    typer.Option(
        "--lang",
        help="Language: en, cs, pl, bg, ru (default: TABLETOP_LANG, then the locale, then en).",
    ),
]

# -- the self-play commands (analyse, compare); their defaults: tabletop.core.selfplay --
AgentsOpt = Annotated[
    str, typer.Option("--agents", help="Self-play levels, e.g. 1,2 (pairs: skill).")
]
RunSeedOpt = Annotated[int, typer.Option("--seed", help="Seed of the whole run.")]
JobsOpt = Annotated[int, typer.Option("--jobs", help="Processes or Ray tasks at once.")]
OneJsonOpt = Annotated[bool, typer.Option("--json", help="Print one JSON object.")]
ReportOpt = Annotated[Path | None, typer.Option("--report", help="Write an HTML report.")]
ExportOpt = Annotated[
    Path | None,
    typer.Option("--export", help="Write one row per game to FILE.jsonl or FILE.csv."),
]
SecondsPerTurnOpt = Annotated[
    float,
    typer.Option(
        "--seconds-per-turn",
        help="Seconds a person takes for a turn, for the length in minutes (an estimate).",
    ),
]

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
RunSeedOpt = Annotated[
    int,
    typer.Option(
        "--seed", help=f"Seed of the whole run, 0..{flags.SEED_MAX}.", parser=parsers.seed
    ),
]
JobsOpt = Annotated[
    int,
    typer.Option(
        "--jobs", help=f"Processes or Ray tasks at once, 1..{flags.JOBS_MAX}.", parser=parsers.jobs
    ),
]
GamesOpt = Annotated[
    int,
    typer.Option(
        "--games",
        help=f"Games per configuration and level (compare: paired games a level), "
        f"1..{flags.GAMES_MAX}.",
    ),
]  # the range: tabletop.analysis.sweep (the same message for the Python API)
ResumeOpt = Annotated[
    Path | None,
    typer.Option(
        "--resume",
        help="Keep this run's finished games in FILE when stopped, and continue from it.",
    ),
]
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

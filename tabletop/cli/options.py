"""The typer declarations several commands share: game, players, options, seed, backend."""

from __future__ import annotations

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

"""``tabletop test --mutate``: the suite a game's mutants are run against (the command's
body, with its progress bar and report, is :mod:`tabletop.cli.mutate`)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from tabletop.core.errors import UsageError
from tabletop.core.i18n.text import Domain
from tabletop.core.presentation import presentation_of
from tabletop.core.registry import Registry
from tabletop.kit.golden import GOLDEN_DIR
from tabletop.kit.mutation.runner import SuiteSpec
from tabletop.kit.scenarios import load_file

_ = Domain("tabletop")


def suite_spec(
    games: Registry,
    game: str | None,
    files: Sequence[Path],
    golden_dir: Path = GOLDEN_DIR,
    keyword: str | None = None,
    plugins: Sequence[str] = (),
) -> tuple[SuiteSpec, list[str]]:
    """The suite of one game (scenario files given, else the game's own) and the rule IDs
    its files declare in ``spec_rules``."""
    if not game:
        raise UsageError(_("--mutate needs --game ID: the game whose rules code to mutate"))
    chosen = games.get(game)
    gid = chosen.info.id
    scenario_files = list(files) or list(presentation_of(chosen).scenarios())
    known: list[str] = []
    for path in scenario_files:
        suite = load_file(path)
        if suite.game in (None, gid):
            known.extend(r for r in suite.spec_rules if r not in known)
    golden = sorted(golden_dir.glob(f"{gid}-*.json")) if golden_dir.is_dir() else []
    package = type(chosen).__module__.split(".")[0]
    spec = SuiteSpec(gid, package, tuple(scenario_files), tuple(golden), keyword, tuple(plugins))
    return spec, known

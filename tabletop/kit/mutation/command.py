"""``tabletop test --mutate``: the command's body (progress with rich, then the report)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from tabletop.core.errors import UsageError
from tabletop.core.registry import Registry, registry
from tabletop.kit.mutation.mutants import Mutant
from tabletop.kit.mutation.report import print_report, summary, tally
from tabletop.kit.mutation.runner import SuiteSpec, Verdict
from tabletop.kit.mutation.session import Results, mutate
from tabletop.kit.scenarios import load_file

GOLDEN_DIR = Path("tests/golden")


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
        raise UsageError("--mutate needs --game ID: the game whose rules code to mutate")
    chosen = games.get(game)
    gid = chosen.info.id
    scenario_files = list(files) or list(chosen.scenarios())
    known: list[str] = []
    for path in scenario_files:
        suite = load_file(path)
        if suite.game in (None, gid):
            known.extend(r for r in suite.spec_rules if r not in known)
    golden = sorted(golden_dir.glob(f"{gid}-*.json")) if golden_dir.is_dir() else []
    package = type(chosen).__module__.split(".")[0]
    spec = SuiteSpec(gid, package, tuple(scenario_files), tuple(golden), keyword, tuple(plugins))
    return spec, known


def mutate_command(
    files: Sequence[Path],
    game: str | None,
    keyword: str | None,
    modules: Sequence[str],
    max_mutants: int | None,
    seconds: float | None,
    as_json: bool = False,
    fail_under: float | None = None,
) -> int:
    """Run the mutation test and print the report; 1 when the score is below ``fail_under``."""
    if seconds is not None and seconds <= 0:
        raise UsageError(f"--seconds must be more than 0, not {seconds:g}")
    spec, known = suite_spec(registry(), game, files, keyword=keyword)
    console = Console(highlight=False, stderr=as_json)
    if as_json:
        results = mutate(spec, known, modules, max_mutants, seconds)
    else:
        results = _with_progress(spec, known, modules, max_mutants, seconds, console)
    if as_json:
        print(json.dumps(summary(results), ensure_ascii=False))
    else:
        print_report(results, console)
    score = tally(results.verdicts).score
    if fail_under is not None and (score is None or 100 * score < fail_under):
        return 1
    return 0


def _with_progress(
    spec: SuiteSpec,
    known: Sequence[str],
    modules: Sequence[str],
    max_mutants: int | None,
    seconds: float | None,
    console: Console,
) -> Results:
    columns = (
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("{task.fields[counts]}"),
    )
    with Progress(*columns, console=console, transient=True) as progress:
        task = progress.add_task(f"baseline run of {spec.game}'s suite", total=None, counts="")
        counts = {"killed": 0, "survived": 0}

        def planned(total: int) -> None:
            progress.update(task, total=total, description=f"mutating {spec.game}")

        def advance(mutant: Mutant, verdict: Verdict) -> None:
            counts["killed" if verdict.status in {"killed", "timeout"} else "survived"] += 1
            text = f"{counts['killed']} killed, {counts['survived']} survived  {mutant.short}"
            progress.update(task, advance=1, counts=text)

        return mutate(spec, known, modules, max_mutants, seconds, None, advance, planned)

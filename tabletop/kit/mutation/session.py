"""One mutation run: which modules, which mutants, the baseline, then each mutant's verdict.

:func:`mutate` is the whole of ``tabletop test --mutate`` without the printing; its
:class:`Results` hold every mutant with its verdict, for :mod:`tabletop.kit.mutation.report`.
"""

from __future__ import annotations

import ast
import importlib.util
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tabletop.core.errors import TabletopError, UsageError
from tabletop.core.i18n.text import Domain, Msg
from tabletop.core.numbers import quote
from tabletop.game import Game
from tabletop.kit.mutation.configs import CONFIG, change_of, config_mutants
from tabletop.kit.mutation.mutants import Mutant, module_mutants
from tabletop.kit.mutation.runner import Baseline, SuiteSpec, Verdict, Worker

_ = Domain("tabletop")

CONFIG_WORD = "configuration"  # --module configuration: only the configuration mutants
MIN_TIMEOUT = 5.0  # seconds a mutant may take at least, whatever the baseline
TIMEOUT_FACTOR = 5  # ... or this many times the unmutated run


@dataclass
class Results:
    """Every mutant tried (or not reached) and its verdict; what was left out and why."""

    game: str
    modules: list[str]
    sources: dict[str, str]
    baseline: Baseline
    verdicts: list[tuple[Mutant, Verdict]] = field(default_factory=list)
    total: int = 0  # mutants generated before --max-mutants
    not_run: int = 0  # left out by --seconds
    seconds: float = 0.0


def package_modules(package: str) -> dict[str, Path]:
    """Import name → source file of every Python module of ``package`` (and sub-packages)."""
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        raise TabletopError(
            _("cannot find the source of the game's package {package}", package=quote(package))
        )
    found: dict[str, Path] = {}
    for root in spec.submodule_search_locations:
        base = Path(root)
        for path in sorted(base.rglob("*.py")):
            parts = path.relative_to(base).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found[".".join((package, *parts))] = path
    return found


def function_bodies(text: str) -> list[tuple[int, int]]:
    """The body line ranges of every function of a module."""
    return [
        (node.body[0].lineno, node.end_lineno or node.lineno)
        for node in ast.walk(ast.parse(text))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
    ]


def reached(lines: set[int], body: tuple[int, int] | None) -> bool:
    """Whether a line of the function body ran (module-level code always runs)."""
    return body is None or any(body[0] <= line <= body[1] for line in lines)


def choose_modules(
    modules: dict[str, Path], wanted: Sequence[str], baseline: Baseline, package: str
) -> list[str]:
    """``--module`` names (short ``rules`` or full ``pkg.rules``), else every module whose
    functions the rule suite runs, except the plugin registration module."""
    if wanted:
        chosen = []
        for name in wanted:
            full = name if name in modules else f"{package}.{name}"
            if full not in modules:
                short = ", ".join(sorted(m.removeprefix(package + ".") for m in modules))
                raise UsageError(
                    _(
                        "no module {module} in {package}; its modules: {modules}",
                        module=quote(name),
                        package=package,
                        modules=short,
                    )
                )
            chosen.append(full)
        return chosen
    chosen = []
    for name, path in modules.items():
        if name.rsplit(".", 1)[-1] in {"plugin", "__main__"} or name == package:
            continue
        ran = baseline.lines.get(str(path), set())
        if any(reached(ran, body) for body in function_bodies(path.read_text("utf-8"))):
            chosen.append(name)
    return chosen


def spread(items: list[Mutant], limit: int | None) -> list[Mutant]:
    """At most ``limit`` items spread evenly over the list (all of them without a limit)."""
    if limit is None or len(items) <= limit:
        return items
    return [items[index * len(items) // limit] for index in range(limit)]


def mutate(
    spec: SuiteSpec,
    known_rules: Sequence[str] = (),
    modules: Sequence[str] = (),
    max_mutants: int | None = None,
    seconds: float | None = None,
    timeout: float | None = None,
    progress: Callable[[Mutant, Verdict], None] | None = None,
    planned: Callable[[int], None] | None = None,
    game: Game[Any, Any] | None = None,
) -> Results:
    """Mutate the game's rules modules one mutation at a time and run the suite on each;
    with ``game``, also its configuration (:mod:`tabletop.kit.mutation.configs`: player
    counts and options), unless ``modules`` are named without ``configuration``."""
    if max_mutants is not None and max_mutants < 1:
        raise UsageError(
            _("{flag} must be 1 or more, not {value}", flag="--max-mutants", value=max_mutants)
        )
    began = time.perf_counter()
    files = package_modules(spec.package)
    worker = Worker(spec)
    try:
        baseline = worker.baseline([str(p) for p in files.values()])
        if baseline.failures:
            raise TabletopError(
                _(
                    "the rule suite fails without any mutation ({failures}): "
                    "make `tabletop test` and the golden games pass first",
                    failures=Msg.joined("; ", baseline.failures[:3]),
                )
            )
        if baseline.cases + baseline.golden == 0:
            raise TabletopError(
                _(
                    "no scenario case and no golden game for {game}: nothing to measure",
                    game=spec.game,
                )
            )
        wanted = [m for m in modules if m != CONFIG_WORD]
        only_config = bool(modules) and not wanted
        chosen = [] if only_config else choose_modules(files, wanted, baseline, spec.package)
        sources = {name: files[name].read_text("utf-8") for name in chosen}
        every: list[Mutant] = []
        for name in chosen:
            every.extend(
                module_mutants(name, files[name], sources[name], known_rules, len(every) + 1)
            )
        configs: list[Mutant] = []
        if game is not None and (not modules or CONFIG_WORD in modules):
            configs = config_mutants(game, known_rules, len(every) + 1)
            chosen.append(CONFIG)
            sources[CONFIG] = ""
        # --max-mutants samples the code's mutants; the few configuration ones all run too
        todo = [*spread(every, max_mutants), *configs]
        every.extend(configs)
        results = Results(spec.game, chosen, sources, baseline, total=len(every))
        if planned:
            planned(len(todo))
        limit = timeout or max(MIN_TIMEOUT, TIMEOUT_FACTOR * baseline.seconds)
        for index, mutant in enumerate(todo):
            if seconds is not None and time.perf_counter() - began > seconds:
                results.not_run = len(todo) - index
                break
            ran = baseline.lines.get(str(mutant.path), set())
            if mutant.module == CONFIG:
                verdict = worker.run("", mutant.path, "", limit, change_of(mutant))
            elif not reached(ran, mutant.body_lines):
                verdict = Verdict("not reached")
            else:
                source = mutant.source(sources[mutant.module])
                verdict = worker.run(mutant.module, mutant.path, source, limit)
            results.verdicts.append((mutant, verdict))
            if progress:
                progress(mutant, verdict)
    finally:
        worker.stop()
    results.seconds = time.perf_counter() - began
    return results

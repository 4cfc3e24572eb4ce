"""Running the rule suite against mutants, in a worker process with a per-mutant timeout.

The worker (a ``spawn``-ed process, so a mutant never touches the caller's modules) loads
the scenario cases once. For each mutant it forgets every module of the game's package,
installs an import hook that serves the mutated source for the one mutated module, asks
the game's plugin to register the game again (a fresh game built from the mutated code,
with every module that imports the mutated one re-imported too), and runs the cases and
the golden games until one fails: the mutant is **killed** (by that case or game). A
mutant that makes the suite run past the timeout is **killed (timeout)**: the worker is
ended and a new one started. A mutant whose module fails to import is killed too (the
game cannot even load). No case failing: the mutant **survived**.

The first run (no mutant) traces which lines of the package run, so mutants in functions
the suite never calls are reported as **not reached** without being run.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
import multiprocessing
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from types import FrameType, ModuleType
from typing import Any

from tabletop.core.errors import TabletopError, one_line
from tabletop.core.i18n.text import Domain, Msg
from tabletop.core.registry import Registry
from tabletop.game import Game
from tabletop.kit.mutation.configs import ConfigChange, configured

_ = Domain("tabletop")


@dataclass(frozen=True)
class SuiteSpec:
    """What to run against each mutant: the game, its scenario files (cases of that game
    only, ``-k`` words), its golden game files, and extra plugin modules to register."""

    game: str
    package: str
    scenarios: tuple[Path, ...]
    golden: tuple[Path, ...]
    keyword: str | None = None
    plugins: tuple[str, ...] = ()


@dataclass(frozen=True)
class Verdict:
    """What became of one run: killed (by ``killer``), timeout, survived."""

    status: str  # killed, timeout, survived, not reached
    killer: str = ""
    rules: tuple[str, ...] = ()  # the rule IDs of every case that failed (a kill)
    seconds: float = 0.0


@dataclass
class Baseline:
    """The unmutated run: its time, what failed (nothing, for a usable suite) and the lines
    of the package that ran, per file."""

    seconds: float
    failures: list[str]
    lines: dict[str, set[int]] = field(default_factory=dict)
    cases: int = 0
    golden: int = 0


class _OneGame(Registry):
    """A registry holding one game (the mutated one)."""

    def __init__(self, game: Game[Any, Any]) -> None:
        self._games = {game.info.id: game}


class _Mutated(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Serves the mutated source of one module."""

    def __init__(self) -> None:
        self.name = ""
        self.path = ""
        self.source = ""

    def find_spec(self, fullname: str, path: Any, target: Any = None) -> Any:
        if fullname != self.name or not self.source:
            return None
        return importlib.util.spec_from_file_location(fullname, self.path, loader=self)

    def create_module(self, spec: Any) -> None:
        return None

    def exec_module(self, module: ModuleType) -> None:
        code = compile(self.source, self.path, "exec", dont_inherit=True)
        exec(code, module.__dict__)


def _forget(package: str) -> None:
    """Drop the package's Python modules from sys.modules (compiled extensions stay)."""
    for name in [n for n in sys.modules if n == package or n.startswith(package + ".")]:
        module = sys.modules[name]
        origin = getattr(module, "__file__", None) or ""
        if origin.endswith(".py") or not origin:
            del sys.modules[name]


class _Serving:
    """The worker's side: the suite loaded once, a fresh game per mutant."""

    def __init__(self, spec: SuiteSpec) -> None:
        from tabletop.core.plugins import plugin_manager
        from tabletop.kit.scenarios import keyword_filter, load_file

        self.spec = spec
        self.hook = _Mutated()
        sys.meta_path.insert(0, self.hook)
        extra: list[ModuleType | object] = [importlib.import_module(n) for n in spec.plugins]
        self.registrars: list[Any] = []
        for plugin in plugin_manager(extra).get_plugins():
            register = getattr(plugin, "tabletop_register_games", None)
            if register is not None and spec.game in self._ids(register):
                self.registrars.append(plugin)
        selected = keyword_filter(spec.keyword) if spec.keyword else (lambda words: True)
        self.cases = [
            case
            for path in spec.scenarios
            for case in load_file(path).cases
            if case.game == spec.game and selected(case.keywords())
        ]
        self.first: str = ""  # the last killer, tried first

    @staticmethod
    def _ids(register: Callable[..., None]) -> list[str]:
        found: list[Game[Any, Any]] = []
        try:
            register(register=found.append)
        except Exception:
            return []
        return [g.info.id for g in found]

    def game(self) -> Game[Any, Any]:
        """The game as the (possibly mutated) package defines it now."""
        _forget(self.spec.package)
        found: list[Game[Any, Any]] = []
        for plugin in self.registrars:
            name = getattr(plugin, "__name__", "")
            if isinstance(plugin, ModuleType) and name.startswith(self.spec.package + "."):
                plugin = importlib.import_module(name)
            plugin.tabletop_register_games(register=found.append)
        for game in found:
            if game.info.id == self.spec.game:
                return game
        raise TabletopError(
            _("no plugin registers the game {game} any more", game=repr(self.spec.game))
        )

    def run(
        self,
        module: str,
        path: str,
        source: str,
        stop_early: bool = True,
        config: ConfigChange | None = None,
    ) -> Verdict:
        """Every case against the game as the source (or ``config``) makes it; with
        ``stop_early`` the golden games only when no case failed."""
        from tabletop.kit.golden import replay_golden
        from tabletop.kit.scenarios import run_case

        self.hook.name, self.hook.path, self.hook.source = module, path, source
        began = time.perf_counter()
        try:
            game = self.game()
        except Exception as exc:
            return Verdict("killed", f"the game fails to load: {type(exc).__name__}: "
                           f"{one_line(str(exc))[:120]}")  # fmt: skip
        if config is not None:
            try:
                game = configured(game, config)
            except Exception as exc:
                return Verdict("killed", f"the configuration is refused: {type(exc).__name__}: "
                               f"{one_line(str(exc))[:120]}")  # fmt: skip
        games = _OneGame(game)
        order = sorted(self.cases, key=lambda c: c.name != self.first)
        failures: list[Verdict] = []
        for case in order:  # every case, so a kill is filed under all the cases that fail
            try:
                result = run_case(case, games)
                ok = result.ok
            except Exception:
                ok = False
            if not ok:
                if not failures:
                    self.first = case.name
                killed = _("case {name} ({file})", name=repr(case.name), file=case.path.name)
                failures.append(Verdict("killed", killed, tuple(case.rules)))
        if not failures or not stop_early:
            for golden in self.spec.golden:
                try:
                    differs = bool(replay_golden(golden, game))
                except Exception:
                    differs = True
                if differs:
                    failures.append(Verdict("killed", _("golden game {file}", file=golden.name)))
                    if stop_early:
                        break
        seconds = time.perf_counter() - began
        if failures:
            rules = tuple(dict.fromkeys(rule for f in failures for rule in f.rules))
            if stop_early and len(failures) > 1:
                killer = _(
                    "{first} and {count} more", first=failures[0].killer, count=len(failures) - 1
                )
            else:
                killer = Msg.joined("; ", (f.killer for f in failures))
            return Verdict("killed", killer, rules, seconds)
        return Verdict("survived", seconds=seconds)

    def baseline(self, files: Sequence[str]) -> Baseline:
        watched = set(files)
        lines: dict[str, set[int]] = {f: set() for f in files}

        def local(frame: FrameType, event: str, arg: Any) -> Any:
            if event == "line":
                lines[frame.f_code.co_filename].add(frame.f_lineno)
            return local

        def tracer(frame: FrameType, event: str, arg: Any) -> Any:
            return local if frame.f_code.co_filename in watched else None

        self.hook.source = ""
        sys.settrace(tracer)
        try:
            verdict = self.run("", "", "", stop_early=False)
        finally:
            sys.settrace(None)
        killer = verdict.killer
        if isinstance(killer, Msg) and killer.domain is None:  # a join: its parts, translatable
            failures = list(killer.params["parts"])
        else:
            failures = [k for k in killer.split("; ") if k] if killer else []
        return Baseline(verdict.seconds, failures, lines, len(self.cases), len(self.spec.golden))


def _serve(conn: Connection, spec: SuiteSpec) -> None:
    """The worker's loop: ("baseline", files) or ("run", module, path, source) → answer."""
    serving = _Serving(spec)
    conn.send("ready")  # the start-up is not counted in a mutant's time
    while True:
        try:
            message = conn.recv()
        except EOFError:
            return
        if message[0] == "baseline":
            conn.send(serving.baseline(message[1]))
        elif message[0] == "run":
            conn.send(serving.run(*message[1:]))
        elif message[0] == "config":
            conn.send(serving.run("", "", "", config=message[1]))
        else:
            return


class Worker:
    """The caller's side: sends mutants to a worker process, ends it on a timeout."""

    def __init__(self, spec: SuiteSpec) -> None:
        self.spec = spec
        self.process: Any = None
        self.conn: Connection | None = None

    def _start(self) -> Connection:
        if self.conn is not None:
            return self.conn
        context = multiprocessing.get_context("spawn")
        mine, theirs = context.Pipe()
        self.process = context.Process(target=_serve, args=(theirs, self.spec), daemon=True)
        self.process.start()
        theirs.close()
        self.conn = mine
        try:
            mine.recv()  # "ready": the start-up is not counted in a mutant's time
        except EOFError:
            self.stop()
            raise TabletopError(_("the worker process could not load the game")) from None
        return mine

    def stop(self) -> None:
        """End the worker process (if any)."""
        if self.process is not None:
            self.process.kill()
            self.process.join()
        if self.conn is not None:
            self.conn.close()
        self.process, self.conn = None, None

    def _ask(self, message: tuple[Any, ...], timeout: float | None) -> Any:
        conn = self._start()
        conn.send(message)
        try:
            if conn.poll(timeout):
                return conn.recv()
        except (EOFError, OSError):
            self.stop()
            return None
        self.stop()
        return TimeoutError()

    def baseline(self, files: Sequence[str]) -> Baseline:
        """Run the suite unmutated (first start of the worker: imports and loading)."""
        answer = self._ask(("baseline", list(files)), None)
        if not isinstance(answer, Baseline):
            raise TabletopError(_("the rule suite could not be run (the worker process died)"))
        return answer

    def run(
        self,
        module: str,
        path: Path,
        source: str,
        timeout: float,
        config: ConfigChange | None = None,
    ) -> Verdict:
        """The verdict on one mutated module source (or, with ``config``, on the game's
        unchanged code in a mutated configuration)."""
        began = time.perf_counter()
        message = ("config", config) if config else ("run", module, str(path), source)
        answer = self._ask(message, timeout)
        if isinstance(answer, Verdict):
            return answer
        seconds = time.perf_counter() - began
        if isinstance(answer, TimeoutError):
            return Verdict("timeout", f"no answer within {timeout:.1f}s", seconds=seconds)
        return Verdict("killed", "the worker process died", seconds=seconds)

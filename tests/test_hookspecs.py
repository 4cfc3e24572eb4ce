"""The hook specifications are the plugin manual: each is documented and each is tested.

Every hook of ``tabletop/hookspecs.py`` must have a docstring that explains its arguments
and shows an example (which is run here), and at least one test in this file that calls
it, registered with ``@covers(hook)``. A new hook without both fails
:func:`test_every_hook_is_documented` or :func:`test_every_hook_has_a_test`.
"""

from __future__ import annotations

import importlib
import inspect
import os
import re
import subprocess
import sys
import textwrap
import types
from collections.abc import Callable
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any, NamedTuple, TypeVar

import pluggy
import pytest
import typer
from pydantic import BaseModel, ConfigDict
from typer.testing import CliRunner

from tabletop import hookspecs
from tabletop.cli.app import with_plugins
from tabletop.core.errors import TabletopError, UsageError
from tabletop.core.plugins import plugin_manager
from tabletop.core.presentation import presentation_of
from tabletop.core.registry import Registry
from tabletop.game import JSON, Game, GameInfo, Outcome
from tabletop.hookspecs import hookimpl

F = TypeVar("F", bound=Callable[..., Any])
COVERED: dict[str, list[str]] = {}


def covers(hook: str) -> Callable[[F], F]:
    """Mark a test as one that calls ``hook`` through a plugin manager."""

    def mark(test: F) -> F:
        COVERED.setdefault(hook, []).append(test.__name__)
        return test

    return mark


def hook_specs() -> dict[str, Callable[..., Any]]:
    """Every hook specification of tabletop, by name."""
    marker = f"{hookspecs.PROJECT}_spec"
    return {
        name: value
        for name, value in vars(hookspecs).items()
        if callable(value) and hasattr(value, marker)
    }


# -- the manual --------------------------------------------------------------------------------
def test_the_module_docstring_says_how_a_plugin_is_declared() -> None:
    doc = hookspecs.__doc__ or ""
    assert "[project.entry-points.tabletop]" in doc and "@tabletop.hookimpl" in doc


@pytest.mark.parametrize("name", sorted(hook_specs()))
def test_every_hook_is_documented(name: str) -> None:
    spec = hook_specs()[name]
    doc = inspect.getdoc(spec) or ""
    assert len(doc) >= 200, f"{name}: the docstring is the manual; explain the hook"
    for parameter in inspect.signature(spec).parameters:
        assert f"``{parameter}" in doc, f"{name}: the docstring does not explain {parameter!r}"
    assert "Example::" in doc, f"{name}: the docstring needs an example"


def test_every_hook_has_a_test() -> None:
    specs = set(hook_specs())
    assert specs, "no hook specifications found"
    untested = sorted(specs - set(COVERED))
    assert untested == [], f"hooks with no test in tests/test_hookspecs.py: {untested}"
    unknown = sorted(set(COVERED) - specs)
    assert unknown == [], f"tests cover hooks that do not exist: {unknown}"


# -- a game to register --------------------------------------------------------------------------
class NoOptions(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class CState(NamedTuple):
    left: int


class Countdown(Game[CState, int]):
    """Take 1 or 2 from a counter; who takes the last one wins."""

    def __init__(self, game_id: str = "countdown") -> None:
        self.info = GameInfo(game_id, "Countdown", "1", 2, 2, NoOptions)

    def new(self, players: int, options: BaseModel, seed: int) -> CState:
        return CState(5)

    def to_act(self, state: CState) -> int | None:
        return None if not state.left else 1 + (5 - state.left) % 2

    def legal(self, state: CState) -> tuple[int, ...]:
        return tuple(n for n in (1, 2) if n <= state.left)

    def apply(self, state: CState, action: int) -> CState:
        return CState(state.left - action)

    def outcome(self, state: CState) -> Outcome | None:
        return None if state.left else Outcome((1,), "took the last one")

    def refusal(self, state: CState, action: int) -> str:
        return "C1: too many"

    def parse(self, state: CState, text: str) -> int:
        return int(text)

    def format(self, state: CState, action: int) -> str:
        return str(action)

    def view(self, state: CState, player: int | None) -> JSON:
        return {"left": state.left}

    def to_json(self, state: CState) -> JSON:
        return {"left": state.left}

    def from_json(self, data: JSON, players: int, options: BaseModel, seed: int) -> CState:
        return CState(data["left"])

    def rules_text(self) -> str:
        return "C1"


class Plugin:
    """A plugin object registering the games it is given."""

    def __init__(self, *games: Any) -> None:
        self.games = games

    @hookimpl
    def tabletop_register_games(self, register: Callable[[Any], None]) -> None:
        for game in self.games:
            register(game)


# -- tabletop_register_games ---------------------------------------------------------------------
@covers("tabletop_register_games")
def test_register_games_collects_every_game_a_plugin_registers() -> None:
    one, two = Countdown("countdown"), Countdown("countdown_two")
    pm = plugin_manager(extra=[Plugin(one, two)])
    collected: list[Any] = []
    pm.hook.tabletop_register_games(register=collected.append)
    assert one in collected and two in collected
    games = Registry(extra=[Plugin(one, two)])
    assert games.get("countdown") is one and games.get("COUNTDOWN_TWO") is two


@covers("tabletop_register_games")
def test_register_games_loads_the_installed_entry_points() -> None:
    names = {ep.name for ep in entry_points(group=hookspecs.PROJECT)}
    assert {"quarto", "quartino", "ctverak"} <= names
    pm = plugin_manager()
    collected: list[Any] = []
    pm.hook.tabletop_register_games(register=collected.append)
    assert {"quarto", "quartino", "ctverak"} <= {game.info.id for game in collected}


@covers("tabletop_register_games")
def test_a_plugin_can_be_switched_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TABLETOP_DISABLE_PLUGINS", "quartino, ctverak")
    ids = Registry().ids()
    assert "quarto" in ids and "quartino" not in ids and "ctverak" not in ids


@covers("tabletop_register_games")
def test_the_same_id_twice_is_an_error_naming_it() -> None:
    with pytest.raises(TabletopError, match="two plugins register a game with the id 'countdown'"):
        Registry(extra=[Plugin(Countdown()), Plugin(Countdown())])


@covers("tabletop_register_games")
def test_registering_something_else_than_a_game_is_an_error() -> None:
    with pytest.raises(TabletopError, match="registered 'countdown', which is not a tabletop Game"):
        Registry(extra=[Plugin("countdown")])


def test_a_misspelt_hook_fails_loudly() -> None:
    class Misspelt:
        @hookimpl
        def tabletop_register_game(self, register: Callable[[Any], None]) -> None:
            register(Countdown())

    with pytest.raises(TabletopError, match="unknown hook 'tabletop_register_game'"):
        Registry(extra=[Misspelt()])


def test_a_hook_with_a_wrong_argument_fails_at_registration() -> None:
    class WrongArgument:
        @hookimpl
        def tabletop_register_games(self, add: Callable[[Any], None]) -> None:
            add(Countdown())

    # An entry-point plugin gets a TabletopError ("a tabletop plugin failed to load");
    # one handed in directly gets pluggy's validation error, which names the argument.
    with pytest.raises((TabletopError, pluggy.PluginValidationError), match="'add'"):
        Registry(extra=[WrongArgument()])


@covers("tabletop_register_games")
def test_the_docstring_example_registers_a_game() -> None:
    doc = inspect.getdoc(hook_specs()["tabletop_register_games"]) or ""
    example = textwrap.dedent(doc.split("Example::", 1)[1]).strip()
    module = types.ModuleType("tabletop_example_plugin")
    module.__dict__.update({"hookimpl": hookimpl, "MyGame": lambda: Countdown("mygame")})
    exec(compile(example, "hookspecs example", "exec"), module.__dict__)
    assert Registry(extra=[module]).get("mygame").info.id == "mygame"


@covers("tabletop_register_games")
def test_registering_the_installed_games_imports_no_drawing_library() -> None:
    """The docstring's promise: the core loads every plugin to answer ``tabletop games``,
    so registering must stay cheap (no rich, no typer) for every installed game."""
    code = (
        "import sys\n"
        "from tabletop.core.registry import Registry\n"
        "ids = Registry().ids()\n"
        "heavy = sorted(m for m in ('rich', 'typer') if m in sys.modules)\n"
        "print(len(ids), heavy)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    count, heavy = re.fullmatch(r"(\d+) (\[.*\])\n", done.stdout).groups()  # type: ignore[union-attr]
    assert int(count) >= 3 and heavy == "[]"


# -- tabletop_register_commands ------------------------------------------------------------------
class Greeter:
    """A plugin with commands and no game; it counts how often it was asked."""

    def __init__(self) -> None:
        self.asked = 0

    @hookimpl
    def tabletop_register_commands(self, app: typer.Typer) -> None:
        self.asked += 1

        @app.command(help="Say hello.")
        def hello(name: str = "world") -> None:
            typer.echo(f"hello {name}")

        @app.command(help="Always refuses.")
        def refuse() -> None:
            raise UsageError("refused: nothing is allowed")

        @app.command("play", help="A plugin's play, which must not replace the built-in.")
        def fake_play() -> None:
            typer.echo("not the built-in play")


@covers("tabletop_register_commands")
def test_a_plugin_command_runs_and_is_listed_after_the_built_ins() -> None:
    cli = with_plugins([Greeter()])
    done = CliRunner().invoke(cli, ["hello", "--name", "Ada"])
    assert (done.exit_code, done.output) == (0, "hello Ada\n")
    listed = CliRunner().invoke(cli, ["--help"]).output
    assert listed.index("serve") < listed.index("hello") < listed.index("refuse")


@covers("tabletop_register_commands")
def test_a_plugin_command_is_behind_the_error_boundary() -> None:
    done = CliRunner().invoke(with_plugins([Greeter()]), ["refuse"])
    assert done.exit_code == 2
    assert done.stderr == "tabletop: refused: nothing is allowed\n"


@covers("tabletop_register_commands")
def test_a_plugin_cannot_take_a_built_in_name() -> None:
    done = CliRunner().invoke(with_plugins([Greeter()]), ["play", "--help"])
    assert "Play in the terminal" in done.output and "must not replace" not in done.output


@covers("tabletop_register_commands")
def test_built_in_commands_never_ask_the_plugins() -> None:
    greeter = Greeter()
    cli = with_plugins([greeter])
    assert CliRunner().invoke(cli, ["games", "--json"]).exit_code == 0
    assert greeter.asked == 0
    assert CliRunner().invoke(cli, ["hello"]).output == "hello world\n"
    assert greeter.asked == 1


@covers("tabletop_register_commands")
def test_an_installed_entry_point_adds_its_command(tmp_path: Path) -> None:
    (tmp_path / "tt_greeter.py").write_text(
        "import typer\n"
        "from tabletop import hookimpl\n"
        "@hookimpl\n"
        "def tabletop_register_commands(app):\n"
        "    @app.command(help='Say hello.')\n"
        "    def hello(name: str = 'world') -> None:\n"
        "        typer.echo(f'hello {name}')\n",
        encoding="utf-8",
    )
    info = tmp_path / "tt_greeter-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: tt-greeter\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[tabletop]\ngreeter = tt_greeter\n")
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-m", "tabletop", "hello", "--name", "Ada"],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert (done.returncode, done.stdout, done.stderr) == (0, "hello Ada\n", "")
    env["TABLETOP_DISABLE_PLUGINS"] = "greeter"
    done = subprocess.run(
        [sys.executable, "-m", "tabletop", "hello"], capture_output=True, text=True, env=env
    )
    assert done.returncode == 2 and "No such command 'hello'" in done.stderr


@covers("tabletop_register_commands")
def test_the_docstring_example_adds_a_command() -> None:
    doc = inspect.getdoc(hook_specs()["tabletop_register_commands"]) or ""
    example = textwrap.dedent(doc.split("Example::", 1)[1]).strip()
    module = types.ModuleType("tabletop_example_commands")
    module.__dict__.update({"hookimpl": hookimpl})
    exec(compile(example, "hookspecs example", "exec"), module.__dict__)
    done = CliRunner().invoke(with_plugins([module]), ["hello", "--name", "Ada"])
    assert (done.exit_code, done.output) == (0, "hello Ada\n")


def test_a_game_in_a_single_module_has_the_defaults_of_a_game_without_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A plugin that is one module, not a package: no scenarios, no web board, its name
    and summary as its rules (importlib.resources refuses a module: no crash)."""
    (tmp_path / "tt_single_game.py").write_text(
        "from tabletop_connect4.game import ConnectFourGame\n"
        "class SingleModuleGame(ConnectFourGame):\n    pass\n",
        encoding="utf-8",
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    game = importlib.import_module("tt_single_game").SingleModuleGame()
    assert presentation_of(game).scenarios() == []
    assert presentation_of(game).web_board() is None
    assert presentation_of(game).rules_text() == f"# {game.info.name}\n\n{game.info.summary}\n"


# -- tabletop_register_agents --------------------------------------------------------------------
class FirstAgent:
    """Always the first legal action."""

    def act(self, turn: Any) -> Any:
        return turn.legal[0]


class AgentPlugin:
    """A plugin registering the agent ``first:N`` (N ignored: it names a variant)."""

    @hookimpl
    def tabletop_register_agents(self, register: Callable[[str, Any], None]) -> None:
        from tabletop.agents.base import Level

        def level(game: Game[Any, Any], name: str) -> Level:
            return Level(name, f"the first legal action of {game.info.id}", FirstAgent)

        register("first", level)


@covers("tabletop_register_agents")
def test_an_outside_agent_is_seated_by_its_prefixed_name(monkeypatch: pytest.MonkeyPatch) -> None:
    """``--ai 2:first:1`` seats the plugin's agent; the research extra's ``openspiel-mcts``
    comes through the same hook (an installed entry point), with no string table."""
    from tabletop.agents import seat
    from tabletop.core import registry as registries
    from tabletop.core.match import Match

    games = Registry(extra=[AgentPlugin(), Plugin(Countdown())])
    assert set(games.agents()) == {"first", "openspiel-mcts"}
    monkeypatch.setattr(registries, "_default", games)
    game = games.get("countdown")
    chosen = seat.make_seat(game, "first:1")
    match = Match(game, 2, game.info.options(), seed=0)
    assert chosen.move(match) == game.legal(match.state)[0]
    with pytest.raises(UsageError, match="unknown AI level 'second:1' for countdown"):
        seat.make_seat(game, "second:1")
    assert not hasattr(seat, "EXTERNAL") and "importlib" not in vars(seat)

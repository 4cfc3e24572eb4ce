"""One shape for every plugin (issues 15 and 29): a reader of one game's package knows the others.

Each shipped game (and the Connect Four example, when installed) names its class
``<Name>Game`` in ``tabletop_<id>.game``, keeps its options model in
``tabletop_<id>.rules``, shows its package README as the rules, ends every refusal
with the rule ID in parentheses and gives every outcome a kind.

Every installed game (found through the plugin manager, whatever its distribution) has
the inner shape of ``docs/plugins.md`` ("One inner shape"): ``rules``, ``position``,
``notation``, ``agents`` (a module or a package) and ``game`` modules, none of the
drifted names (``options``, ``positions``, ``board``, ``advice``, ``evaluation``, ...),
a hook module that imports the game only inside the hook, and no import of
``tabletop.core`` anywhere in the package (the public API is ``tabletop.game`` and
``tabletop.testing``).
"""

from __future__ import annotations

import ast
import importlib
import importlib.resources
import importlib.util
import json
import random
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from pydantic import BaseModel

from tabletop.core.plugins import plugin_manager
from tabletop.core.presentation import presentation_of
from tabletop.core.registry import registry
from tabletop.game import Game, options_as

GAMES = [gid for gid in ("quarto", "quartino", "ctverak", "connect4") if gid in registry().ids()]
RULE_AT_END = re.compile(r"\([A-Z]\d+(\.\d+)*(, [^()]+)?\)$")  # "… (K4.1)", "… (K3.1, option x)"
KINDS = {"line", "draw", "completed", "ctverak", "blocked", "turn-limit"}


def game_of(game_id: str) -> Game[Any, Any]:
    return registry().get(game_id)


@pytest.mark.parametrize("game_id", GAMES)
def test_the_class_and_the_options_live_where_every_plugin_keeps_them(game_id: str) -> None:
    game = game_of(game_id)
    package = f"tabletop_{game_id}"
    assert type(game).__module__ == f"{package}.game"
    assert type(game).__name__.endswith("Game")
    options = game.info.options
    assert options.__module__ == f"{package}.rules"
    assert getattr(importlib.import_module(f"{package}.rules"), options.__name__) is options


@pytest.mark.parametrize("game_id", GAMES)
def test_the_rules_text_is_the_package_readme(game_id: str) -> None:
    readme = importlib.resources.files(f"tabletop_{game_id}").joinpath("README.md")
    assert presentation_of(game_of(game_id)).rules_text() == readme.read_text("utf-8")


def playthrough(game: Game[Any, Any], players: int, seed: int) -> list[Any]:
    """The states of one random game (default options), start to end."""
    rng = random.Random(seed)
    state = game.new(players, game.info.options(), seed)
    states = [state]
    for _ in range(game.info.max_actions(players, game.info.options())):
        legal = game.legal(state)
        if not legal:
            break
        state = game.apply(state, rng.choice(list(legal)))
        states.append(state)
    return states


@pytest.mark.parametrize("game_id", GAMES)
def test_refusals_end_with_the_rule_and_outcomes_have_a_kind(game_id: str) -> None:
    game = game_of(game_id)
    players = game.info.min_players
    games = [playthrough(game, players, seed) for seed in range(3)]
    for states in games:
        outcome = game.outcome(states[-1])
        assert outcome is not None and outcome.kind in KINDS, outcome
    # Well-formed actions: whatever was legal somewhere; refused wherever it is not legal.
    rng = random.Random(0)
    offered = sorted({a for states in games for s in states for a in game.legal(s)}, key=repr)
    checked = 0
    for state in rng.sample([s for states in games for s in states], 40):
        legal = set(game.legal(state))
        for action in rng.sample(offered, min(30, len(offered))):
            if action not in legal:
                message = game.refusal(state, action)
                assert RULE_AT_END.search(message), (game.format(state, action), message)
                checked += 1
    assert checked >= 10  # Connect Four has 7 actions; the others hundreds


class Other(BaseModel):
    pass


def test_options_as_narrows_the_model_and_names_anything_else() -> None:
    options = game_of("quarto").info.options()
    model = type(options)
    assert options_as(model, options) is options
    with pytest.raises(TypeError, match=f"options are Other, not {model.__name__}"):
        options_as(model, Other())


# -- the inner shape of every installed game (issue 29) ----------------------------------
SHAPE = ("rules", "position", "notation", "agents", "game", "plugin")
DRIFTED = {"options", "positions", "board", "advice", "evaluate", "evaluation", "strategy"}
DRIFTED |= {"levels", "hint", "perfect"}  # inside a package ``agents/`` they may stay


def installed_plugins() -> dict[str, str]:
    """The package of every installed game's hook module, by game id (from the plugin
    manager, so a third-party game installed here is checked too)."""
    found: dict[str, str] = {}
    for _name, plugin in plugin_manager().list_name_plugin():
        if not isinstance(plugin, ModuleType) or not plugin.__name__.endswith(".plugin"):
            continue
        package = plugin.__name__.rpartition(".")[0]
        games: list[Game[Any, Any]] = []
        plugin.tabletop_register_games(register=games.append)
        for game in games:
            found[game.info.id] = package
    return found


INSTALLED = installed_plugins()


def package_dir(package: str) -> Path:
    spec = importlib.util.find_spec(package)
    assert spec is not None and spec.submodule_search_locations, package
    return Path(next(iter(spec.submodule_search_locations)))


def test_the_shipped_games_and_connect4_are_found_through_the_plugin_manager() -> None:
    assert {"quarto", "quartino", "ctverak"} <= set(INSTALLED)
    assert INSTALLED["quarto"] == "tabletop_quarto"


# The layout of the plugins this project keeps (plugins/ and examples/connect4). The two
# examples of chance and simultaneous steps (examples/pig, examples/goofspiel) are short
# plugins written from docs/plugins.md alone, their notation and position beside the rules.
SHORT = {"pig", "goofspiel"}


@pytest.mark.parametrize("game_id", sorted(set(INSTALLED) - SHORT))
def test_every_installed_game_has_the_inner_shape(game_id: str) -> None:
    package = INSTALLED[game_id]
    folder = package_dir(package)
    modules = {p.stem for p in folder.glob("*.py")} | {
        p.parent.name for p in folder.glob("*/__init__.py")
    }
    assert set(SHAPE) <= modules, f"{package} lacks {sorted(set(SHAPE) - modules)}"
    assert not DRIFTED & modules, f"{package} has {sorted(DRIFTED & modules)}"
    game = registry().get(game_id)
    assert type(game).__module__ == f"{package}.game"
    assert game.info.options.__module__ == f"{package}.rules"


def top_level_imports(tree: ast.Module) -> set[str]:
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
        elif isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
    return names


@pytest.mark.parametrize("game_id", sorted(INSTALLED))
def test_the_hook_imports_the_game_inside_the_hook(game_id: str) -> None:
    package = INSTALLED[game_id]
    tree = ast.parse((package_dir(package) / "plugin.py").read_text("utf-8"))
    own = {name for name in top_level_imports(tree) if name.split(".")[0] == package}
    assert not own, f"{package}.plugin imports {sorted(own)} at the top (the hookspec: lazily)"
    hook = next(
        node
        for node in tree.body
        if isinstance(node, ast.FunctionDef) and node.name == "tabletop_register_games"
    )
    inside = {n.module for n in ast.walk(hook) if isinstance(n, ast.ImportFrom)}
    assert f"{package}.game" in inside


def test_importing_every_hook_module_loads_no_game() -> None:
    """What ``tabletop games`` pays for each plugin: its hook module, not the rules."""
    code = (
        "import importlib, json, sys\n"
        f"packages = {sorted(set(INSTALLED.values()))!r}\n"
        "for p in packages: importlib.import_module(p + '.plugin')\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in packages)))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    packages = set(INSTALLED.values())
    assert set(json.loads(done.stdout)) == packages | {f"{p}.plugin" for p in packages}


def core_imports(path: Path) -> list[str]:
    """Every ``tabletop.core`` import in a file (at the top, in functions, under
    TYPE_CHECKING), as ``file:line module``."""
    found = []
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module] + (
                [f"tabletop.{a.name}" for a in node.names] if node.module == "tabletop" else []
            )
        elif isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        else:
            continue
        for name in names:
            if name == "tabletop.core" or name.startswith("tabletop.core."):
                found.append(f"{path.name}:{node.lineno} {name}")
    return found


@pytest.mark.parametrize("game_id", sorted(INSTALLED))
def test_no_plugin_imports_the_core(game_id: str) -> None:
    """Plugins use the public API only: ``tabletop.game``, ``tabletop.testing`` (and
    ``tabletop.agents``, ``tabletop.coach``); the core may change under them."""
    folder = package_dir(INSTALLED[game_id])
    files = sorted(folder.rglob("*.py"))
    tests = folder.parent / "tests"  # a distribution's own tests, beside the package
    if game_id == "connect4" and tests.is_dir():
        files += sorted(tests.rglob("*.py"))
    assert files
    assert not [hit for path in files for hit in core_imports(path)]


def test_the_core_import_check_finds_every_form(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text(
        "from tabletop.core.numbers import quote\n"
        "import tabletop.core.match\n"
        "from tabletop import core\n"
        "def f():\n    from tabletop.core import options\n"
        "from tabletop.game import quote as fine\n",
        "utf-8",
    )
    assert [hit.split()[1] for hit in core_imports(sample)] == [
        "tabletop.core.numbers",
        "tabletop.core.match",
        "tabletop.core",
        "tabletop.core",
    ]

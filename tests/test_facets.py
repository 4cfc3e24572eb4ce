"""The facets of a game (issue 34): encodings, computer players, coaching and presentation
live in the plugin's own modules, found by convention (``<package>.encoding``,
``.agents``, ``.coach``, ``.render``) or named by the class attribute ``facets``, imported
on first use and kept; a game without one gets the generic default.

The games here are written into a real package on disk (``tmp_path``) and imported, as an
installed plugin would be.
"""

from __future__ import annotations

import importlib
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tabletop.agents.facet import players_of
from tabletop.agents.levels import agent_levels
from tabletop.bridges.facet import encoding_of
from tabletop.coach.facet import coaching_of
from tabletop.core.facets import facet_module
from tabletop.core.presentation import presentation_of
from tabletop.game import Game
from tabletop.kit.encoding import check, provided

# A game of Nim-like take-1-or-2 from a heap of 5: the rules only.
RULES = """
from pydantic import BaseModel
from tabletop.game import Game, GameInfo, Outcome


class Options(BaseModel):
    pass


class TakeGame(Game):
    info = GameInfo(id="take", name="Take", version="1", min_players=2, max_players=2,
                    options=Options, summary="take 1 or 2; the last taker wins")
    FACETS = None

    def new(self, players, options, seed):
        return (5, 1)

    def to_act(self, state):
        return state[1] if state[0] else None

    def legal(self, state):
        return [n for n in (1, 2) if n <= state[0]]

    def apply(self, state, action):
        return (state[0] - action, 3 - state[1])

    def outcome(self, state):
        return None if state[0] else Outcome((3 - state[1],), "took the last (T1)", "line")

    def refusal(self, state, action):
        return "take 1 or 2, at most what is left (T1)"

    def parse(self, state, text):
        return int(text)

    def format(self, state, action):
        return str(action)

    def view(self, state, player):
        return {"heap": state[0], "to_act": state[1]}

    def to_json(self, state):
        return {"heap": state[0], "to_act": state[1]}

    def from_json(self, data, players, options, seed):
        return (data["heap"], data["to_act"])
"""

ENCODING = """
IMPORTED = True


def action_ids(players, options):
    return 2


def action_id(state, action):
    return action - 1


def action_of(state, action_id):
    return action_id + 1


def observation_shape(players, options):
    return (2,)


def observation(view, player, players, options):
    return [float(view["heap"]), float(view["to_act"] == player)]
"""

AGENTS = """
from tabletop.agents.simple import RandomAgent

AGENTS = {"lucky": RandomAgent}


def evaluate(state, player):
    return 0.25


def solve(state, seconds):
    return {"value": "win" if state[0] % 3 else "loss", "exact": True, "best": None,
            "summary": "by the heap modulo 3"}
"""

COACH = """
def hint(view, player, options):
    return "leave a multiple of 3"
"""

RENDER = """
def render(view, player):
    return "heap " + str(view["heap"])


def position_keys():
    return "`heap`: the counters left."
"""


@pytest.fixture
def plugin(tmp_path: Path) -> Iterator[Path]:
    """A package ``takegame_<n>`` on ``sys.path`` with ``game.py``; tests add modules."""
    package = tmp_path / f"takegame_{abs(hash(tmp_path)) % 10**8}"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "game.py").write_text(RULES)
    sys.path.insert(0, str(tmp_path))
    yield package
    sys.path.remove(str(tmp_path))
    for name in [m for m in sys.modules if m.startswith(package.name)]:
        del sys.modules[name]


def load(package: Path, **modules: str) -> Game[Any, Any]:
    for name, text in modules.items():
        (package / f"{name}.py").write_text(textwrap.dedent(text))
    importlib.invalidate_caches()
    game: Game[Any, Any] = importlib.import_module(f"{package.name}.game").TakeGame()
    return game


def test_a_game_without_facets_gets_the_generic_defaults(plugin: Path) -> None:
    game = load(plugin)
    assert encoding_of(game) is None and not provided(game)
    players = players_of(game)
    assert dict(players.agents()) == {} and dict(players.levels()) == {}
    assert players.evaluate((5, 1), 1) is None and players.solve((5, 1), None) is None
    coaching = coaching_of(game)
    assert coaching.coach("5") is None and coaching.hint({}, 1, game.info.options()) is None
    shown = presentation_of(game)
    assert shown.render({"heap": 3}, 1) == '{\n  "heap": 3\n}'
    assert shown.rules_text() == "# Take\n\ntake 1 or 2; the last taker wins\n"
    assert shown.scenarios() == [] and shown.web_board() is None
    assert shown.languages() == ["en"]
    assert shown.position_format().count('"heap": 5') == 1


def test_the_facets_are_found_in_the_plugins_own_modules(plugin: Path) -> None:
    game = load(plugin, encoding=ENCODING, agents=AGENTS, coach=COACH, render=RENDER)
    encoding = encoding_of(game)
    assert encoding is not None
    assert encoding.action_ids(2, game.info.options()) == 2
    assert encoding.action_of((5, 1), encoding.action_id((5, 1), 2)) == 2
    # the fast paths the module lacks are built from the slow ones; the kit's check passes
    out = [0.0, 0.0]
    encoding.observer(2, game.info.options())((5, 1), 1, out)
    assert out == [5.0, 1.0]
    assert list(encoding.id_lister(2, game.info.options())((5, 1))) == [0, 1]
    import random

    check(game, 2, game.info.options(), (4, 2), random.Random(0))
    assert "lucky" in agent_levels(game)
    assert players_of(game).evaluate((5, 1), 2) == 0.25
    assert players_of(game).solve((3, 1), None)["value"] == "loss"  # type: ignore[index]
    assert coaching_of(game).hint({}, 1, game.info.options()) == "leave a multiple of 3"
    shown = presentation_of(game)
    assert shown.render({"heap": 4}, None) == "heap 4"
    assert shown.position_format().startswith("`heap`: the counters left.\n\n")


def test_a_class_attribute_names_another_module_or_none(plugin: Path) -> None:
    (plugin / "ids.py").write_text(ENCODING)
    (plugin / "coach.py").write_text(COACH)
    rules = (plugin / "game.py").read_text()
    named = f'{{"encoding": "{plugin.name}.ids", "coach": None}}'
    (plugin / "game.py").write_text(rules.replace("FACETS = None", f"facets = {named}"))
    game = load(plugin)
    assert encoding_of(game) is not None
    assert coaching_of(game).hint({}, 1, game.info.options()) is None  # None: no coach module


def test_a_facet_module_is_imported_on_first_use_and_kept(plugin: Path) -> None:
    game = load(plugin, encoding=ENCODING, render=RENDER)
    name = f"{plugin.name}.encoding"
    assert name not in sys.modules and f"{plugin.name}.render" not in sys.modules
    presentation_of(game).languages()  # the files' conventions import no module
    assert f"{plugin.name}.render" not in sys.modules
    first = encoding_of(game)
    assert name in sys.modules and encoding_of(game) is first
    assert facet_module(game, "encoding") is sys.modules[name]
    other = type(game)()  # another instance of the class: the module is not imported again
    del sys.modules[name]
    assert encoding_of(other) is not None and name not in sys.modules


def test_a_facet_module_that_fails_to_import_says_why(plugin: Path) -> None:
    game = load(plugin, agents="import no_such_module_anywhere\n")
    with pytest.raises(ModuleNotFoundError, match="no_such_module_anywhere"):
        players_of(game)


def new_shape_problems(game: Game[Any, Any]) -> list[str]:
    """What in ``game`` is of the old shape: a DeprecationWarning from an accessor, an
    import inside a method of its game module, a method of its class that is a facet."""
    import ast
    import inspect
    import warnings

    problems: list[str] = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        encoding_of(game), players_of(game), coaching_of(game), presentation_of(game)
    problems += [str(w.message) for w in caught if w.category is DeprecationWarning]
    tree = ast.parse(inspect.getsource(sys.modules[type(game).__module__]))
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            inner = [n for n in ast.walk(node) if isinstance(n, ast.Import | ast.ImportFrom)]
            problems += [f"an import inside {node.name} (line {n.lineno})" for n in inner]
    from tabletop.agents.facet import OLD as PLAYERS
    from tabletop.bridges.facet import OLD as ENCODINGS
    from tabletop.coach.facet import OLD as COACHING
    from tabletop.core.presentation import OLD as PRESENTATION

    facets = {**ENCODINGS, **PLAYERS, **COACHING, **PRESENTATION}
    own = [k for k in type(game).__mro__ if k not in Game.__mro__]  # not Game's old shims
    problems += [f"the method {name}" for name in facets if any(name in vars(k) for k in own)]
    return problems


@pytest.mark.parametrize("game_id", ["quarto", "quartino", "ctverak", "connect4"])
def test_every_shipped_game_has_the_new_shape(game_id: str) -> None:
    from tabletop.core.registry import registry

    if game_id not in registry().ids():
        pytest.skip(f"{game_id} is not installed")
    assert new_shape_problems(registry().get(game_id)) == []


def test_the_scaffold_writes_the_new_shape(tmp_path: Path) -> None:
    from tabletop.cli.scaffold import new_command
    from tabletop.core.registry import Registry

    made = new_command("shape_nim", tmp_path / "dist")
    sys.path.insert(0, str(made))
    try:
        games = Registry(extra=[importlib.import_module("tabletop_shape_nim.plugin")])
        game = games.get("shape_nim")
        assert new_shape_problems(game) == []
        assert encoding_of(game) is not None and players_of(game).evaluate is not None
        state = game.new(2, game.info.options(), 0)
        advice = coaching_of(game).hint(game.view(state, 1), 1, game.info.options())
        assert advice and "take" in advice  # the hint, found in agents.py through `facets`
    finally:
        sys.path.remove(str(made))
        for name in [n for n in sys.modules if n.startswith("tabletop_shape_nim")]:
            del sys.modules[name]


def test_the_old_shape_is_told_apart() -> None:
    """The checker above finds the old shape (the copy in tests/old-shape)."""
    folder = Path(__file__).parent / "old-shape"
    sys.path.insert(0, str(folder))
    try:
        game = importlib.import_module("tabletop_oldfour.game").OldFourGame()
        problems = new_shape_problems(game)
        assert any("an import inside render" in p for p in problems), problems
        assert "the method action_ids" in problems
        assert any("OldFourGame.hint is deprecated" in p for p in problems)
    finally:
        sys.path.remove(str(folder))
        for name in [n for n in sys.modules if n.startswith("tabletop_oldfour")]:
            del sys.modules[name]


def test_games_and_play_load_no_facet_they_do_not_use() -> None:
    """``tabletop games`` reads each game's levels (its agents module) and nothing else of
    its facets: no encoding, no drawing, no coach; ``tabletop play`` draws (render) and
    seats the agents, but loads no encoding, coach or web module (real process)."""
    import subprocess

    code = (
        "import sys\n"
        "from typer.testing import CliRunner\n"
        "from tabletop.cli.app import app\n"
        "r = CliRunner()\n"
        "assert r.invoke(app, ['games']).exit_code == 0\n"
        "print(sorted(m for m in sys.modules if m.startswith('tabletop_')"
        " and m.split('.')[1:2] in (['encoding'], ['render'], ['coach'])))\n"
        "r.invoke(app, ['play', 'quarto', '--ai', '2:1'], input='give LSRF\\nquit\\n')\n"
        "print(sorted(m for m in sys.modules if m.startswith('tabletop_')"
        " and m.split('.')[1:2] in (['encoding'], ['coach'], ['web'])))\n"
        "print('tabletop_quarto.render' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip().splitlines()[-3:] == ["[]", "[]", "True"], out.stdout

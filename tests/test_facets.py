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

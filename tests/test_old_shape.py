"""A plugin of the old shape keeps working (issue 34): ``tests/old-shape/tabletop_oldfour``
is Connect Four's ``game.py`` as it was before the facets (render, hint, the encodings,
evaluate and levels as methods of the Game, each importing its module inside), under the
id ``oldfour``. It passes ``tabletop check`` and ``tabletop test`` (its scenarios), the
bridges and the web page; each old method gives a DeprecationWarning naming its new place.
"""

from __future__ import annotations

import importlib
import sys
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from typer.testing import CliRunner

from tabletop.agents.facet import players_of
from tabletop.agents.levels import agent_levels
from tabletop.bridges.facet import encoding_of
from tabletop.cli.app import app
from tabletop.coach.facet import coaching_of
from tabletop.core import registry as registries
from tabletop.core.presentation import presentation_of
from tabletop.core.registry import Registry
from tabletop.game import Game
from tabletop.web.app import build_app
from tests.test_web_server import create, play, until
from tests.web_support import TEST_CONFIG

FOLDER = Path(__file__).parent / "old-shape"
OLD_METHODS = {
    "render": "render(view, player) in the game's render module",
    "hint": "hint(view, player, options) in the game's coach module",
    "action_ids": "action_ids(players, options) in the game's encoding module",
    "observation": "observation(view, player, players, options) in the game's encoding module",
    "evaluate": "evaluate(state, player) in the game's agents module",
    "levels": "LEVELS in the game's agents module",
}


@pytest.fixture
def games(monkeypatch: pytest.MonkeyPatch) -> Iterator[Registry]:
    """The installed games plus ``oldfour``, as the default registry."""
    sys.path.insert(0, str(FOLDER))
    try:
        found = Registry(extra=[importlib.import_module("tabletop_oldfour.plugin")])
        monkeypatch.setattr(registries, "_default", found)
        monkeypatch.setattr("tabletop.web.hub.registry", lambda: found)
        yield found
    finally:
        sys.path.remove(str(FOLDER))
        for name in [n for n in sys.modules if n.startswith("tabletop_oldfour")]:
            del sys.modules[name]


def test_each_old_method_warns_naming_its_new_place(games: Registry) -> None:
    game: Game[Any, Any] = games.get("oldfour")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        encoding, players = encoding_of(game), players_of(game)
        coaching, shown = coaching_of(game), presentation_of(game)
    said = [str(w.message) for w in caught if w.category is DeprecationWarning]
    for method, place in OLD_METHODS.items():
        assert any(f"OldFourGame.{method} is deprecated" in s and place in s for s in said), said
    # and each is read through the accessor as before
    assert encoding is not None and encoding.action_ids(2, game.info.options()) == 7
    state = game.new(2, game.info.options(), 0)
    assert players.evaluate(state, 1) == pytest.approx(0.5)
    assert set(players.levels()) == {"3", "4", "5"} and "5" in agent_levels(game)
    assert coaching.hint(game.view(state, 1), 1, game.info.options())
    assert not isinstance(shown.render(game.view(state, None), None), str)  # rich, not JSON
    assert shown.rules_text().startswith("# Connect Four")


def test_check_and_its_scenarios_pass(games: Registry) -> None:
    runner = CliRunner()
    checked = runner.invoke(app, ["check", "oldfour", "--games", "5"])
    assert checked.exit_code == 0, checked.output
    assert "encoding" in checked.output
    scenarios = FOLDER / "tabletop_oldfour" / "scenarios" / "oldfour.yaml"
    tested = runner.invoke(app, ["test", str(scenarios)])
    assert tested.exit_code == 0, tested.output


def test_the_bridges_play_it(games: Registry) -> None:
    pytest.importorskip("pettingzoo")
    from tabletop.bridges.pettingzoo import env

    e = env("oldfour", players=2, seed=1)
    e.reset(seed=1)
    steps = 0
    for _agent in e.agent_iter(max_iter=60):
        observation, _reward, termination, truncation, _info = e.last()
        assert len(observation["observation"]) == 2 * 42 + 4
        if termination or truncation:
            e.step(None)
            continue
        e.step(int(observation["action_mask"].argmax()))
        steps += 1
    assert steps >= 7  # a game of Connect Four lasts at least 7 drops


def test_the_web_page_plays_it(games: Registry, tmp_path: Path) -> None:
    with TestClient(build_app(tmp_path / "m.sqlite3", TEST_CONFIG)) as client:
        assert "Connect Four" in client.get("/games/oldfour/rules").text
        made = create(client, game="oldfour", seats=[{"seat": 2, "ai": "1"}])
        token = made["seats"][0]["token"]
        with client.websocket_connect(f"/ws/{made['id']}?token={token}") as ws:
            assert until(ws, "hello")["board"] is None  # no web/board.js: the generic board
            position = until(ws, "position")
            position = play(ws, position["legal"][0], position["number"])
            assert position["number"] >= 1


def test_the_old_contracts_inherited_methods_still_answer(games: Registry) -> None:
    """A plugin of the old shape may call the defaults it inherited (its own tests did:
    ``game.scenarios()``, ``game.rules_text()``): each warns, naming the accessor, and
    gives the facet's answer."""
    game = games.get("oldfour")
    with pytest.warns(DeprecationWarning, match=r"Game\.scenarios is deprecated"):
        scenarios = game.scenarios()  # type: ignore[attr-defined]
    assert [path.name for path in scenarios] == ["oldfour.yaml"]
    with pytest.warns(DeprecationWarning, match=r"presentation_of\(game\)\.rules_text"):
        assert game.rules_text() == presentation_of(game).rules_text()  # type: ignore[attr-defined]
    with pytest.warns(DeprecationWarning, match=r"Game\.solve is deprecated"):
        state = game.new(2, game.info.options(), 0)
        assert game.solve(state, 0.1) is None  # type: ignore[attr-defined]

"""A game configured once (issue 34, item 3): :class:`Configured` is built from what a
tool was given and passed around; no tool builds the options model itself."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tabletop.analysis import arena
from tabletop.core.configured import Configured
from tabletop.core.errors import OptionError, UsageError
from tabletop.core.match import Match
from tabletop.core.registry import registry
from tabletop.kit.configurations import configurations

ROOT = Path(__file__).resolve().parent.parent


def test_of_reads_text_json_or_the_model_itself() -> None:
    quarto = registry().get("quarto")
    table = Configured.of(quarto, None, {"squares": "true"})
    assert table.players == 2 and table.values["squares"] is True
    assert Configured.of(quarto, 2, table.options).options is table.options  # kept
    assert Configured.of(quarto).values == Configured.of(quarto, 2, {}).values  # defaults
    assert table.label() == "2 players, squares=true"


def test_a_bad_configuration_is_refused_with_what_is_allowed() -> None:
    quartino = registry().get("quartino")
    with pytest.raises(UsageError, match="2-4 players, not 5"):
        Configured.of(quartino, 5)
    with pytest.raises(OptionError, match=r"unknown option 'colour'.*options: "):
        Configured.of(quartino, 2, {"colour": "red"})
    quarto = registry().get("quarto")
    with pytest.raises(OptionError, match="squares"):  # the network's JSON: no text for a bool
        Configured.of(quarto, 2, {"squares": "yes"}, strict=True)
    assert Configured.of(quarto, 2, {"squares": "yes"}).values["squares"] is True  # the CLI's


def test_values_are_a_copy_and_the_match_is_the_games() -> None:
    ctverak = registry().get("ctverak")
    table = Configured.of(ctverak, 3)
    table.values.clear()
    assert table.values  # the cached dump is not handed out
    one, two = Match.of(table, 7), Match(ctverak, 3, table.options, 7)
    assert one.state == two.state and one.texts == two.texts  # the same chance drawn
    assert one.configured == table
    assert table.max_actions == ctverak.info.max_actions(3, table.options)


def test_the_kit_plays_configured_games() -> None:
    game = registry().get("quartino")
    configs = configurations(game)
    assert configs and all(isinstance(c, Configured) and c.game is game for c in configs)


def test_the_arena_configures_a_game_once_for_all_its_games() -> None:
    arena.configure.cache_clear()
    setup = arena.Setup("quarto", ("1", "1"), 3, 2, {"squares": "true"}, 5)
    results = [arena.play_game(setup, index) for index in range(3)]
    assert len(results) == 3
    info = arena.configure.cache_info()
    assert info.misses == 1 and info.hits >= 2


def _builds(path: Path) -> list[str]:
    """Every call of ``opts.build`` / ``options.build`` / ``build_options`` in a file."""
    found = []
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Call):
            func = node.func
            name = (
                f"{getattr(func.value, 'id', '?')}.{func.attr}"
                if isinstance(func, ast.Attribute)
                else getattr(func, "id", "")
            )
            if name in ("opts.build", "options.build", "build_options"):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    return found


def test_only_configured_builds_an_options_model() -> None:
    """The options model is built in one place (18 sites before issue 34)."""
    folders = [ROOT / name for name in ("tabletop", "plugins", "examples")]
    sites = [site for folder in folders for path in folder.rglob("*.py") for site in _builds(path)]
    assert len(sites) == 1 and sites[0].startswith("tabletop/core/configured.py:"), sites

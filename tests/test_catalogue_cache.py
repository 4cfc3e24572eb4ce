"""``tabletop games`` from its cache (issue 34): the same listing as from the games, no
game imported while current, made again after an install, a removal or an edit."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

PLUGIN = """import os
from dataclasses import replace
from tabletop.hookspecs import hookimpl
from tabletop_connect4.game import ConnectFourGame

class CachedGame(ConnectFourGame):
    info = replace(ConnectFourGame.info, id="cached", summary={summary!r})

@hookimpl
def tabletop_register_games(register):
    with open(os.environ["TT_ASKED"], "a") as asked:  # the plugin was asked for its games
        asked.write("asked\\n")
    register(CachedGame())
"""


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    """A cache folder of the test's own, and a folder for an outside plugin on the path."""
    (tmp_path / "plugins").mkdir()
    return {
        **os.environ,
        "TABLETOP_CACHE_DIR": str(tmp_path / "cache"),
        "PYTHONPATH": str(tmp_path / "plugins"),
        "TT_ASKED": str(tmp_path / "asked"),
    }


def games(env: dict[str, str], *args: str) -> tuple[str, str]:
    """``tabletop games ARGS``: its output, and the modules it imported (``-X importtime``)."""
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "tabletop", "games", *args],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout, done.stderr


def install(env: dict[str, str], summary: str) -> Path:
    """An outside plugin with the game ``cached`` (its summary ``summary``)."""
    folder = Path(env["PYTHONPATH"])
    module = folder / "tt_cached.py"
    module.write_text(PLUGIN.format(summary=summary), encoding="utf-8")
    info = folder / "tt_cached-1.0.dist-info"
    info.mkdir(exist_ok=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: tt-cached\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[tabletop]\ncached = tt_cached\n")
    return module


def test_the_second_listing_is_the_same_and_imports_no_game(env: dict[str, str]) -> None:
    first, _imports = games(env, "--json")
    assert (Path(env["TABLETOP_CACHE_DIR"]) / "catalogue.json").is_file()
    second, imported = games(env, "--json")
    assert second == first
    assert "tabletop_quarto.game" not in imported and "tabletop.agents" not in imported
    assert {"quarto", "connect4"} <= {row["id"] for row in json.loads(second)}
    fresh = subprocess.run(
        [sys.executable, "-m", "tabletop", "games", "--lang", "cs"],
        capture_output=True,
        text=True,
        env={**env, "TABLETOP_NO_CACHE": "1"},
        check=True,
    )
    cached, _imports = games(env, "--lang", "cs")
    assert cached == fresh.stdout and "počítačoví hráči" in cached  # translated when read


def test_an_install_an_edit_and_a_removal_are_listed(env: dict[str, str]) -> None:
    games(env)  # the cache, without the plugin
    module = install(env, "the first summary")
    listed, _imports = games(env)
    assert "the first summary" in listed
    assert "the first summary" in games(env)[0]  # now from the cache
    asked = Path(env["TT_ASKED"])
    assert asked.read_text().count("asked") == 1
    time.sleep(0.01)  # a later modification time, however coarse the file system's clock
    module.write_text(PLUGIN.format(summary="an edited summary"), encoding="utf-8")
    listed, _imports = games(env)
    assert "an edited summary" in listed and "the first summary" not in listed
    assert asked.read_text().count("asked") == 2  # made again from the games
    module.unlink()
    for file in (module.parent / "tt_cached-1.0.dist-info").iterdir():
        file.unlink()
    (module.parent / "tt_cached-1.0.dist-info").rmdir()
    assert "cached " not in games(env)[0]


def test_a_disabled_plugin_or_a_broken_cache_is_not_listed_from_it(env: dict[str, str]) -> None:
    listed, _imports = games(env)
    assert listed.startswith("connect4")
    disabled, _imports = games({**env, "TABLETOP_DISABLE_PLUGINS": "connect4"})
    assert "connect4" not in disabled
    path = Path(env["TABLETOP_CACHE_DIR"]) / "catalogue.json"
    path.write_text("{not json", encoding="utf-8")
    assert games(env)[0] == listed
    assert json.loads(path.read_text(encoding="utf-8"))["rows"]  # written again

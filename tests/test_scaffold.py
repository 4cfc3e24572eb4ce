"""``tabletop new``: the plugin distribution it makes installs, plays and passes its tests.

Most tests import the new game from its folder and register it with
``Registry(extra=[plugin])``, which touches nothing installed. One test installs it for
real, into a throwaway virtual environment that sees this environment's packages
(``--system-site-packages``), and uninstalls it again: the environment the rest of the
suite runs in never has the new game.
"""

from __future__ import annotations

import ast
import importlib
import importlib.metadata
import json
import os
import re
import site
import subprocess
import sys
import sysconfig
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest
from typer.testing import CliRunner

from tabletop.cli.app import app
from tabletop.cli.scaffold import fill, names, new_command, plan
from tabletop.core.errors import UsageError
from tabletop.core.match import Match
from tabletop.core.presentation import presentation_of
from tabletop.core.registry import Registry
from tabletop.game import Game
from tabletop.testing import check_game

FILES = {
    ".gitignore",
    "README.md",
    "pyproject.toml",
    "tabletop_{id}/__init__.py",
    "tabletop_{id}/README.md",
    "tabletop_{id}/agents.py",
    "tabletop_{id}/encoding.py",
    "tabletop_{id}/game.py",
    "tabletop_{id}/locale/tabletop_{id}.pot",
    "tabletop_{id}/locale/cs/LC_MESSAGES/tabletop_{id}.po",
    "tabletop_{id}/notation.py",
    "tabletop_{id}/plugin.py",
    "tabletop_{id}/position.py",
    "tabletop_{id}/py.typed",
    "tabletop_{id}/render.py",
    "tabletop_{id}/rules.py",
    "tabletop_{id}/scenarios/{id}.yaml",
    "tests/test_{id}.py",
}


def run(
    command: list[str], cwd: Path | None = None, **env: str
) -> subprocess.CompletedProcess[str]:
    """A command with this Python's environment plus ``env``; output captured."""
    return subprocess.run(
        command,
        cwd=cwd,
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


# -- what is made --------------------------------------------------------------------------
def test_the_plan_names_every_file_and_fills_every_placeholder() -> None:
    files = plan("pig_dice")
    assert {str(path) for path in files} == {f.format(id="pig_dice") for f in FILES}
    assert not [path for path, text in files.items() if "{{" in text]
    pyproject = files[Path("pyproject.toml")]
    assert 'name = "tabletop-pig-dice"' in pyproject
    assert '[project.entry-points.tabletop]\npig_dice = "tabletop_pig_dice.plugin"' in pyproject
    game = files[Path("tabletop_pig_dice/game.py")]
    assert "class PigDiceGame(Game[State, Take]):" in game and 'id="pig_dice"' in game
    assert 'name="Pig Dice"' in game


def test_names_and_fill() -> None:
    values = names("pig_dice")
    assert (values["package"], values["dist"], values["Class"], values["name"]) == (
        "tabletop_pig_dice",
        "tabletop-pig-dice",
        "PigDice",
        "Pig Dice",
    )
    assert fill("{{Class}} is {{id}}", values) == "PigDice is pig_dice"
    with pytest.raises(UsageError, match=re.escape("placeholder {{nope}} is unknown")):
        fill("{{nope}}", values)


@pytest.mark.parametrize(
    "game_id",
    ["", "Nim", "9lives", "my-game", "my game", "my__game", "nim_", "_nim", "class", "n" * 31],
)
def test_a_bad_id_is_refused_in_one_line(tmp_path: Path, game_id: str) -> None:
    with pytest.raises(UsageError, match="bad game id") as info:
        new_command(game_id, tmp_path / "new")
    assert "\n" not in str(info.value) and "e.g. nim or pig_dice" in str(info.value)
    assert not (tmp_path / "new").exists()


def test_an_installed_game_id_is_refused(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="'quarto' is installed already"):
        new_command("quarto", tmp_path / "new")
    assert not (tmp_path / "new").exists()


def test_an_existing_folder_is_refused_and_left_alone(tmp_path: Path) -> None:
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "notes.txt").write_text("keep me")
    with pytest.raises(
        UsageError, match=f"^{folder} exists already; give a new folder with --dir$"
    ):
        new_command("nim", folder)
    assert [p.name for p in folder.iterdir()] == ["notes.txt"]


def test_the_default_folder_is_tabletop_id(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    made = new_command("nim", None)
    assert made == Path("tabletop-nim")
    assert (tmp_path / "tabletop-nim" / "tabletop_nim" / "game.py").is_file()


def test_the_cli_command(tmp_path: Path) -> None:
    runner = CliRunner()
    result = runner.invoke(app, ["new", "nim", "--dir", str(tmp_path / "nim")])
    assert result.exit_code == 0, result.output
    assert f"created {tmp_path / 'nim'}" in result.stdout
    assert (tmp_path / "nim" / "tests" / "test_nim.py").is_file()
    again = runner.invoke(app, ["new", "nim", "--dir", str(tmp_path / "nim")])
    assert again.exit_code == 2
    assert (
        again.stderr
        == f"tabletop: {tmp_path / 'nim'} exists already; give a new folder with --dir\n"
    )
    bad = runner.invoke(app, ["new", "Bad-Id", "--dir", str(tmp_path / "bad")])
    assert bad.exit_code == 2 and bad.stderr.startswith("tabletop: bad game id 'Bad-Id'")


# -- the new game works without being installed -----------------------------------------
GAME_ID = "scaffold_nim"


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A scaffold of the game ``scaffold_nim``."""
    return new_command(GAME_ID, tmp_path_factory.mktemp("scaffold") / "dist")


@pytest.fixture
def plugin(made: Path) -> Iterator[ModuleType]:
    """The new plugin module, imported from its folder (and forgotten afterwards)."""
    sys.path.insert(0, str(made))
    try:
        yield importlib.import_module(f"tabletop_{GAME_ID}.plugin")
    finally:
        sys.path.remove(str(made))
        for name in [n for n in sys.modules if n.startswith(f"tabletop_{GAME_ID}")]:
            del sys.modules[name]


def test_the_new_game_registers_plays_and_conforms(plugin: ModuleType) -> None:
    games = Registry(extra=[plugin])
    assert GAME_ID in games.ids()
    game: Game[object, object] = games.get(GAME_ID)
    assert game.info.name == "Scaffold Nim" and game.info.options().model_dump() == {
        "heaps": 3,
        "random_sizes": False,
        "max_take": 0,
        "misere": False,
    }
    match = Match(game, 2, game.info.options(), seed=0)
    match.play_all(["take 3 from a", "take 4 from b", "take 5 from c"])
    outcome = match.outcome()
    assert outcome is not None and outcome.winners == (1,)
    assert "took the last counter" in outcome.reason and outcome.kind == "last-counter"
    report = check_game(game, games=10, seed=1)
    assert report.ok, report.text()
    assert (
        "# Scaffold Nim" in presentation_of(game).rules_text()
        and "take 2 from b" in presentation_of(game).rules_text()
    )
    assert [p.name for p in presentation_of(game).scenarios()] == [f"{GAME_ID}.yaml"]


def test_the_new_code_imports_only_the_public_api(made: Path) -> None:
    """The scaffold imports what a plugin needs from ``tabletop.game`` and
    ``tabletop.testing`` (and the hook, agents): never ``tabletop.core`` or ``tabletop.kit``."""
    imported: set[str] = set()
    for path in made.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                imported.add(node.module)
            elif isinstance(node, ast.Import):
                imported.update(alias.name for alias in node.names)
    ours = {name for name in imported if name.split(".")[0] == "tabletop"}
    assert {"tabletop.game", "tabletop.testing"} <= ours
    assert not {n for n in ours if n.startswith(("tabletop.core", "tabletop.kit"))}, ours


def test_the_public_api_holds_what_plugins_import() -> None:
    import tabletop.game as public
    import tabletop.testing as testing

    for name in ("describe", "whole", "player_key", "position_example", "parse_int", "quote"):
        assert name in public.__all__ and callable(getattr(public, name))
    for name in ("Match", "Kit", "golden_params", "scenario_params", "registry", "Registry"):
        assert name in testing.__all__ and getattr(testing, name) is not None


def test_the_new_folder_passes_its_own_tests(made: Path) -> None:
    tests = run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider"], cwd=made, PYTHONPATH=str(made)
    )
    assert tests.returncode == 0, tests.stdout + tests.stderr
    passed = re.search(r"(\d+) passed", tests.stdout)
    assert passed and int(passed.group(1)) >= 10 and "failed" not in tests.stdout, tests.stdout


@pytest.mark.parametrize(
    "game_id", ["x", "abcdefghijklmnopqrstuvwxyzabcd", "a_b_c_d_e_f_g_h_i_j_k_l_m_n_op"]
)
def test_the_new_code_is_lint_clean_whatever_the_id(tmp_path: Path, game_id: str) -> None:
    """ruff check and ruff format --check pass on the new folder, for the shortest and the
    longest ids (a line of the template must not grow too long, nor wrap differently)."""
    made = new_command(game_id, tmp_path / "dist")
    lint = run([sys.executable, "-m", "ruff", "check", "--no-cache", "."], cwd=made)
    assert lint.returncode == 0, lint.stdout + lint.stderr
    style = run([sys.executable, "-m", "ruff", "format", "--check", "--no-cache", "."], cwd=made)
    assert style.returncode == 0, style.stdout + style.stderr


# -- the real thing: pip install -e, tabletop games, tabletop play, pytest, uninstall ----
def build_flags() -> list[str]:
    """Build without downloading when this environment can build an editable wheel itself
    (setuptools 70.1+, or 64+ with wheel); otherwise pip fetches the build tools."""

    def version(name: str) -> tuple[int, ...]:
        try:
            text = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            return ()
        return tuple(int(p) for p in text.split(".")[:2] if p.isdigit())

    setuptools = version("setuptools")
    if setuptools >= (70, 1) or (setuptools >= (64,) and version("wheel")):
        return ["--no-build-isolation"]
    return []


def nested_venv(venv: Path) -> str:
    """A fresh virtual environment that also sees this environment's packages, wherever
    they are installed (a venv, the user site, the system), editable installs included;
    returns its python. A ``.pth`` line that starts with ``import`` runs at start-up:
    ``site.addsitedir`` adds each of our site folders after the venv's own and reads their
    ``.pth`` files (which ``--system-site-packages`` would not do for an outer venv)."""
    made = run([sys.executable, "-m", "venv", "--without-pip", str(venv)])
    assert made.returncode == 0, made.stderr
    ours = [*site.getsitepackages(), site.getusersitepackages()]
    folders = [str(Path(p).resolve()) for p in ours if Path(p).is_dir()]
    purelib = sysconfig.get_path("purelib", vars={"base": str(venv), "platbase": str(venv)})
    lines = [f"import site; site.addsitedir({folder!r})\n" for folder in folders]
    Path(purelib, "_tabletop_outer.pth").write_text("".join(lines), encoding="utf-8")
    return str(venv / "bin" / "python")


def test_pip_install_makes_a_tabletop_game_and_uninstall_removes_it(tmp_path: Path) -> None:
    python = nested_venv(tmp_path / "venv")
    folder = tmp_path / "tabletop-tiny_nim"
    created = run([python, "-m", "tabletop", "new", "tiny_nim", "--dir", str(folder)])
    assert created.returncode == 0, created.stderr
    assert f"pip install -e {folder}" in created.stdout

    install = run(
        [python, "-m", "pip", "install", "--quiet", "--no-deps", *build_flags(), "-e", str(folder)]
    )
    assert install.returncode == 0, install.stdout + install.stderr
    try:
        listed = run([python, "-m", "tabletop", "games", "--json"])
        assert listed.returncode == 0, listed.stderr
        ids = [row["id"] for row in json.loads(listed.stdout)]
        assert "tiny_nim" in ids and "quarto" in ids

        moves = "take 9 from b\ntake 3 from a\nquit\n"
        played = subprocess.run(
            [python, "-m", "tabletop", "play", "tiny_nim", "--ai", "2:2", "--seed", "4"],
            input=moves,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert played.returncode == 0, played.stderr
        assert "player 2 (computer, 2): take" in played.stdout
        assert "heap b has only 4 counters (R2.2); allowed: take 1 from a" in played.stdout

        tests = run([python, "-m", "pytest", "-q", "-p", "no:cacheprovider"], cwd=folder)
        assert tests.returncode == 0, tests.stdout + tests.stderr
    finally:
        removed = run([python, "-m", "pip", "uninstall", "--yes", "tabletop-tiny-nim"])
    assert removed.returncode == 0, removed.stderr
    listed = run([python, "-m", "tabletop", "games", "--json"])
    assert "tiny_nim" not in [row["id"] for row in json.loads(listed.stdout)]

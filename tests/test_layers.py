"""The layout's rules, read from the source (every ``import`` under ``tabletop/``, at module
level and inside functions alike) and from the package list of ``pyproject.toml``.

- ``tabletop/core/`` builds on nothing above it: from tabletop it imports only ``core``
  itself and the plugin contract (``tabletop.game``, ``tabletop.hookspecs``), the base the
  core is written against.
- Only ``tabletop/cli/`` imports typer and rich (the terminal), apart from the few listed
  exceptions below, each with its reason.
- An optional stack is imported only inside its own subpackage (web, analysis, bridges).
- The modules imported at module level form no cycle.
- No module under ``tabletop/`` is over :data:`MOST_LINES` lines (issue 37).
- The modules of ``tabletop/web`` import one another in one direction only: no circle,
  counting the imports made for the type checker alone (``if TYPE_CHECKING:``) too.
- Every package (folder with ``__init__.py``) is in ``[tool.setuptools] packages``, so that
  a non-editable install has it.
"""

from __future__ import annotations

import ast
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "tabletop"
CONTRACT = {"tabletop.game", "tabletop.hookspecs"}
TERMINAL = {"typer", "rich"}
# module -> why it still imports typer or rich outside tabletop/cli/
TERMINAL_EXCEPTIONS = {
    "tabletop.bridges.common": "render_mode='ansi' draws a game's render, a rich renderable",
}
# library -> the subpackages that may import it (none: the tests' only, never the package's)
STACKS: dict[str, tuple[str, ...]] = {
    "starlette": ("tabletop.web",),
    "uvicorn": ("tabletop.web",),
    "websockets": ("tabletop.web",),
    "psycopg": ("tabletop.web",),
    "redis": ("tabletop.web",),
    "ray": ("tabletop.analysis",),
    "matplotlib": ("tabletop.analysis",),
    "numpy": ("tabletop.analysis", "tabletop.bridges"),
    "pettingzoo": ("tabletop.bridges",),
    "open_spiel": ("tabletop.bridges",),
    "pyspiel": ("tabletop.bridges",),
    "gymnasium": ("tabletop.bridges",),
    "playwright": (),
}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path, top_level_only: bool = False) -> set[str]:
    """The absolute names ``path`` imports (``from a import b`` gives ``a`` and ``a.b``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    package = module_name(path) if path.name == "__init__.py" else module_name(path.parent)
    nodes = tree.body if top_level_only else list(ast.walk(tree))
    found: set[str] = set()
    for node in nodes:
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            if base == "__future__":
                continue
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return found


MODULES = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def inside(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def test_the_core_imports_nothing_above_it() -> None:
    bad = {
        f"{mod} imports {name}"
        for mod, path in MODULES.items()
        if inside(mod, "tabletop.core")
        for name in imports(path)
        if inside(name, "tabletop")
        and not inside(name, "tabletop.core")
        and name not in CONTRACT
        and name != "tabletop"
        and not any(name.startswith(c + ".") for c in CONTRACT)
    }
    assert not bad, sorted(bad)


def test_only_the_cli_imports_the_terminal() -> None:
    users = {
        mod
        for mod, path in MODULES.items()
        if any(name.split(".")[0] in TERMINAL for name in imports(path))
    }
    outside = {mod for mod in users if not inside(mod, "tabletop.cli")}
    assert outside <= set(TERMINAL_EXCEPTIONS), sorted(outside - set(TERMINAL_EXCEPTIONS))
    # an exception that no longer holds leaves the list: it must shrink, never go stale
    assert set(TERMINAL_EXCEPTIONS) <= outside, sorted(set(TERMINAL_EXCEPTIONS) - outside)


def test_optional_stacks_stay_in_their_subpackages() -> None:
    bad = {
        f"{mod} imports {name}"
        for mod, path in MODULES.items()
        for name in imports(path)
        if name.split(".")[0] in STACKS
        and not any(inside(mod, home) for home in STACKS[name.split(".")[0]])
    }
    assert not bad, sorted(bad)


# Import cycles: tests/test_imports.py (module-level and lazy imports alike).

MOST_LINES = 450


def test_no_module_is_over_450_lines() -> None:
    long = {
        mod: lines
        for mod, path in MODULES.items()
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > MOST_LINES
    }
    assert not long, long


def circle(graph: dict[str, set[str]]) -> list[str] | None:
    """One circle of ``graph`` (its modules in order, the first again at the end), else
    None."""
    state: dict[str, int] = {}  # 1: on the path being walked, 2: done
    path: list[str] = []

    def walk(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt) :], nxt]
            if nxt not in state and (found := walk(nxt)) is not None:
                return found
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (found := walk(node)) is not None:
            return found
    return None


def test_circle_finds_a_circle_and_only_one() -> None:
    assert circle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert circle({"a": {"b", "c"}, "b": {"c"}, "c": set()}) is None


def test_the_web_modules_import_one_another_without_a_circle() -> None:
    web = {mod: path for mod, path in MODULES.items() if inside(mod, "tabletop.web")}
    graph = {
        mod: {name for name in imports(path) if name in web and name not in (mod, "tabletop.web")}
        for mod, path in web.items()
    }
    assert circle(graph) is None, circle(graph)


def test_every_package_is_listed_for_a_non_editable_install() -> None:
    listed = set(
        tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["tool"]["setuptools"][
            "packages"
        ]
    )
    packages = {module_name(p) for p in PACKAGE.rglob("__init__.py")}
    assert packages - listed == set()


def test_play_run_and_games_load_no_optional_stack() -> None:
    """``tabletop games`` needs neither rich nor yaml, and ``games``, ``run`` and ``play``
    import nothing of the web, research, analysis or cluster stacks, nor the shared
    store's drivers (psycopg, redis) (real process)."""
    heavy = (
        "tabletop.web", "starlette", "uvicorn", "websockets",
        "tabletop.bridges", "numpy", "pettingzoo", "open_spiel", "pyspiel", "gymnasium",
        "tabletop.analysis", "matplotlib", "ray", "playwright", "psycopg", "redis",
    )  # fmt: skip
    code = (
        "import sys\n"
        "from typer.testing import CliRunner\n"
        "from tabletop.cli.app import app\n"
        "r = CliRunner()\n"
        "assert r.invoke(app, ['games']).exit_code == 0\n"
        "print(sorted(m for m in ('rich', 'yaml') if m in sys.modules))\n"
        "r.invoke(app, ['run', 'quarto', '--actions', '-'], input='give DTRH\\n')\n"
        "r.invoke(app, ['run', 'quartino', '-p', '3'], input='end\\n')\n"
        "r.invoke(app, ['play', 'quarto', '--ai', '2:1'], input='give LSRF\\nquit\\n')\n"
        f"print(sorted(m for m in sys.modules if m in {heavy!r} or m.split('.')[0] in {heavy!r}))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip().splitlines()[-2:] == ["[]", "[]"], out.stdout


def test_games_loads_its_own_command_and_no_facet_it_does_not_show() -> None:
    """``tabletop games`` imports no other command's module (each is imported when it
    runs: ``tabletop.cli.app.COMMANDS``), no match or record code and no game's encoding,
    presentation or coaching module; ``play`` without a computer seat loads no encoding
    and no agent module (issue 34, item 6; real process)."""
    code = (
        "import sys, io, contextlib\n"
        "from tabletop.cli.app import COMMANDS, main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    assert main(['games']) == 0\n"
        "others = {m for c, (m, _) in COMMANDS.items() if m not in ('tabletop.cli.games', "
        "'tabletop.cli.app')}\n"
        "print(sorted(m for m in sys.modules if m in others or m in "
        "('tabletop.core.match', 'tabletop.core.records') "
        "or m.rsplit('.', 1)[-1] in ('encoding', 'render', 'coach')))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", out.stdout
    play = (
        "import sys\n"
        "from typer.testing import CliRunner\n"
        "from tabletop.cli.app import app\n"
        "CliRunner().invoke(app, ['play', 'quarto'], input='give LSRF\\nquit\\n')\n"
        "print(sorted(m for m in sys.modules if m.rsplit('.', 1)[-1] == 'encoding'\n"
        "             or m.startswith('tabletop.agents') or '.agents' in m))\n"
    )  # no computer seat: no agent module (the agents' hook registrations are no agents)
    out = subprocess.run([sys.executable, "-c", play], capture_output=True, text=True, check=True)
    assert out.stdout.strip().splitlines()[-1] == "[]", out.stdout

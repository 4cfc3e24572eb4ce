"""The kit's layout (issue 15): small modules, no terminal libraries, the public face whole."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import tabletop.kit
import tabletop.testing

KIT = Path(tabletop.kit.__file__).parent


def _imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module.split(".")[0])
    return names


def test_no_kit_module_imports_rich_or_typer() -> None:
    """Drawing belongs to tabletop.cli; the kit is used from plugins' tests and pytest."""
    found = {
        str(path.relative_to(KIT)): sorted(_imports(path) & {"rich", "typer"})
        for path in KIT.rglob("*.py")
    }
    assert {k: v for k, v in found.items() if v} == {}


def test_kit_modules_are_small() -> None:
    sizes = {str(p.relative_to(KIT)): len(p.read_text().splitlines()) for p in KIT.rglob("*.py")}
    assert {k: n for k, n in sizes.items() if n > 400} == {}


def test_testing_exports_every_public_name() -> None:
    missing = [n for n in tabletop.testing.__all__ if not hasattr(tabletop.testing, n)]
    assert missing == []
    from tabletop.cli.check import check_command

    assert tabletop.testing.check_command is check_command


def test_importing_the_kit_loads_no_terminal_library() -> None:
    """A plugin's ``from tabletop.testing import ...`` does not load the CLI or rich."""
    code = (
        "import sys, tabletop.testing, tabletop.kit.scenarios, tabletop.kit.pytest_plugin\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in {'rich', 'typer'}"
        " or m.startswith('tabletop.cli')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"

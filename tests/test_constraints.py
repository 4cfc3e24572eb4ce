"""constraints.txt (issue 37, item 9): the versions the suite last passed with, used by the
README's test command and CI, so a dependency's new release cannot turn main red; names
and versions only."""

from __future__ import annotations

import re
from importlib.metadata import distribution
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parent.parent
PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([0-9][A-Za-z0-9.+!-]*)$")


def pins() -> dict[str, str]:
    found: dict[str, str] = {}
    for line in (ROOT / "constraints.txt").read_text(encoding="utf-8").splitlines():
        if not line or line.startswith("#"):
            continue
        match = PIN.match(line)
        assert match, f"not a plain name==version pin: {line!r}"  # no address, no path
        found[canonicalize_name(match[1])] = match[2]
    return found


def test_the_file_pins_every_direct_dependency_of_the_test_extra() -> None:
    pinned = pins()
    assert not any(name.startswith("tabletop") for name in pinned)  # our own are editable
    wanted: set[str] = set()
    for text in distribution("tabletop").requires or []:
        requirement = Requirement(text)
        if requirement.name != "tabletop":
            wanted.add(canonicalize_name(requirement.name))
    assert wanted and wanted <= set(pinned), sorted(wanted - set(pinned))


def test_the_readme_and_ci_install_with_it() -> None:
    command = (
        "pip install -c constraints.txt -e '.[test]' -e examples/connect4 "
        "-e examples/pig -e examples/goofspiel"
    )
    assert command in (ROOT / "README.md").read_text(encoding="utf-8")
    assert command in (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "tools/constraints-update" in (ROOT / "README.md").read_text(encoding="utf-8")

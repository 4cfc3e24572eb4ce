"""The plugin authors' guide, ``docs/plugins.md``, is executed: every example must run.

- ``python`` blocks run in order in one module namespace (``tabletop_plugins_guide``), each
  a test; tracebacks point at the guide's own line numbers;
- ``yaml`` blocks in the scenario format run, case by case, against the games the guide
  registered (its ``games`` registry); other YAML must at least load;
- ``toml`` blocks must parse, and an entry point in the ``tabletop`` group must name a
  ``.plugin`` module;
- ``console`` blocks may only use ``tabletop`` commands that exist.

The guide must also cover the topics of its issue and name every method of the contract
and every hook.
"""

from __future__ import annotations

import re
import sys
import tomllib
import types
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml

from tabletop import hookspecs
from tabletop.cli.app import COMMANDS
from tabletop.core.registry import Registry
from tabletop.game import Game
from tabletop.kit.scenarios import load_text, run_case

GUIDE = Path(__file__).resolve().parent.parent / "docs" / "plugins.md"
FENCE = re.compile(r"^```(\w*)[^\n]*\n(.*?)^```[ \t]*$", re.MULTILINE | re.DOTALL)
MODULE = "tabletop_plugins_guide"


@dataclass(frozen=True)
class Block:
    """A fenced block of the guide: its language, text and first line (1-based)."""

    lang: str
    text: str
    line: int

    @property
    def id(self) -> str:
        return f"{self.lang or 'text'}-line-{self.line}"


def blocks() -> list[Block]:
    text = GUIDE.read_text(encoding="utf-8")
    found = []
    for match in FENCE.finditer(text):
        line = text.count("\n", 0, match.start(2)) + 1
        found.append(Block(match.group(1), match.group(2), line))
    return found


EXECUTED = [b for b in blocks() if b.lang in ("python", "yaml")]


class GuideState:
    """The guide's namespace, shared by its blocks, and whether a block has failed."""

    def __init__(self) -> None:
        self.module = types.ModuleType(MODULE)
        self.failed: str | None = None


@pytest.fixture(scope="module")
def guide() -> Iterator[GuideState]:
    state = GuideState()
    sys.modules[MODULE] = state.module
    try:
        yield state
    finally:
        del sys.modules[MODULE]


def run_python(block: Block, namespace: dict[str, Any]) -> None:
    # Padding with newlines makes tracebacks show the guide's own line numbers.
    code = compile("\n" * (block.line - 1) + block.text, str(GUIDE), "exec")
    exec(code, namespace)


def run_yaml(block: Block, namespace: dict[str, Any]) -> None:
    if "format: tabletop-scenarios/1" not in block.text:
        yaml.safe_load(block.text)
        return
    suite = load_text(block.text, Path(f"{GUIDE}:{block.line}"))
    assert suite.error is None, suite.error
    games = namespace.get("games")
    assert isinstance(games, Registry), "a scenario block needs the guide's `games` registry"
    assert suite.cases
    for case in suite.cases:
        result = run_case(case, games)
        assert result.ok, "\n".join(result.report())


@pytest.mark.parametrize("block", EXECUTED, ids=[b.id for b in EXECUTED])
def test_guide_example_runs(block: Block, guide: GuideState) -> None:
    """Each example, in the guide's order, in the namespace the earlier ones built."""
    if guide.failed is not None:
        pytest.fail(f"not run: the example at line {guide.failed} failed first")
    guide.failed = str(block.line)
    if block.lang == "python":
        run_python(block, guide.module.__dict__)
    else:
        run_yaml(block, guide.module.__dict__)
    guide.failed = None


def test_the_guide_builds_a_real_game(guide: GuideState) -> None:
    """After all examples: the guide's game is a registered Game that passed the kit."""
    namespace = guide.module.__dict__
    if "games" not in namespace:
        pytest.skip("run with the examples (the whole file)")
    games = namespace["games"]
    assert isinstance(games, Registry) and "higher" in games.ids()
    assert isinstance(games.get("higher"), Game)
    assert namespace["report"].ok is False  # the last report is the leaky game's


def test_toml_blocks_parse_and_name_a_plugin_module() -> None:
    tomls = [b for b in blocks() if b.lang == "toml"]
    assert tomls
    for block in tomls:
        data = tomllib.loads(block.text)
        entry_points = data.get("project", {}).get("entry-points", {}).get("tabletop", {})
        for name, module in entry_points.items():
            assert re.fullmatch(r"[a-z][a-z0-9_]*", name)
            assert module == f"tabletop_{name}.plugin", (name, module)


def test_console_blocks_use_real_commands() -> None:
    commands = set(COMMANDS)
    used = []
    for block in blocks():
        if block.lang != "console":
            continue
        for line in block.text.splitlines():
            words = line.split()
            if words[:1] == ["tabletop"]:
                used.append(words[1])
    assert used
    assert set(used) <= commands, set(used) - commands


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def test_the_contents_links_lead_to_headings() -> None:
    text = GUIDE.read_text(encoding="utf-8")
    anchors = {slug(line.lstrip("#")) for line in text.splitlines() if line.startswith("#")}
    links = re.findall(r"\]\(#([^)]+)\)", text)
    assert len(links) >= 15
    assert [link for link in links if link not in anchors] == []


TOPICS = [
    "the game contract",
    "the hook",
    "options",
    "views and hidden information",
    "notation",
    "randomness and seeds",
    "agents and levels",
    "scenario files",
    "the conformance kit",
    "golden games",
    "versioning a game when its rules change",
    "publishing",
]


def test_the_guide_covers_every_topic_of_its_issue() -> None:
    headings = [
        line.lstrip("#").strip().lower()
        for line in GUIDE.read_text(encoding="utf-8").splitlines()
        if line.startswith("## ")
    ]
    missing = [t for t in TOPICS if not any(t in heading for heading in headings)]
    assert missing == []


def test_the_guide_names_every_method_of_the_contract_and_every_hook() -> None:
    text = GUIDE.read_text(encoding="utf-8")
    methods = [
        name for name, value in vars(Game).items() if callable(value) and not name.startswith("_")
    ]
    assert len(methods) >= 15  # the rules (issue 34): the rest are facets
    assert [m for m in methods if f"`{m}" not in text] == []
    # and every name of every facet's Protocol (issue 34)
    from tabletop.agents.facet import Players
    from tabletop.bridges.facet import Encoding
    from tabletop.coach.facet import Coaching
    from tabletop.core.presentation import Presentation

    facets = [Encoding, Players, Coaching, Presentation]
    names = [n for p in facets for n in vars(p) if not n.startswith("_") and callable(vars(p)[n])]
    assert len(names) >= 19
    assert [n for n in names if f"`{n}" not in text] == []
    hooks = [name for name, value in vars(hookspecs).items() if hasattr(value, "tabletop_spec")]
    assert hooks and [h for h in hooks if f"`{h}" not in text] == []

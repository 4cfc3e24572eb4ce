"""The research guide, ``docs/research.md``, is executed: its Python blocks run in
order in one namespace, each a test (tracebacks point at the guide's own lines)."""

from __future__ import annotations

import re
import sys
import types
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("pyspiel")
pytest.importorskip("gymnasium")

GUIDE = Path(__file__).resolve().parent.parent / "docs" / "research.md"
FENCE = re.compile(r"^```python\n(.*?)^```[ \t]*$", re.MULTILINE | re.DOTALL)
MODULE = "tabletop_research_guide"


def _blocks() -> list[tuple[int, str]]:
    text = GUIDE.read_text(encoding="utf-8")
    return [(text.count("\n", 0, m.start(1)) + 1, m.group(1)) for m in FENCE.finditer(text)]


BLOCKS = _blocks()


@pytest.fixture(scope="module")
def namespace() -> Iterator[dict[str, object]]:
    module = types.ModuleType(MODULE)
    sys.modules[MODULE] = module
    module.__dict__["_failed"] = None
    try:
        yield module.__dict__
    finally:
        del sys.modules[MODULE]


@pytest.mark.parametrize(("line", "code"), BLOCKS, ids=[f"line-{line}" for line, _ in BLOCKS])
def test_research_guide_example_runs(line: int, code: str, namespace: dict[str, object]) -> None:
    if namespace["_failed"] is not None:
        pytest.fail(f"not run: the example at line {namespace['_failed']} failed first")
    namespace["_failed"] = line
    exec(compile("\n" * (line - 1) + code, str(GUIDE), "exec"), namespace)
    namespace["_failed"] = None


def test_the_guide_has_examples_for_each_bridge() -> None:
    text = "\n".join(code for _, code in BLOCKS)
    for name in ("openspiel.register", "ISMCTSBot", "SampledBot", "pettingzoo", "SingleAgentEnv"):
        assert name in text

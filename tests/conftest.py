"""Suite-wide rules: in CI (``CI=true``) no test may be skipped. Also the browser tests'
shared fixtures, ``browser`` and ``server`` (``tests/browser_support.py``).

Browser, server and Ray tests start what they need themselves; outside CI a missing
Chromium (``apt-get install chromium``) or extra skips them with the reason, but CI
installs everything (``.ci/run``), so a skip there means a missing install step and fails
the run.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from playwright.sync_api import Browser

SKIPPED: list[str] = []


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """Remember every skipped test."""
    if report.skipped:
        SKIPPED.append(report.nodeid)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """In CI, a skipped test fails the run."""
    if os.environ.get("CI", "").lower() in {"1", "true", "yes"} and SKIPPED:
        print(f"\nCI: {len(SKIPPED)} test(s) skipped, which CI does not allow:")
        for nodeid in SKIPPED:
            print(f"  {nodeid}")
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """Debian's Chromium for a test module (``tests/browser_support.py``)."""
    from tests.browser_support import chromium

    with chromium() as launched:
        yield launched


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    """A ``tabletop serve`` process on a fresh database for one test; its base URL. A
    module with other needs (another scope, flags) defines its own ``server``."""
    from tests.browser_support import served

    with served(tmp_path / "m.sqlite3") as base:
        yield base

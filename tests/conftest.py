"""Suite-wide rules: in CI (``CI=true``) no test may be skipped.

Browser, server and Ray tests start what they need themselves; outside CI a missing
Chromium (``apt-get install chromium``) or extra skips them with the reason, but CI
installs everything (``.ci/run``), so a skip there means a missing install step and fails
the run.
"""

from __future__ import annotations

import os

import pytest

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

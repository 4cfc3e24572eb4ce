"""Suite-wide rules: in CI (``CI=true``) no test may be skipped. Also the browser tests'
shared fixtures, ``browser`` and ``server`` (``tests/browser_support.py``).

Browser, server and Ray tests start what they need themselves; outside CI a missing
Chromium (``apt-get install chromium``) or extra skips them with the reason, but CI
installs everything (``.ci/run``), so a skip there means a missing install step and fails
the run.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from playwright.sync_api import Browser

# A plugin of the old shape, for tests/test_old_shape.py (issue 34): its scenario file is
# run by that test with the plugin registered, not collected among the installed games'.
collect_ignore = ["old-shape"]

SKIPPED: list[str] = []

# `tabletop games` keeps a cache of the catalogue (tabletop/cli/catalogue_cache.py): the
# suite's commands keep theirs here, never in the user's ~/.cache
os.environ["TABLETOP_CACHE_DIR"] = tempfile.mkdtemp(prefix="tabletop-tests-cache-")


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """Remember every skipped test."""
    if report.skipped:
        SKIPPED.append(report.nodeid)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """In CI, a skipped test fails the run. The suite's catalogue cache is removed."""
    shutil.rmtree(os.environ["TABLETOP_CACHE_DIR"], ignore_errors=True)
    if os.environ.get("CI", "").lower() in {"1", "true", "yes"} and SKIPPED:
        print(f"\nCI: {len(SKIPPED)} test(s) skipped, which CI does not allow:")
        for nodeid in SKIPPED:
            print(f"  {nodeid}")
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


# -- throwaway PostgreSQL and Redis (tests/db_servers.py), started once a session ----------
_databases = iter(range(1, 10**6))


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[str]:
    """A PostgreSQL cluster of the session (its ``postgres`` database's URL)."""
    from tests import db_servers

    if not db_servers.have_postgres():
        pytest.skip("PostgreSQL is not installed (apt-get install postgresql)")
    pytest.importorskip("psycopg")
    with db_servers.postgres_cluster() as url:
        yield url


@pytest.fixture
def pg_url(pg_cluster: str) -> str:
    """A new empty database of the session's cluster, for one test."""
    from tests import db_servers

    return db_servers.new_database(pg_cluster, f"t{next(_databases)}")


@pytest.fixture(scope="session")
def redis_server() -> Iterator[Any]:
    """A redis-server of the session (``.url``; ``.stop()``/``.start()`` for an outage)."""
    from tests import db_servers

    if not db_servers.have_redis():
        pytest.skip("Redis is not installed (apt-get install redis-server)")
    pytest.importorskip("redis")
    server = db_servers.RedisServer()
    server.start()
    try:
        yield server
    finally:
        server.close()


# -- the browser tests (tests/browser_support.py) --------------------------------------
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

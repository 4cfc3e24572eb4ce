"""The server's log: one line for what is expected to fail now and then (a store that
refuses, a database away), a traceback only for what is a bug."""

from __future__ import annotations

import logging
import sqlite3

from tabletop.core.errors import one_line


def is_store_failure(exc: BaseException) -> bool:
    """A database's or a disk's refusal (SQLite, PostgreSQL, the OS, the store's own
    errors), as opposed to a bug."""
    from tabletop.web.store import StoreError

    if isinstance(exc, (sqlite3.Error, OSError, StoreError)):
        return True
    return type(exc).__module__.split(".")[0] in ("psycopg", "psycopg_pool", "redis")


def failed(log: logging.Logger, what: str, exc: BaseException) -> None:
    """``what`` failed because of ``exc``: one line for a store failure, else with the
    traceback (a bug the operator should report)."""
    if is_store_failure(exc):
        log.error("%s: %s", what, one_line(str(exc)) or type(exc).__name__)
    else:
        log.error("%s", what, exc_info=exc)

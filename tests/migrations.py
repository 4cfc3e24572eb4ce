"""Databases of an older schema, opened by the server's check, which migrates them: the
SQLite store and PostgreSQL, each table added after the first release tested so."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any


def without_table(schema: str, table: str) -> str:
    """``schema`` (SQL statements) without the ``CREATE TABLE IF NOT EXISTS table``."""
    start = schema.index(f"CREATE TABLE IF NOT EXISTS {table}")
    return schema.replace(schema[start:].split(";")[0] + ";", "")


def postgres_migrated(url: str, before: str, version: int, table: str) -> tuple[Any, Any]:
    """A PostgreSQL database made by the schema text ``before`` at ``version``, then
    opened by the server's check (which migrates it): its version and ``table``'s rows."""
    import psycopg

    from tabletop.web import postgres

    assert f"EXISTS {table} " not in before
    with psycopg.connect(url, autocommit=True) as conn:
        for part in before.split(";"):
            if part.strip():
                conn.execute(part)
        conn.execute("CREATE TABLE schema_version (version INTEGER)")
        conn.execute("INSERT INTO schema_version VALUES (%s)", (version,))
    postgres.check(url)
    with psycopg.connect(url, autocommit=True) as conn:
        found = conn.execute("SELECT version FROM schema_version").fetchone()
        return found, conn.execute(f"SELECT count(*) FROM {table}").fetchone()


def sqlite_migrated(path: Path, table: str, version: int) -> tuple[Any, Any]:
    """A SQLite store made by the schema up to ``table`` at ``version`` (``user_version``),
    then opened by the store's check: its version and ``table``'s rows."""
    from tabletop.web import store

    before = store.SCHEMA.split(f"CREATE TABLE IF NOT EXISTS {table}")[0]
    db = sqlite3.connect(path)
    db.executescript(before + store.CHAT_SCHEMA + f"PRAGMA user_version={version};")
    db.close()
    store.check(path)
    db = sqlite3.connect(path)
    try:
        found = db.execute("PRAGMA user_version").fetchone()[0]
        return found, db.execute(f"SELECT count(*) FROM {table}").fetchone()
    finally:
        db.close()

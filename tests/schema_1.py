"""A results database of schema 1, for the tests that read and upgrade old databases.

Schema 1 as twinsolve wrote it before runs were keyed by file and limits (git
1321e89..ce68896): the key was the board, back-end, options and seed; the path
was the file as reached.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

__all__ = ["SCHEMA_1", "schema_1_database"]

SCHEMA_1 = """
CREATE TABLE sessions (id INTEGER PRIMARY KEY, started TEXT, twinsolve TEXT, git_commit TEXT,
    python TEXT, ortools TEXT, python_sat TEXT, host TEXT, cpu TEXT, platform TEXT, argv TEXT,
    jobs INTEGER, timeout_s REAL, memory_mb INTEGER, executor TEXT);
CREATE TABLE runs (id INTEGER PRIMARY KEY, session_id INTEGER REFERENCES sessions(id),
    instance_hash TEXT NOT NULL, backend TEXT NOT NULL, options TEXT NOT NULL,
    seed INTEGER NOT NULL, instance_path TEXT NOT NULL, puzzle TEXT NOT NULL,
    backend_spec TEXT NOT NULL, status TEXT NOT NULL, objective INTEGER, is_unique INTEGER,
    count TEXT, verified INTEGER, wall_s REAL, cpu_s REAL, build_s REAL, solve_s REAL,
    nodes INTEGER, stats TEXT, message TEXT, solution TEXT, metadata TEXT, timeout_s REAL,
    memory_mb INTEGER, finished TEXT DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    UNIQUE (instance_hash, backend, options, seed));
"""


def schema_1_database(path: Path, rows: str = "") -> Path:
    """A schema-1 database at `path` holding what the SQL `rows` insert."""
    with sqlite3.connect(path) as connection:
        connection.executescript(SCHEMA_1 + rows)
    connection.close()
    return path

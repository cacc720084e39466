"""The benchmark database: SQLite, one row per run, written by the coordinator only.

A run is keyed by (instance content hash, back-end, back-end options, seed):
the same instance under another path is the same run, and rerunning a suite
skips every key already stored (resume). Each run is inserted and committed
in its own transaction, so killing the harness at any moment, even with
`kill -9`, loses at most the runs in flight and never leaves a half-written
row; the UNIQUE key makes a duplicate impossible. Stats, solution and
instance metadata are kept as JSON text. Counts are stored as text, since
they can exceed 64 bits.

The `sessions` table records provenance for every invocation that ran
something: versions, git commit, host, CPU, start time, the command line.

A file that is not a twinsolve results database, or a stored row that does
not decode, is a one-line `UsageError`, never a traceback. Reports open the
database with `Store.open_read_only`: never created, never changed (not
SQLite's `mode=ro`, which cannot tidy away the -wal and -shm files of a WAL
database when it closes; `query_only` refuses writes instead).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from ..core.errors import UsageError
from ..core.result import Status
from .records import RunRecord

__all__ = ["Store", "RunKey"]

RunKey = tuple[str, str, str, int]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS sessions (
    id INTEGER PRIMARY KEY,
    started TEXT, twinsolve TEXT, git_commit TEXT, python TEXT, ortools TEXT,
    python_sat TEXT, host TEXT, cpu TEXT, platform TEXT, argv TEXT,
    jobs INTEGER, timeout_s REAL, memory_mb INTEGER, executor TEXT
);
CREATE TABLE IF NOT EXISTS runs (
    id INTEGER PRIMARY KEY,
    session_id INTEGER REFERENCES sessions(id),
    instance_hash TEXT NOT NULL, backend TEXT NOT NULL, options TEXT NOT NULL,
    seed INTEGER NOT NULL,
    instance_path TEXT NOT NULL, puzzle TEXT NOT NULL, backend_spec TEXT NOT NULL,
    status TEXT NOT NULL, objective INTEGER, is_unique INTEGER, count TEXT,
    verified INTEGER, wall_s REAL, cpu_s REAL, build_s REAL, solve_s REAL, nodes INTEGER,
    stats TEXT, message TEXT, solution TEXT, metadata TEXT, timeout_s REAL, memory_mb INTEGER,
    finished TEXT DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    UNIQUE (instance_hash, backend, options, seed)
);
"""

_COLUMNS = ("session_id", "instance_hash", "backend", "options", "seed", "instance_path",
            "puzzle", "backend_spec", "status", "objective", "is_unique", "count", "verified",
            "wall_s", "cpu_s", "build_s", "solve_s", "nodes", "stats", "message", "solution",
            "metadata", "timeout_s", "memory_mb")


# A database missing any of these was not written by twinsolve.
_REQUIRED = {
    "runs": frozenset({"id", "session_id", "instance_hash", "backend", "options", "seed",
                       "instance_path", "puzzle", "backend_spec", "status", "objective",
                       "is_unique", "count", "verified", "wall_s", "cpu_s", "nodes", "stats",
                       "message", "solution", "metadata", "timeout_s"}),
    "sessions": frozenset({"id", "started", "argv"}),
}


def _not_ours(path: Path, why: str) -> UsageError:
    return UsageError(f"{path}: not a twinsolve results database ({why})")


def _unreadable(path: Path, exc: sqlite3.Error) -> UsageError:
    if "not a database" in str(exc) or "malformed" in str(exc):
        return _not_ours(path, str(exc))
    return UsageError(f"{path}: cannot use the results database ({exc})")


def _check_schema(db: sqlite3.Connection, path: Path) -> None:
    for table, needed in _REQUIRED.items():
        have = {row[1] for row in db.execute(f"PRAGMA table_info({table})")}
        if not have:
            raise _not_ours(path, f"no '{table}' table")
        missing = sorted(needed - have)
        if missing:
            raise _not_ours(path, f"'{table}' lacks column {missing[0]!r}")


def _bool(value: bool | None) -> int | None:
    return None if value is None else int(value)


class Store:
    """The results database, created if missing (the harness's view)."""

    def __init__(self, path: str | Path, connection: sqlite3.Connection | None = None) -> None:
        self.path = Path(path)
        if connection is not None:
            self.db = connection
            return
        if self.path.exists() and not self.path.is_file():
            raise UsageError(f"{self.path}: not a file (expected a results database)")
        try:
            # each insert commits on its own (one run = one transaction)
            self.db = sqlite3.connect(str(self.path), timeout=30)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")
            self.db.executescript(_SCHEMA)
            self.db.commit()
            _check_schema(self.db, self.path)
        except sqlite3.Error as exc:
            raise _unreadable(self.path, exc) from None

    @classmethod
    def open_read_only(cls, path: str | Path) -> Store:
        """An existing results database on a connection that refuses every write."""
        path = Path(path)
        if not path.exists():
            raise UsageError(f"{path}: no such results database")
        if not path.is_file():
            raise UsageError(f"{path}: not a file (expected a results database from "
                             "'twinsolve bench --db FILE')")
        try:
            db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=rw", uri=True)
        except sqlite3.Error as exc:
            raise _unreadable(path, exc) from None
        try:
            db.execute("PRAGMA query_only = ON")
            _check_schema(db, path)
        except (sqlite3.Error, UsageError) as exc:
            db.close()
            if isinstance(exc, UsageError):
                raise
            raise _unreadable(path, exc) from None
        return cls(path, db)

    @contextmanager
    def reading(self) -> Iterator[None]:
        """One read transaction: everything read inside sees the same snapshot."""
        try:
            self.db.execute("BEGIN")
            yield
        except sqlite3.Error as exc:
            raise _unreadable(self.path, exc) from None
        finally:
            if self.db.in_transaction:
                self.db.rollback()

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def start_session(self, info: dict[str, Any]) -> int:
        keys = [k for k in info if k != "id"]
        with self.db:
            cursor = self.db.execute(
                f"INSERT INTO sessions ({', '.join(keys)}) VALUES ({', '.join('?' * len(keys))})",
                [info[k] for k in keys])
        return int(cursor.lastrowid)

    def done_keys(self) -> set[RunKey]:
        rows = self.db.execute("SELECT instance_hash, backend, options, seed FROM runs")
        return {(h, b, o, int(s)) for h, b, o, s in rows}

    def add(self, session_id: int, key: RunKey, record: RunRecord, timeout_s: float | None,
            memory_mb: int | None) -> bool:
        """Insert one run in its own transaction; False if the key was already stored."""
        instance_hash, backend, options, seed = key
        stats = record.stats
        values = (session_id, instance_hash, backend, options, seed, record.path, record.puzzle,
                  record.backend, record.status.value, record.objective, _bool(record.unique),
                  None if record.count is None else str(record.count), _bool(record.verified),
                  record.wall_s, record.cpu_s, stats.get("build_s"), stats.get("solve_s"),
                  stats.get("nodes"), json.dumps(stats), record.message,
                  None if record.solution is None else json.dumps(record.solution),
                  json.dumps(record.metadata), timeout_s, memory_mb)
        with self.db:
            cursor = self.db.execute(
                f"INSERT OR IGNORE INTO runs ({', '.join(_COLUMNS)}) "
                f"VALUES ({', '.join('?' * len(_COLUMNS))})", values)
        return cursor.rowcount == 1

    def records(self, keys: Iterable[RunKey] | None = None) -> list[RunRecord]:
        """Stored runs as records (all of them, or those with the given keys)."""
        return list(self.records_by_key(keys).values())

    def records_by_key(self, keys: Iterable[RunKey] | None = None) -> dict[RunKey, RunRecord]:
        wanted = None if keys is None else set(keys)
        out = {}
        for row in self._rows():
            key = (row["instance_hash"], row["backend"], row["options"], int(row["seed"]))
            if wanted is None or key in wanted:
                try:
                    out[key] = _record(row)
                except (ValueError, TypeError) as exc:  # a bad status or JSON in the row
                    raise UsageError(f"{self.path}: stored run {row['id']} cannot be read "
                                     f"({exc})") from None
        return out

    def _rows(self) -> Iterator[sqlite3.Row]:
        self.db.row_factory = sqlite3.Row
        try:
            yield from self.db.execute("SELECT * FROM runs ORDER BY id")
        finally:
            self.db.row_factory = None

    def sessions(self) -> list[dict[str, Any]]:
        self.db.row_factory = sqlite3.Row
        try:
            return [dict(r) for r in self.db.execute("SELECT * FROM sessions ORDER BY id")]
        finally:
            self.db.row_factory = None


def _record(row: sqlite3.Row) -> RunRecord:
    unique = row["is_unique"]
    verified = row["verified"]
    return RunRecord(
        path=row["instance_path"], puzzle=row["puzzle"], backend=row["backend_spec"],
        status=Status(row["status"]), objective=row["objective"],
        unique=None if unique is None else bool(unique),
        count=None if row["count"] is None else int(row["count"]),
        verified=None if verified is None else bool(verified), wall_s=row["wall_s"] or 0.0,
        stats=json.loads(row["stats"] or "{}"), message=row["message"],
        metadata=json.loads(row["metadata"] or "{}"),
        solution=None if row["solution"] is None else json.loads(row["solution"]),
        cpu_s=row["cpu_s"], seed=int(row["seed"]), instance_hash=row["instance_hash"],
        timeout_s=row["timeout_s"],
    )

"""The benchmark database: SQLite, one row per run, written by the coordinator only.

What a run is. A stored run is keyed by everything that decides its outcome
(`RunKey`): the task (`task_hash`, the instance's content hash including its
metadata, and `task_path`, its path relative to the suite root), the back-end
name and its options (canonical JSON), the seed, and the limits it ran under
(`limits`: canonical JSON of timeout, memory, unique, count). Rerunning a suite
skips every key already stored (resume); the same board under other limits, or
in another file with other metadata, is another run. Two files holding the same
board under the same back-end and limits may share one answer: the second is
stored as its own run with `reused_from` naming the run it copies.

Sessions and plans. Every `twinsolve bench` invocation is a session (provenance:
versions, git commit, host, CPU, start time, the command line, the limits) and
records its plan: the `plan` table links the session to every run it asked for,
run now or stored earlier, so a report can show exactly one invocation's runs.
`invalid` lists the files a session skipped (`--skip-invalid`) and why.

Crash safety. Each run is inserted with its plan row in one transaction, so
killing the harness at any moment, even with `kill -9`, loses at most the runs
in flight and never leaves a half-written row; UNIQUE (session, key) makes a
duplicate within a session impossible (`--fresh` runs a key again in a new
session, keeping the old run as history).

Measurements and noise. Each run stores its wall time, its CPU time, the
peak memory it added to its worker (`mem_mb`) and the host's load when it
started (`load`) (twinsolve.bench.records says what each measures); each
session its host's cores, memory, CPU frequency governor and load at its
start and end (twinsolve.bench.provenance).

Versions. `PRAGMA user_version` is the schema version (3). An older database
is upgraded in place when the harness opens it, in one transaction, and its
runs resume as they were: schema 2 (no measurements of memory and load) gets
the new columns, empty for its runs (`_ADDED`); schema 1 (runs keyed by
board, back-end, options and seed only) is first rewritten as schema 2: its
runs get their limits from the columns they had and an empty `task_path`:
their key named no file.
Such a run is the run of every file with its content (board and metadata),
back-end, options, seed and limits, as it was then, so a suite that plans it
resumes it (`upgraded`): the first file of the plan whose path ends its stored
path, else its first such file, takes it on (`adopt` writes that file's
`task_path` into it), and the other files share its answer. Nothing is run
again and every task counts once. Reports never write: they read a schema-2
database as it is (its missing measurements empty) and upgrade a copy of a
schema-1 one in memory.

Opening. Every database a user hands over is checked before anything is
written to it, and refused with one line naming it: a folder, a named pipe,
a device, an empty file, a file that is not SQLite, one shorter than its
header says (truncated), a damaged one (SQLite's `quick_check`: the page
structure of every table and index; on 5,000 runs, 6 MB, 10 ms from the page
cache and 0.1 s from disk; on 5,000 runs with large solutions, 300 MB, 0.09 s
and 0.4 s), a foreign SQLite database, one of a newer
schema, and for the harness a read-only file or folder. A refused file is left
byte for byte as it was. A symlink is followed: the database is its target.
A new database is made whole in a temporary file beside it and linked into
place, so a database file is never empty or half-made. The harness also
reads every stored run it resumes or shares before it writes (its suite
module), so a row that no longer decodes refuses the database unchanged. A
stored row that does not decode in a report is the same one-line
`UsageError`, never a traceback. Reports open the database with
`ResultsDatabase.open_read_only`: never created, never changed, not even by copying
the -wal file a killed bench left into it (`_connect_read_only`).
"""

from __future__ import annotations

import hashlib
import json
import os
import secrets
import sqlite3
import stat
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from ..core.errors import UsageError
from ..core.result import Status
from ..core.run import file_problem
from ..core.sources import printable
from .records import RunRecord

__all__ = ["ResultsDatabase", "RunKey", "SCHEMA_VERSION", "RUN_COLUMNS", "task_hash", "limits_key"]

SCHEMA_VERSION = 3

# (task_hash, task_path, backend, options, seed, limits)
RunKey = tuple[str, str, str, str, int, str]
_KEY = ("task_hash", "task_path", "backend", "options", "seed", "limits")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS sessions (
    id INTEGER PRIMARY KEY,
    started TEXT, twinsolve TEXT, git_commit TEXT, python TEXT, ortools TEXT,
    python_sat TEXT, host TEXT, cpu TEXT, platform TEXT, argv TEXT,
    jobs INTEGER, timeout_s REAL, memory_mb INTEGER, executor TEXT, fresh INTEGER DEFAULT 0,
    cores INTEGER, governor TEXT, load_start REAL, load_end REAL, ram_mb INTEGER
);
CREATE TABLE IF NOT EXISTS runs (
    id INTEGER PRIMARY KEY,
    session_id INTEGER REFERENCES sessions(id),
    task_hash TEXT NOT NULL, task_path TEXT NOT NULL, backend TEXT NOT NULL,
    options TEXT NOT NULL, seed INTEGER NOT NULL, limits TEXT NOT NULL,
    instance_hash TEXT NOT NULL, instance_path TEXT NOT NULL, puzzle TEXT NOT NULL,
    backend_spec TEXT NOT NULL,
    status TEXT NOT NULL, objective INTEGER, is_unique INTEGER, count TEXT,
    verified INTEGER, wall_s REAL, cpu_s REAL, build_s REAL, solve_s REAL, nodes INTEGER,
    stats TEXT, message TEXT, solution TEXT, metadata TEXT, timeout_s REAL, memory_mb INTEGER,
    reused_from INTEGER REFERENCES runs(id),
    finished TEXT DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    mem_mb REAL, load REAL,
    UNIQUE (session_id, task_hash, task_path, backend, options, seed, limits)
);
CREATE INDEX IF NOT EXISTS runs_by_key ON runs (task_hash, task_path, backend, options, seed,
                                               limits);
CREATE INDEX IF NOT EXISTS runs_by_board ON runs (instance_hash, backend, options, seed, limits);
CREATE TABLE IF NOT EXISTS plan (
    session_id INTEGER NOT NULL REFERENCES sessions(id),
    run_id INTEGER NOT NULL REFERENCES runs(id),
    PRIMARY KEY (session_id, run_id)
);
CREATE TABLE IF NOT EXISTS invalid (
    id INTEGER PRIMARY KEY,
    session_id INTEGER NOT NULL REFERENCES sessions(id),
    message TEXT NOT NULL
);
"""

_COLUMNS = ("session_id", *_KEY, "instance_hash", "instance_path", "puzzle", "backend_spec",
            "status", "objective", "is_unique", "count", "verified", "wall_s", "cpu_s",
            "build_s", "solve_s", "nodes", "stats", "message", "solution", "metadata",
            "timeout_s", "memory_mb", "reused_from", "mem_mb", "load")

# The runs table's columns in table order, as a report shows them whatever the schema.
RUN_COLUMNS = ("id", *_COLUMNS[:-2], "finished", *_COLUMNS[-2:])

# The columns each later schema added, with their types: an older database gets them
# (empty for its runs) when the harness upgrades it.
_ADDED = {
    "sessions": (("fresh", "INTEGER DEFAULT 0"), ("cores", "INTEGER"), ("governor", "TEXT"),
                 ("load_start", "REAL"), ("load_end", "REAL"), ("ram_mb", "INTEGER")),
    "runs": (("mem_mb", "REAL"), ("load", "REAL")),
}

_IDS_PER_QUERY = 500  # under SQLite's oldest limit of 999 parameters per statement

# A database missing any of these was not written by twinsolve (schema 1 or 2).
_REQUIRED = {
    "runs": frozenset({"id", "session_id", "instance_hash", "backend", "options", "seed",
                       "instance_path", "puzzle", "backend_spec", "status", "objective",
                       "is_unique", "count", "verified", "wall_s", "cpu_s", "nodes", "stats",
                       "message", "solution", "metadata", "timeout_s"}),
    "sessions": frozenset({"id", "started", "argv"}),
}


def task_hash(instance_hash: str, metadata: dict[str, str]) -> str:
    """A task's identity: the board's hash and its metadata (order-free), hashed together.

    Built from the stored board hash and metadata so that a schema-1 database,
    which kept exactly those, upgrades to the same identities a new plan computes.
    """
    text = json.dumps([instance_hash, sorted(metadata.items())], ensure_ascii=True)
    return hashlib.sha256(text.encode("ascii")).hexdigest()


def limits_key(timeout: float | None, memory_mb: int | None, unique: bool,
               count: bool) -> str:
    """The limits a run ran under, as the canonical JSON text that is part of its key.

    The timeout is written as a float, as the CLI gives it, so `Budget(timeout=10)` from
    the API and `--timeout 10` are one key (`10.0`), not two.
    """
    seconds = None if timeout is None else float(timeout)
    return json.dumps({"count": bool(count), "memory_mb": memory_mb, "timeout": seconds,
                       "unique": bool(unique)}, sort_keys=True)


def _clean(value: Any) -> Any:
    """Text SQLite can store: lone surrogates (undecodable file names, bad JSON keys)
    are written as backslash escapes instead of failing the insert."""
    return printable(value) if isinstance(value, str) else value


# What a damaged file can raise: SQLite's errors, and text in a broken page that is not
# UTF-8 (the sqlite3 module decodes every TEXT value it reads).
_DB_ERRORS = (sqlite3.Error, UnicodeDecodeError)

# What SQLite says of a file whose pages are broken (a flipped bit, a cut-off end).
_DAMAGE_WORDS = ("not a database", "malformed", "could not decode", "corrupt")


def _not_ours(path: Path, why: str) -> UsageError:
    return UsageError(f"{path}: not a twinsolve results database ({why})")


def _damaged(path: Path, detail: str) -> UsageError:
    # quick_check's verdict can span lines ("*** in database main ***\nPage 3: ...")
    lines = [line.strip() for line in detail.splitlines()
             if line.strip() and not line.startswith("***")]
    return UsageError(f"{path}: damaged results database ({'; '.join(lines)[:200]})")


def _unreadable(path: Path, exc: Exception) -> UsageError:
    if isinstance(exc, UnicodeDecodeError):
        return _damaged(path, "text that is not UTF-8")
    text = str(exc)
    if any(word in text.lower() for word in _DAMAGE_WORDS):
        # "Could not decode to UTF-8 column 'x' with text '...'": the column, not the bytes
        return _damaged(path, text.split(" with text ")[0])
    if "readonly" in text or "read-only" in text:
        return UsageError(f"{path}: results database is read-only ({text}); give "
                          "'--db' a file you may write")
    return UsageError(f"{path}: cannot use the results database ({text})")


def _columns(db: sqlite3.Connection, table: str) -> set[str]:
    return {row[1] for row in db.execute(f"PRAGMA table_info({table})")}


def _check_health(db: sqlite3.Connection, path: Path) -> None:
    """Refuse a damaged database before anything reads its rows or writes to it.

    `quick_check` walks every page of every table and index, not whether each
    index agrees with its table (`integrity_check`: 142 ms against 30 ms on
    50,000 runs from the page cache).
    """
    (verdict,) = db.execute("PRAGMA quick_check(1)").fetchone()
    if verdict != "ok":
        raise _damaged(path, str(verdict))


def _check_schema(db: sqlite3.Connection, path: Path) -> int:
    """The schema version of a twinsolve database (1 to 3); UsageError for anything else."""
    tables = {table: _columns(db, table) for table in _REQUIRED}
    version = int(db.execute("PRAGMA user_version").fetchone()[0])
    if version > SCHEMA_VERSION and all(tables.values()):
        raise UsageError(f"{path}: results database of schema {version}, made by a newer "
                         f"twinsolve (this one reads schema {SCHEMA_VERSION} and older)")
    for table, needed in _REQUIRED.items():
        if not tables[table]:
            raise _not_ours(path, f"no '{table}' table")
        missing = sorted(needed - tables[table])
        if missing:
            raise _not_ours(path, f"'{table}' lacks column {missing[0]!r}")
    return version if version else (2 if "task_hash" in tables["runs"] else 1)


def _check(db: sqlite3.Connection, path: Path) -> int:
    """The schema version of a sound twinsolve database; UsageError for anything else."""
    _check_health(db, path)
    return _check_schema(db, path)


def _checked(path: Path) -> int:
    """`_check` on a connection that writes nothing, closed again: a refused file stays
    as it was, even one with a -wal file beside it (`_connect_read_only`)."""
    db = _connect_read_only(path)
    try:
        return _check(db, path)
    except _DB_ERRORS as exc:
        raise _unreadable(path, exc) from None
    finally:
        db.close()


def _upgrade(db: sqlite3.Connection, version: int) -> int:
    """Bring a database of an older schema to this one in the open transaction; return
    how many runs it keeps (all of them)."""
    if version == 1:
        _upgrade_from_1(db)
    for table, added in _ADDED.items():
        present = _columns(db, table)
        for name, kind in added:
            if name not in present:
                db.execute(f"ALTER TABLE {table} ADD COLUMN {name} {kind}")
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
    return int(db.execute("SELECT COUNT(*) FROM runs").fetchone()[0])


def _upgrade_from_1(db: sqlite3.Connection) -> None:
    """Rewrite a schema-1 runs table as the current one in the open transaction; runs kept
    (`_upgrade` adds the sessions' newer columns)."""
    db.execute("ALTER TABLE runs RENAME TO runs_v1")
    for statement in _SCHEMA.split(";"):  # not executescript: it would commit first
        if statement.strip():
            db.execute(statement)
    db.row_factory = sqlite3.Row
    try:
        old = list(db.execute("SELECT * FROM runs_v1 ORDER BY id"))
    finally:
        db.row_factory = None
    for row in old:
        metadata = json.loads(row["metadata"] or "{}")
        memory = row["memory_mb"] if "memory_mb" in row.keys() else None
        limits = limits_key(row["timeout_s"], memory, row["is_unique"] is not None,
                            row["count"] is not None)
        values = {name: row[name] for name in row.keys() if name in _COLUMNS or name in
                  ("id", "finished")}
        # task_path '': the old key named no file (`ResultsDatabase.upgraded` resumes it)
        values.update(task_hash=task_hash(row["instance_hash"], metadata), task_path="",
                      limits=limits)
        names = list(values)
        db.execute(f"INSERT INTO runs ({', '.join(names)}) VALUES "
                   f"({', '.join('?' * len(names))})", [values[n] for n in names])
        db.execute("INSERT OR IGNORE INTO plan (session_id, run_id) VALUES (?, ?)",
                   (row["session_id"], row["id"]))
    db.execute("DROP TABLE runs_v1")


def _ends_with(path: str, tail: str) -> bool:
    """`tail` names `path`'s last components (`toy/a.txt` ends `/x/instances/toy/a.txt`)."""
    return path == tail or path.endswith("/" + tail)


def _bool(value: bool | None) -> int | None:
    return None if value is None else int(value)


class ResultsDatabase:
    """The results database, created if missing (the harness's view)."""

    def __init__(self, path: str | Path, connection: sqlite3.Connection | None = None) -> None:
        self.path = Path(path)
        self.upgraded_runs: int | None = None  # runs kept, when an older file was upgraded
        if connection is not None:
            self.db = connection
            return
        target = _harness_target(self.path)
        version = _checked(self.path)
        try:
            # each insert commits on its own (one run = one transaction)
            self.db = sqlite3.connect(str(target), timeout=30)
        except _DB_ERRORS as exc:
            raise _unreadable(self.path, exc) from None
        try:
            self._prepare(version)
        except _DB_ERRORS as exc:
            self.db.close()
            raise _unreadable(self.path, exc) from None
        except BaseException:
            self.db.close()
            raise

    def _prepare(self, version: int) -> None:
        """Check that it may be written, then (only then) write: upgrade, WAL."""
        db = self.db
        # Take the write lock once now, so a read-only file or folder is refused
        # before anything is written or run, not at the first finished run.
        db.execute("BEGIN IMMEDIATE")
        db.rollback()
        if version < SCHEMA_VERSION:
            with db:
                db.execute("BEGIN IMMEDIATE")
                self.upgraded_runs = _upgrade(db, version)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=NORMAL")

    @classmethod
    def open_read_only(cls, path: str | Path) -> ResultsDatabase:
        """An existing results database on a connection that never writes it.

        A schema-1 database is copied into memory and upgraded there, so the file
        stays as it is; a schema-2 one is read as it is (`rows`: its runs lack the
        newer measurements).
        """
        path = Path(path)
        problem = _existing_problem(path)
        if problem:
            raise UsageError(f"{path}: {problem}")
        db = _connect_read_only(path)
        try:
            version = _check(db, path)
            if version == 1:
                memory = sqlite3.connect(":memory:")
                db.backup(memory)
                db.close()
                db = memory
                with db:
                    db.execute("BEGIN")
                    _upgrade(db, version)
            db.execute("PRAGMA query_only = ON")
        except (*_DB_ERRORS, UsageError) as exc:
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
        except _DB_ERRORS as exc:
            raise _unreadable(self.path, exc) from None
        finally:
            if self.db.in_transaction:
                self.db.rollback()

    @contextmanager
    def _guard(self) -> Iterator[None]:
        """Any SQLite failure mid-run (disk full, a damaged page) as one usage line."""
        try:
            yield
        except _DB_ERRORS as exc:
            raise _unreadable(self.path, exc) from None

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> ResultsDatabase:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------ writing (the harness)

    def start_session(self, info: dict[str, Any]) -> int:
        keys = [k for k in info if k != "id"]
        with self._guard(), self.db:
            cursor = self.db.execute(
                f"INSERT INTO sessions ({', '.join(keys)}) VALUES ({', '.join('?' * len(keys))})",
                [_clean(info[k]) for k in keys])
        return int(cursor.lastrowid)

    def end_session(self, session_id: int, info: dict[str, Any]) -> None:
        """Write what is known only at a session's end (`load_end`)."""
        with self._guard(), self.db:
            self.db.execute(f"UPDATE sessions SET {', '.join(f'{k} = ?' for k in info)} "
                            "WHERE id = ?", [*(_clean(v) for v in info.values()), session_id])

    def add(self, session_id: int, key: RunKey, record: RunRecord,
            reused_from: int | None = None) -> int:
        """Insert one run and its plan row in one transaction; return the run's id."""
        stats = record.stats
        values = (session_id, *key, record.instance_hash, record.path, record.puzzle,
                  record.backend, record.status.value, record.objective, _bool(record.unique),
                  None if record.count is None else str(record.count), _bool(record.verified),
                  record.wall_s, record.cpu_s, stats.get("build_s"), stats.get("solve_s"),
                  stats.get("nodes"), json.dumps(stats), record.message,
                  None if record.solution is None else json.dumps(record.solution),
                  json.dumps(record.metadata), record.timeout_s, record.memory_mb, reused_from,
                  record.mem_mb, record.load)
        with self._guard(), self.db:
            cursor = self.db.execute(
                f"INSERT INTO runs ({', '.join(_COLUMNS)}) "
                f"VALUES ({', '.join('?' * len(_COLUMNS))})", [_clean(v) for v in values])
            run_id = int(cursor.lastrowid)
            self.db.execute("INSERT INTO plan (session_id, run_id) VALUES (?, ?)",
                            (session_id, run_id))
        return run_id

    def link(self, session_id: int, run_ids: Iterable[int]) -> None:
        """Put runs stored earlier into this session's plan."""
        with self._guard(), self.db:
            self.db.executemany("INSERT OR IGNORE INTO plan (session_id, run_id) VALUES (?, ?)",
                                [(session_id, run_id) for run_id in run_ids])

    def add_invalid(self, session_id: int, messages: Sequence[str]) -> None:
        with self._guard(), self.db:
            self.db.executemany("INSERT INTO invalid (session_id, message) VALUES (?, ?)",
                                [(session_id, _clean(m)) for m in messages])

    # ------------------------------------------------------------ reading

    def stored(self, keys: Iterable[RunKey]) -> dict[RunKey, int]:
        """The latest stored run id of each key that has one."""
        out: dict[RunKey, int] = {}
        with self._guard():
            for key in keys:
                row = self.db.execute(
                    f"SELECT MAX(id) FROM runs WHERE {' AND '.join(f'{k} = ?' for k in _KEY)}",
                    key).fetchone()
                if row[0] is not None:
                    out[key] = int(row[0])
        return out

    def upgraded(self, keys: Iterable[RunKey]) -> dict[RunKey, int]:
        """The upgraded schema-1 runs these keys resume: key -> run id (module docstring).

        Each such run goes to one key: the first whose path ends the run's stored
        path (`/home/me/instances/toy/a.txt` for `toy/a.txt`), else the first.
        """
        claims: dict[int, list[tuple[RunKey, str]]] = defaultdict(list)
        with self._guard():
            for key in keys:
                content, _, *rest = key  # the path aside: the old key named no file
                row = self.db.execute(
                    "SELECT id, instance_path FROM runs WHERE task_hash = ? AND task_path = '' "
                    "AND backend = ? AND options = ? AND seed = ? AND limits = ? "
                    "ORDER BY id DESC LIMIT 1", (content, *rest)).fetchone()
                if row is not None:
                    claims[int(row[0])].append((key, str(row[1])))
        return {next((key for key, path in wanted if _ends_with(path, key[1])), wanted[0][0]):
                run_id for run_id, wanted in claims.items()}

    def adopt(self, runs: dict[RunKey, int]) -> None:
        """Give upgraded schema-1 runs the paths of the keys that resume them (`upgraded`)."""
        with self._guard(), self.db:
            self.db.executemany("UPDATE runs SET task_path = ? WHERE id = ? AND task_path = ''",
                                [(key[1], run_id) for key, run_id in runs.items()])

    def board_run(self, instance_hash: str, backend: str, options: str, seed: int,
                  limits: str) -> int | None:
        """The latest run of this board, back-end, options, seed and limits (any file)."""
        with self._guard():
            row = self.db.execute(
                "SELECT MAX(id) FROM runs WHERE instance_hash = ? AND backend = ? AND "
                "options = ? AND seed = ? AND limits = ?",
                (instance_hash, backend, options, seed, limits)).fetchone()
        return None if row[0] is None else int(row[0])

    def records(self, run_ids: Iterable[int] | None = None) -> list[RunRecord]:
        """Stored runs as records, ordered by id: all of them, or those with the given ids."""
        out = []
        for row in self._select(run_ids)[1]:
            try:
                out.append(_record(row))
            except (ValueError, TypeError) as exc:  # a bad status or JSON in the row
                raise UsageError(f"{self.path}: stored run {row['id']} cannot be read "
                                 f"({exc})") from None
        return out

    def rows(self, run_ids: Iterable[int] | None = None) -> tuple[tuple[str, ...],
                                                                  list[dict[str, Any]]]:
        """The raw stored rows (`RUN_COLUMNS`, rows as dicts holding each), ordered by id;
        a column an older schema lacks is None."""
        return self._select(run_ids)

    def _select(self, run_ids: Iterable[int] | None) -> tuple[tuple[str, ...],
                                                               list[dict[str, Any]]]:
        """`RUN_COLUMNS` and the rows, ordered by id, each with every one of them: all,
        or those with the given ids (only they are read, a chunk of ids per query)."""
        self.db.row_factory = sqlite3.Row
        try:
            with self._guard():
                if run_ids is None:
                    rows = self.db.execute("SELECT * FROM runs ORDER BY id").fetchall()
                else:
                    ids = sorted(set(run_ids))
                    rows = []
                    for start in range(0, len(ids), _IDS_PER_QUERY):
                        chunk = ids[start:start + _IDS_PER_QUERY]
                        rows += self.db.execute(
                            f"SELECT * FROM runs WHERE id IN ({', '.join('?' * len(chunk))}) "
                            "ORDER BY id", chunk).fetchall()
                blank = dict.fromkeys(RUN_COLUMNS)
                return RUN_COLUMNS, [{**blank, **dict(row)} for row in rows]
        finally:
            self.db.row_factory = None

    def loads(self, run_ids: Iterable[int]) -> list[dict[str, Any]]:
        """The session and the host's load at the start of each of these runs."""
        ids = sorted(set(run_ids))
        out = []
        with self._guard():
            for start in range(0, len(ids), _IDS_PER_QUERY):
                chunk = ids[start:start + _IDS_PER_QUERY]
                out += [{"session_id": row[0], "load": row[1]} for row in self.db.execute(
                    f"SELECT session_id, load FROM runs WHERE id IN "
                    f"({', '.join('?' * len(chunk))})", chunk)]
        return out

    def sessions(self) -> list[dict[str, Any]]:
        self.db.row_factory = sqlite3.Row
        try:
            with self._guard():
                return [dict(r) for r in self.db.execute("SELECT * FROM sessions ORDER BY id")]
        finally:
            self.db.row_factory = None

    def plan(self, session_id: int) -> list[int]:
        """The run ids of one session's plan."""
        with self._guard():
            return [int(r[0]) for r in self.db.execute(
                "SELECT run_id FROM plan WHERE session_id = ? ORDER BY run_id", (session_id,))]

    def latest_planned_session(self) -> int | None:
        with self._guard():
            row = self.db.execute("SELECT MAX(session_id) FROM plan").fetchone()
        return None if row[0] is None else int(row[0])

    def invalid(self, session_id: int) -> list[str]:
        with self._guard():
            return [str(r[0]) for r in self.db.execute(
                "SELECT message FROM invalid WHERE session_id = ? ORDER BY id", (session_id,))]

    def runs_with_timeout(self, timeout: float) -> list[int]:
        """The latest run of each key whose time limit was `timeout` seconds."""
        with self._guard():
            rows = self.db.execute(
                f"SELECT MAX(id) FROM runs WHERE timeout_s = ? GROUP BY {', '.join(_KEY)}",
                (timeout,))
            return sorted(int(r[0]) for r in rows)


# ------------------------------------------------------------ the file, before SQLite opens it

_MAGIC = b"SQLite format 3\x00"


def _header_problem(path: Path, size: int) -> str | None:
    """What the first 100 bytes say is wrong: no SQLite file, or one cut off; else None."""
    with path.open("rb") as handle:
        head = handle.read(100)
    if head[:len(_MAGIC)] != _MAGIC[:len(head)]:
        return "not a twinsolve results database (not an SQLite file)"
    if len(head) < 100:
        return f"truncated results database ({size} bytes, less than an SQLite header)"
    page_size = int.from_bytes(head[16:18], "big")
    whole = int.from_bytes(head[28:32], "big") * (65536 if page_size == 1 else page_size)
    # The page count holds only where the header says so (offsets 24 and 92 agree), and a
    # -wal file beside it may hold pages a checkpoint was still writing.
    if head[24:28] == head[92:96] and size < whole and not os.path.exists(f"{path}-wal"):
        return f"truncated results database ({size} of the {whole} bytes its header gives)"
    return None


def _existing_problem(path: Path) -> str | None:
    """Why the file at `path` is no results database, judged from `stat` and its first
    bytes (never opening a pipe or a device); None when SQLite may open it."""
    problem = file_problem(path)
    if problem == "no such file":
        return "no such results database"
    if problem:
        return problem
    try:
        size = os.stat(path).st_size
        return ("an empty file, not a results database" if size == 0
                else _header_problem(path, size))
    except OSError as exc:
        return f"cannot read the results database ({exc.strerror or exc})"


def _writable(path: Path) -> bool:
    """We may write it, and it is not marked read-only (os.access alone says yes to root)."""
    info = os.stat(path)
    access = os.W_OK | (os.X_OK if stat.S_ISDIR(info.st_mode) else 0)
    return bool(info.st_mode & 0o222) and os.access(path, access)


def _harness_target(path: Path) -> Path:
    """The file the harness opens for `path` (a symlink's target), made when missing;
    UsageError for one it may not use. Writes nothing to an existing file."""
    target = Path(os.path.realpath(path))
    try:
        if not os.path.lexists(target):  # a new database, or a dangling symlink's target
            _create(target, path)
            return target
        problem = _existing_problem(target)
        if problem:
            raise UsageError(f"{path}: {problem}")
        if not _writable(target):
            raise UsageError(f"{path}: results database is read-only; give '--db' a file "
                             "you may write")
        if not _writable(target.parent):  # SQLite keeps its -wal and -shm files beside it
            raise UsageError(f"{path}: the folder {target.parent} is read-only; give '--db' "
                             "a file in a folder you may write")
    except OSError as exc:
        raise UsageError(f"{path}: cannot use the results database "
                         f"({exc.strerror or exc})") from None
    return target


def _create(target: Path, given: Path) -> None:
    """A new results database at `target`: made whole in a temporary file beside it and
    linked into place, so nobody finds it empty or half-made (an empty file is refused)."""
    folder = target.parent
    if not folder.is_dir():
        raise UsageError(f"{given}: cannot create the results database: no folder {folder}")
    if not _writable(folder):
        raise UsageError(f"{given}: cannot create the results database: the folder {folder} "
                         "is read-only")
    temporary = folder / f".{target.name}.{secrets.token_hex(4)}.new"
    try:
        os.close(os.open(temporary, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o666))
        db = sqlite3.connect(temporary)
        try:
            db.execute("PRAGMA journal_mode=WAL")
            db.executescript(_SCHEMA)
            db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            db.commit()
        finally:
            db.close()
        try:
            os.link(temporary, target)  # never over a file made meanwhile
        except FileExistsError:
            pass  # another harness made it first: that one is used
        except OSError:  # a file system without hard links
            if not os.path.lexists(target):
                os.replace(temporary, target)
    except sqlite3.Error as exc:
        raise UsageError(f"{given}: cannot create the results database ({exc})") from None
    finally:
        temporary.unlink(missing_ok=True)


def _connect_read_only(path: Path) -> sqlite3.Connection:
    """A connection that never writes; immutable where SQLite cannot make its -shm file.

    Without a -wal file beside it, `mode=rw` with `query_only`: its close tidies
    away the -wal and -shm files it made, and the file stays as it was. With
    one (a bench running, or killed), `mode=ro`: the last read-write connection
    to close would copy the -wal into the file (a write); a read-only one reads
    it and leaves both as they are. A WAL database needs a shared-memory file
    beside it even to read; in a read-only folder that cannot be created, and
    nobody can be writing there either, so reading the file as immutable sees
    all there is.
    """
    uri = path.resolve().as_uri()
    mode = "ro" if os.path.exists(f"{path.resolve()}-wal") else "rw"
    try:
        db = sqlite3.connect(f"{uri}?mode={mode}", uri=True)
        db.execute("PRAGMA query_only = ON")
        db.execute("SELECT count(*) FROM sqlite_master").fetchone()
        return db
    except sqlite3.Error:
        pass
    try:
        db = sqlite3.connect(f"{uri}?mode=ro&immutable=1", uri=True)
        db.execute("SELECT count(*) FROM sqlite_master").fetchone()
        return db
    except _DB_ERRORS as exc:
        raise _unreadable(path, exc) from None


def _record(row: dict[str, Any]) -> RunRecord:
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
        timeout_s=row["timeout_s"], memory_mb=row["memory_mb"], task_path=row["task_path"],
        task_hash=row["task_hash"], run_id=int(row["id"]), reused_from=row["reused_from"],
        mem_mb=row["mem_mb"], load=row["load"],
    )

"""The progress database: opening a connection (WAL, foreign keys on), writing, and running the
migrations of `trainer/store/migrations/` (one module each; the order is `STEPS` there).

Tables, all STRICT:
- `trainees`: one row per trainee: a guest (no account), or the trainee of an account. `name` is
  kept only from before accounts (a name-only trainee, migrated into an account by m005).
- `users`: an account (`users.id` is its trainee's id): username, argon2id hash, role, session epoch,
  the group practised for; `api_tokens`, `one_time_codes` and `sessions` (one per signed-in browser)
  keep only digests of what was handed out.
- `groups` (owned by an instructor, joined with `join_code`), their `memberships` (who is in it now)
  and `membership_periods` (from when to when each trainee was in it); per group and
  game `group_rules` (the shipped preset its drills use) and `group_targets` (the readiness figures).
- `house_rules`: an instructor's edited copy of a preset (TOML text, named by its digest).
- `exams` (assigned quizzes of a group) and `exam_sittings` (one trainee's try; its drills carry
  `sitting_id`); `sitting_comments`, the instructor's comments on a sitting.
- `invitations`: a class list made into one-time codes (digests only) with which each trainee
  makes his account and joins the group (`trainer/store/invitations.py`).
- `sprints`: a timed run of drills of one scope (a kind id, a game or "mixed") and level: its clock
  (`started_at`, `duration_s`), how many questions it asks and the kinds it asks in turn; its
  questions are its drills (`drills.sprint_id`, `position`; a skipped one has `skipped_at`).
- `drills`: every issued situation with what reproduces it (kind, level, seed, generator version,
  rules) and the situation itself as JSON, so it can be graded even after the generator changes.
- `attempts`: the one answer to a drill: raw input, parsed answer, expected answer, correct, time;
  for a wrong answer the catalogued mistake it matched (`mistake`) and, to a choice question, the
  choice made (`wrong_choice`).
- `cards`: the trainee's FSRS card per drill kind and level (`trainer.store.practice`).
- `rounds`, `round_steps`, `table_tests`: the live table (`trainer/store/tables.py`): a round as what
  deals it again plus the next step, each answered step, and table tests (exams) with their result.
- `live_sessions`, `live_players`, `live_questions`, `live_answers`: the live class
  (`trainer/store/live.py`): a session an instructor runs for a group, who joined it, its questions
  (the situation each, its clock) and each trainee's one answer per question (its drill and attempt
  are of mode "live").
- `duels`: a sprint challenge between two members of a group, of the same seeds (`trainer/store/duels.py`).
- `group_paces`: a group's own target time per question for a drill kind (else `data/pace.toml`'s).
- `kind_totals` (per trainee and drill kind) and `group_answers` with its counts (`group_items`,
  `group_kinds`, `group_wrong`, `group_kind_wrong`, `group_item_mistakes`, `group_mistake_kinds`,
  `group_mistake_members`): what the instructor's desk shows, kept by triggers as answers are
  written and as trainees join and leave (m022 to m025).
- `sign_in_failures`: failed password checks, a key ("username:...", "address:...", "device:...")
  and a time each (`trainer/store/sign_in_failures.py`), so that every worker counts the same.

>>> store_db = open_db(":memory:")
>>> sorted(t for t in store_db.table_names() if not t.startswith("_"))  # doctest: +NORMALIZE_WHITESPACE
['api_tokens', 'attempts', 'cards', 'drills', 'duels', 'exam_sittings', 'exams', 'group_answers',
 'group_item_mistakes', 'group_items', 'group_kind_wrong', 'group_kinds', 'group_mistake_kinds',
 'group_mistake_members', 'group_paces', 'group_rules', 'group_targets', 'group_wrong', 'groups',
 'house_rules', 'invitations', 'kind_totals', 'live_answers', 'live_players', 'live_questions',
 'live_sessions', 'membership_periods', 'memberships', 'one_time_codes', 'round_steps', 'rounds',
 'sessions', 'sign_in_failures', 'sitting_comments', 'sprints', 'table_tests', 'trainees', 'users']
"""

from __future__ import annotations

import functools
import os
import sqlite3
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlite_utils import Database

# The migrations themselves live in trainer/store/migrations/, one module each: a new one goes there,
# LAST in its STEPS (not here; docs/architecture.md, 'Migrations').
from trainer.store.migrations import MIGRATIONS

MODES = ("practice", "sprint", "quiz", "live")
BUSY_TIMEOUT_S = 10
_WRITERS = threading.Lock()  # this process's writers queue here, woken in turn, not by SQLite's polling
SYNCHRONOUS = ("NORMAL", "FULL")  # open_db's choices of SQLite's `PRAGMA synchronous`


def _connect(path: str | Path, *, create: bool, timeout: float) -> sqlite3.Connection:
    # `check_same_thread=False`: a connection may be handed between the threads of one request.
    if str(path) == ":memory:":
        return sqlite3.connect(":memory:", timeout=timeout, check_same_thread=False)
    # Only start-up (migrations) may create the file: a file that disappears while the app runs
    # must not be recreated empty by the next request, so requests open it read-write only.
    uri = Path(path).absolute().as_uri() + ("?mode=rwc" if create else "?mode=rw")
    return sqlite3.connect(uri, uri=True, timeout=timeout, check_same_thread=False)


COMPANIONS = ("-wal", "-shm")  # SQLite's files beside a WAL database


def unwritable_companions(path: str | Path) -> list[Path]:
    """The `-wal` and `-shm` files beside a writable database that this process cannot write.

    SQLite makes them with the database file's permissions, so a `-shm` made while the database was
    read-only stays read-only when the database is made writable again, and every write fails ("attempt
    to write a readonly database"), even after a restart. Empty when the database itself is not
    writable (that is the file to fix) or missing."""
    database = Path(path)
    if str(path) == ":memory:" or not os.access(database, os.W_OK):
        return []
    found = (database.with_name(database.name + suffix) for suffix in COMPANIONS)
    return [companion for companion in found if companion.exists() and not os.access(companion, os.W_OK)]


def repair_companions(path: str | Path) -> list[Path]:
    """Give read-only `-wal`/`-shm` files beside a writable database the database's own permissions
    (what SQLite gives them when it makes them), where this process may; the ones it may not, which
    someone must fix by hand, are returned."""
    database = Path(path)
    left = []
    for companion in unwritable_companions(database):
        try:
            companion.chmod(database.stat().st_mode & 0o666)
        except OSError:
            left.append(companion)
    return [companion for companion in left if not os.access(companion, os.W_OK)]


def diagnose(path: str | Path) -> str | None:
    """Which file or folder stops this process from writing the database, and what to do, in one
    sentence for the operator's log; None when the files look writable (a lock held, a damaged file)."""
    if str(path) == ":memory:":
        return None
    database = Path(path).absolute()
    folder = database.parent
    if not folder.is_dir():
        return (
            f"the folder {folder} is missing: restore it and the database "
            "(see docs/running-a-school.md, 'Backups')"
        )
    if not database.exists():
        return f"the database file {database} is missing: restore it from a backup"
    if not os.access(database, os.W_OK):
        return f"the database file {database} is read-only for the server's user: make it writable"
    if not os.access(folder, os.W_OK | os.X_OK):
        return (
            f"the folder {folder} is read-only for the server's user, so SQLite cannot make the database's "
            "-wal and -shm files there: make the folder writable"
        )
    stuck = unwritable_companions(database)
    if stuck:
        names = " and ".join(str(companion) for companion in stuck)
        return (
            f"{names} cannot be written by the server's user while the database is writable: make "
            f"{'them' if len(stuck) > 1 else 'it'} writable (chmod u+w), or delete "
            f"{'them' if len(stuck) > 1 else 'it'} with the server stopped"
        )
    return None


def open_db(
    path: str | Path, *, migrate: bool = True, timeout: float = BUSY_TIMEOUT_S, synchronous: str = "NORMAL"
) -> Database:
    """Open the database file (":memory:" for a throwaway one), with WAL and foreign keys on.

    `synchronous` is SQLite's: with "NORMAL" (the default) a commit writes the WAL without waiting
    for the disk (fsync), which is what held the write lock longest, about 5 ms of each answer's 5.7
    on a quiet disk and 18 ms under a class's load; the WAL is synced at each checkpoint. A commit
    survives a crash or kill of the server (the OS has it), but the last ones before a power cut or an
    OS crash may be lost. "FULL" syncs every commit (nothing acknowledged is lost even then) and holds
    the lock that much longer.

    With `migrate=False` (every request) the file must exist already: a missing file raises
    `sqlite3.OperationalError` instead of being created empty. A writer waits up to `timeout` seconds
    for another's lock before "database is locked".
    """
    if synchronous not in SYNCHRONOUS:
        raise ValueError(f"synchronous must be one of {', '.join(SYNCHRONOUS)}, not {synchronous!r}")
    repair_companions(path)  # a read-only episode's -shm would refuse every write from now on
    conn = _connect(path, create=migrate, timeout=timeout)
    db = Database(conn)
    db.lock_timeout = timeout  # type: ignore[attr-defined]  # what `writing` waits for in all
    db.execute("PRAGMA foreign_keys = ON")
    db.execute(f"PRAGMA synchronous = {synchronous}")
    if migrate:
        if str(path) == ":memory:":
            apply_migrations(db)
        else:
            with _starting_alone(path):
                db.enable_wal()
                apply_migrations(db)
    return db


@contextmanager
def _starting_alone(path: str | Path) -> Iterator[None]:
    """Hold an exclusive lock on a file beside the database while one process starts up.

    Switching a fresh file to WAL takes SQLite's exclusive lock without waiting for the busy
    timeout, so workers started together (gunicorn's, or a test's) could fail with "database is
    locked" before any migration ran. An OS file lock queues them instead. Where `fcntl` does not
    exist (Windows) the start-up relies on the busy timeout alone.
    """
    if sys.platform == "win32":
        yield
        return
    import fcntl

    with open(f"{path}-start.lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def backup(path: str | Path, target: str | Path) -> str:
    """Copy the database file at `path` into a new file `target` while the app may go on writing
    (SQLite's online backup: the copy is one consistent moment), and return the copy's
    `PRAGMA integrity_check` ("ok" for a sound copy). An existing `target` is never overwritten.
    """
    target = Path(target)
    if target.exists():
        raise FileExistsError(f"{target} exists already: a backup never overwrites a file")
    source = _connect(path, create=False, timeout=BUSY_TIMEOUT_S)
    try:
        copy = sqlite3.connect(target)
        try:
            source.backup(copy)
            return str(copy.execute("PRAGMA integrity_check").fetchone()[0])
        finally:
            copy.close()
    finally:
        source.close()


def apply_migrations(db: Database) -> list[str]:
    """Apply the pending migrations once, whatever the number of processes starting together.

    Checking is a read; only when something is pending does it take the write lock (BEGIN IMMEDIATE,
    waiting for another process that is migrating) and look again, so the second process finds the
    work done instead of failing with "database is locked" or applying a migration twice.
    """
    if not MIGRATIONS.pending(db):
        return []
    with writing(db):
        names = [m.name for m in MIGRATIONS.pending(db)]
        MIGRATIONS.apply(db)
    return names


@contextmanager
def reading(db: Database) -> Iterator[Database]:
    """One read transaction (a deferred BEGIN, ended by COMMIT): every statement in it reads the
    database as it was at its first, whatever is written meanwhile (WAL). Within a transaction
    already open, that one. For a page that reads in many statements what must fit together."""
    conn = db.conn
    if conn.in_transaction:
        yield db
        return
    conn.execute("BEGIN")
    try:
        yield db
    except BaseException:
        if conn.in_transaction:
            conn.rollback()
        raise
    if conn.in_transaction:
        conn.execute("COMMIT")


@contextmanager
def writing(db: Database) -> Iterator[Database]:
    """One write transaction, started as BEGIN IMMEDIATE.

    A deferred transaction that reads and then writes cannot wait for the lock: SQLite refuses the
    upgrade at once (SQLITE_BUSY) and the busy timeout never applies. Taking the write lock first
    makes concurrent writers queue for the connection's timeout instead. Nested use becomes a savepoint.

    The threads of one process queue first on a lock of their own, woken in turn as each finishes: left
    to SQLite, every waiting thread polls the lock with sleeps of up to 100 ms, so a writer could lose
    the race again and again (bench/write_queue.py measures both; docs/running-a-school.md
    has the figures). The time spent in that queue counts against the same timeout.
    """
    if db.conn.in_transaction:
        with db.atomic():
            yield db
        return
    timeout = getattr(db, "lock_timeout", BUSY_TIMEOUT_S)
    asked = time.monotonic()
    if not _WRITERS.acquire(timeout=timeout):
        raise sqlite3.OperationalError(f"database is locked (another thread wrote for {timeout:g} s)")
    try:
        queued = time.monotonic() - asked
        waited = queued >= 0.05  # usually not: then no statement is added
        if waited:
            db.execute(f"PRAGMA busy_timeout = {int(max(0.0, timeout - queued) * 1000)}")  # the wait counts
        try:
            # The transaction itself, written out here rather than in a second context manager: every
            # answer passes through it.
            db.execute("BEGIN IMMEDIATE")
            try:
                yield db
            except BaseException:
                db.rollback()
                raise
            try:
                db.execute("COMMIT")
            except BaseException:
                db.rollback()
                raise
        finally:
            if waited:
                db.execute(f"PRAGMA busy_timeout = {int(timeout * 1000)}")
    finally:
        _WRITERS.release()


def first_row(db: Database, sql: str, params: list[Any]) -> dict[str, Any] | None:
    """The first row of a SELECT as a dict, or None. One statement on the connection: sqlite-utils'
    `query()` wraps every query in a SAVEPOINT and a RELEASE (three statements, and outside a
    transaction the savepoint opens one), which on an answer's path cost more than the writes."""
    cursor = db.execute(sql, params)
    row = cursor.fetchone()
    if row is None:
        return None
    return dict(zip([column[0] for column in cursor.description], row, strict=True))


def equal_to(*pairs: tuple[str, Any]) -> tuple[list[str], list[Any]]:
    """SQL conditions (and their parameters) keeping rows whose column equals the value, for each
    (column, value) pair whose value is given: None sets no condition.

    >>> equal_to(("kind", "rp.qualify"), ("mode", None), ("trainee_id", 7))
    (['kind = ?', 'trainee_id = ?'], ['rp.qualify', 7])
    """
    given = [(column, value) for column, value in pairs if value is not None]
    return [f"{column} = ?" for column, _ in given], [value for _, value in given]


def insert(db: Database, table: str, record: dict[str, Any]) -> int:
    """INSERT one row and return its id, without re-reading the schema (sqlite-utils' `insert()`
    inspects `sqlite_master` and the table's columns on every call). Call it inside `writing`."""
    sql = _insert_sql(table, tuple(record))
    cursor = db.execute(sql, list(record.values()))
    if cursor.lastrowid is None:
        raise sqlite3.DatabaseError(f"no row was written to {table}")
    return int(cursor.lastrowid)


@functools.lru_cache(maxsize=256)
def _insert_sql(table: str, columns: tuple[str, ...]) -> str:
    names = ", ".join(f"[{name}]" for name in columns)
    return f"INSERT INTO [{table}] ({names}) VALUES ({', '.join('?' for _ in columns)})"

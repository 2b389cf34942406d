"""The progress database: schema migrations and opening a connection (WAL, foreign keys on).

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
  `sitting_id`).
- `sprints`: a timed run of drills of one scope (a kind id, a game or "mixed") and level.
- `drills`: every issued situation with what reproduces it (kind, level, seed, generator version,
  rules) and the situation itself as JSON, so it can be graded even after the generator changes.
- `attempts`: the one answer to a drill: raw input, parsed answer, expected answer, correct, time;
  for a wrong answer the catalogued mistake it matched (`mistake`) and, to a choice question, the
  choice made (`wrong_choice`).
- `cards`: the trainee's FSRS card per drill kind and level (`trainer.store.practice`).
- `rounds`, `round_steps`, `table_tests`: the live table (`trainer/store/tables.py`): a round as what
  deals it again plus the next step, each answered step, and table tests (exams) with their result.

>>> store_db = open_db(":memory:")
>>> sorted(t for t in store_db.table_names() if not t.startswith("_"))  # doctest: +NORMALIZE_WHITESPACE
['api_tokens', 'attempts', 'cards', 'drills', 'exam_sittings', 'exams', 'group_rules', 'group_targets',
 'groups', 'house_rules', 'membership_periods', 'memberships', 'one_time_codes', 'round_steps', 'rounds',
 'sessions', 'sprints', 'table_tests', 'trainees', 'users']
"""

from __future__ import annotations

import sqlite3
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlite_utils import Database
from sqlite_utils.migrations import Migrations

from trainer.store.usernames import username_from_name, username_key

MIGRATIONS = Migrations("trainer")

MODES = ("practice", "sprint", "quiz")


@MIGRATIONS()
def m001_progress(db: Database) -> None:
    """Trainees, sprints, issued drills and attempts."""
    db.create_table(
        "trainees",
        {"id": int, "name": str, "created_at": str},
        pk="id",
        not_null=["created_at"],
        strict=True,
    )
    # A name identifies a trainee regardless of case; anonymous trainees (NULL names) are distinct.
    db.execute("CREATE UNIQUE INDEX trainees_name ON trainees (name COLLATE NOCASE)")
    db.create_table(
        "sprints",
        {
            "id": int,
            "trainee_id": int,
            "scope": str,
            "level": int,
            "duration_s": int,
            "started_at": str,
            "finished_at": str,
            "answered": int,
            "correct": int,
        },
        pk="id",
        foreign_keys=[("trainee_id", "trainees", "id")],
        not_null=["trainee_id", "scope", "level", "duration_s", "started_at"],
        strict=True,
    )
    db.create_table(
        "drills",
        {
            "id": int,
            "trainee_id": int,
            "kind": str,
            "level": int,
            "seed": int,
            "version": int,
            "rules": str,
            "situation": str,
            "mode": str,
            "sprint_id": int,
            "issued_at": str,
            "answered": int,
        },
        pk="id",
        foreign_keys=[("trainee_id", "trainees", "id"), ("sprint_id", "sprints", "id")],
        not_null=[
            "trainee_id",
            "kind",
            "level",
            "seed",
            "version",
            "situation",
            "mode",
            "issued_at",
            "answered",
        ],
        defaults={"answered": 0},
        strict=True,
    )
    db.create_table(
        "attempts",
        {
            "id": int,
            "drill_id": int,
            "trainee_id": int,
            "kind": str,
            "raw": str,
            "answer": str,
            "expected": str,
            "correct": int,
            "time_ms": int,
            "mode": str,
            "answered_at": str,
        },
        pk="id",
        foreign_keys=[("drill_id", "drills", "id"), ("trainee_id", "trainees", "id")],
        not_null=[
            "drill_id",
            "trainee_id",
            "kind",
            "answer",
            "expected",
            "correct",
            "time_ms",
            "mode",
            "answered_at",
        ],
        strict=True,
    )
    # A drill is answered once: the unique index backs up the guarded update in `Store.answer`.
    db.execute("CREATE UNIQUE INDEX attempts_drill ON attempts (drill_id)")
    db.execute("CREATE INDEX attempts_trainee_kind ON attempts (trainee_id, kind, answered_at)")
    db.execute("CREATE INDEX drills_trainee ON drills (trainee_id, issued_at)")
    db.execute("CREATE INDEX drills_sprint ON drills (sprint_id)")
    db.execute("CREATE INDEX sprints_trainee ON sprints (trainee_id, scope, level, duration_s)")


@MIGRATIONS()
def m002_attempt_mistakes(db: Database) -> None:
    """The mistake a wrong answer matched (a catalogue id, `trainer.drills.mistakes`) and, for a
    choice question, the wrong choice made; counted per trainee for progress and the desk."""
    db.execute("ALTER TABLE attempts ADD COLUMN mistake TEXT")
    db.execute("ALTER TABLE attempts ADD COLUMN wrong_choice TEXT")
    db.execute("CREATE INDEX attempts_trainee_mistake ON attempts (trainee_id, mistake)")


@MIGRATIONS()
def m003_practice_cards(db: Database) -> None:
    """One FSRS card per trainee, drill kind and level (`trainer.store.practice`), reviewed by every
    answer: its state, step, stability (days), difficulty, when it is due, the last review, how many
    reviews and wrong answers, and when it was first answered (new cards are counted per day)."""
    db.create_table(
        "cards",
        {
            "id": int,
            "trainee_id": int,
            "kind": str,
            "level": int,
            "state": int,
            "step": int,
            "stability": float,
            "difficulty": float,
            "due": str,
            "last_review": str,
            "reviews": int,
            "lapses": int,
            "created_at": str,
        },
        pk="id",
        foreign_keys=[("trainee_id", "trainees", "id")],
        not_null=["trainee_id", "kind", "level", "state", "due", "reviews", "lapses", "created_at"],
        strict=True,
    )
    db.execute("CREATE UNIQUE INDEX cards_trainee_kind_level ON cards (trainee_id, kind, level)")
    db.execute("CREATE INDEX cards_trainee_due ON cards (trainee_id, due)")


BUSY_TIMEOUT_S = 10


@MIGRATIONS()
def m004_live_table(db: Database) -> None:
    """Rounds at the live table, their answered steps, and table tests (exams)."""
    db.create_table(
        "table_tests",
        {
            "id": int,
            "trainee_id": int,
            "game": str,
            "level": int,
            "rounds": int,
            "pass_accuracy": int,
            "time_limit_s": int,
            "started_at": str,
            "finished_at": str,
            "rounds_done": int,
            "steps": int,
            "answered": int,
            "right": int,
            "time_ms": int,
            "house_chips": int,
            "accuracy": float,
            "passed": int,
        },
        pk="id",
        foreign_keys=[("trainee_id", "trainees", "id")],
        not_null=["trainee_id", "game", "level", "rounds", "pass_accuracy", "time_limit_s", "started_at"],
        strict=True,
    )
    db.create_table(
        "rounds",
        {
            "id": int,
            "trainee_id": int,
            "game": str,
            "level": int,
            "seed": int,
            "seats": int,
            "rules": str,
            "payout": str,
            "version": int,
            "mode": str,
            "test_id": int,
            "steps": int,
            "step": int,
            "started_at": str,
            "step_started_at": str,
            "finished_at": str,
        },
        pk="id",
        foreign_keys=[("trainee_id", "trainees", "id"), ("test_id", "table_tests", "id")],
        not_null=[
            "trainee_id",
            "game",
            "level",
            "seed",
            "seats",
            "rules",
            "payout",
            "version",
            "mode",
            "steps",
            "step",
            "started_at",
            "step_started_at",
        ],
        strict=True,
    )
    db.create_table(
        "round_steps",
        {
            "id": int,
            "round_id": int,
            "step": int,
            "kind": str,
            "raw": str,
            "answer": str,
            "expected": str,
            "correct": int,
            "time_ms": int,
            "house_chips": int,
            "answered_at": str,
        },
        pk="id",
        foreign_keys=[("round_id", "rounds", "id")],
        not_null=[
            "round_id",
            "step",
            "kind",
            "answer",
            "expected",
            "correct",
            "time_ms",
            "house_chips",
            "answered_at",
        ],
        strict=True,
    )
    # A step is answered once: the unique index backs up the guarded update in `TableStore.answer`.
    db.execute("CREATE UNIQUE INDEX round_steps_step ON round_steps (round_id, step)")
    db.execute("CREATE INDEX rounds_trainee ON rounds (trainee_id, started_at)")
    db.execute("CREATE INDEX rounds_test ON rounds (test_id)")
    db.execute("CREATE INDEX table_tests_trainee ON table_tests (trainee_id, finished_at)")


@MIGRATIONS()
def m005_accounts(db: Database) -> None:
    """Accounts, API tokens and one-time codes; every name-only trainee becomes an account to hand over.

    A user *is* a trainee with credentials: `users.id` is the trainee's id, so attempts, sprints and
    anything else kept per trainee belong to the account, and a guest who signs up keeps all of it.
    `session_epoch` is part of every session's login id: raising it ends every session at once.
    A NULL `password_hash` is an account nobody has claimed yet (a migrated name, or one an instructor
    made): it is claimed with a one-time code.
    """
    db.create_table(
        "users",
        {
            "id": int,
            "username": str,
            "username_key": str,
            "display_name": str,
            "password_hash": str,
            "role": str,
            "session_epoch": int,
            "created_at": str,
            "password_changed_at": str,
        },
        pk="id",
        foreign_keys=[("id", "trainees", "id")],
        not_null=["username", "username_key", "display_name", "role", "session_epoch", "created_at"],
        defaults={"session_epoch": 0, "role": "trainee"},
        strict=True,
    )
    db.execute("CREATE UNIQUE INDEX users_username ON users (username_key)")
    db.create_table(
        "api_tokens",
        {
            "id": int,
            "user_id": int,
            "token_hash": str,
            "label": str,
            "created_at": str,
            "revoked_at": str,
        },
        pk="id",
        foreign_keys=[("user_id", "users", "id")],
        not_null=["user_id", "token_hash", "created_at"],
        strict=True,
    )
    db.execute("CREATE UNIQUE INDEX api_tokens_hash ON api_tokens (token_hash)")
    db.execute("CREATE INDEX api_tokens_user ON api_tokens (user_id)")
    db.create_table(
        "one_time_codes",
        {
            "id": int,
            "user_id": int,
            "code_hash": str,
            "made_by": int,
            "created_at": str,
            "expires_at": str,
            "used_at": str,
        },
        pk="id",
        foreign_keys=[("user_id", "users", "id"), ("made_by", "users", "id")],
        not_null=["user_id", "code_hash", "created_at", "expires_at"],
        strict=True,
    )
    db.execute("CREATE INDEX one_time_codes_user ON one_time_codes (user_id)")
    # Name-only trainees: each becomes an unclaimed account under a username made from the name.

    taken: set[str] = set()
    for row in list(db.query("SELECT id, name, created_at FROM trainees WHERE name IS NOT NULL ORDER BY id")):
        username = username_from_name(row["name"], taken)
        taken.add(username_key(username))
        db.table("users").insert(
            {
                "id": row["id"],
                "username": username,
                "username_key": username_key(username),
                "display_name": row["name"],
                "password_hash": None,
                "role": "trainee",
                "session_epoch": 0,
                "created_at": row["created_at"],
            }
        )


@MIGRATIONS()
def m006_groups(db: Database) -> None:
    """Groups with join codes and members; per group and game its house rules (a shipped preset) and
    readiness target; the group a trainee practises for, and the group each drill was practised for."""
    db.create_table(
        "groups",
        {"id": int, "name": str, "owner_id": int, "join_code": str, "created_at": str},
        pk="id",
        foreign_keys=[("owner_id", "users", "id")],
        not_null=["name", "owner_id", "join_code", "created_at"],
        strict=True,
    )
    db.execute("CREATE UNIQUE INDEX groups_join_code ON groups (join_code)")
    db.execute("CREATE INDEX groups_owner ON groups (owner_id)")
    db.create_table(
        "memberships",
        {"group_id": int, "user_id": int, "joined_at": str},
        pk=("group_id", "user_id"),
        foreign_keys=[("group_id", "groups", "id"), ("user_id", "users", "id")],
        not_null=["group_id", "user_id", "joined_at"],
        strict=True,
    )
    db.execute("CREATE INDEX memberships_user ON memberships (user_id)")
    db.create_table(
        "group_rules",
        {"group_id": int, "game": str, "preset": str, "updated_at": str},
        pk=("group_id", "game"),
        foreign_keys=[("group_id", "groups", "id")],
        not_null=["group_id", "game", "preset", "updated_at"],
        strict=True,
    )
    db.create_table(
        "group_targets",
        {
            "group_id": int,
            "game": str,
            "accuracy": float,
            "window": int,
            "min_level": int,
            "median_seconds": float,
        },
        pk=("group_id", "game"),
        foreign_keys=[("group_id", "groups", "id")],
        not_null=["group_id", "game", "accuracy", "window", "min_level", "median_seconds"],
        strict=True,
    )
    db.execute("ALTER TABLE users ADD COLUMN practice_group_id INTEGER REFERENCES groups(id)")
    db.execute("ALTER TABLE drills ADD COLUMN group_id INTEGER REFERENCES groups(id)")
    db.execute("CREATE INDEX drills_group ON drills (group_id)")


@MIGRATIONS()
def m007_exams(db: Database) -> None:
    """Assigned quizzes (exams): composed by a group's instructor, taken in sittings; each sitting's
    drills point at it (`drills.sitting_id`)."""
    db.create_table(
        "exams",
        {
            "id": int,
            "group_id": int,
            "title": str,
            "items": str,
            "questions": int,
            "time_limit_s": int,
            "attempts_allowed": int,
            "same_questions": int,
            "seed": int,
            "opens_at": str,
            "closes_at": str,
            "answers_before_close": int,
            "made_by": int,
            "created_at": str,
        },
        pk="id",
        foreign_keys=[("group_id", "groups", "id"), ("made_by", "users", "id")],
        not_null=[
            "group_id",
            "title",
            "items",
            "questions",
            "attempts_allowed",
            "same_questions",
            "seed",
            "opens_at",
            "closes_at",
            "answers_before_close",
            "created_at",
        ],
        strict=True,
    )
    db.execute("CREATE INDEX exams_group ON exams (group_id)")
    db.create_table(
        "exam_sittings",
        {
            "id": int,
            "exam_id": int,
            "trainee_id": int,
            "seed": int,
            "started_at": str,
            "deadline": str,
            "finished_at": str,
            "answered": int,
            "correct": int,
        },
        pk="id",
        foreign_keys=[("exam_id", "exams", "id"), ("trainee_id", "trainees", "id")],
        not_null=["exam_id", "trainee_id", "seed", "started_at"],
        strict=True,
    )
    db.execute("CREATE INDEX exam_sittings_exam ON exam_sittings (exam_id, trainee_id)")
    db.execute("ALTER TABLE drills ADD COLUMN sitting_id INTEGER REFERENCES exam_sittings(id)")


@MIGRATIONS()
def m008_house_rules(db: Database) -> None:
    """Instructors' own house rules: an edited copy of a preset, kept as its TOML text under a name
    made from the text's digest (`house-<12 hex digits>`), so a name always means the same rules."""
    db.create_table(
        "house_rules",
        {"id": int, "game": str, "name": str, "text": str, "made_by": int, "created_at": str},
        pk="id",
        foreign_keys=[("made_by", "users", "id")],
        not_null=["game", "name", "text", "created_at"],
        strict=True,
    )
    db.execute("CREATE UNIQUE INDEX house_rules_name ON house_rules (game, name)")


@MIGRATIONS()
def m009_account_sessions(db: Database) -> None:
    """Server-side sessions, membership periods and when a one-time code was redeemed.

    - `sessions`: one row per signed-in browser (the cookie holds a random key, stored here as its
      digest); signing out ends the row, and a row unused past the idle limit or older than the
      absolute limit no longer signs anyone in.
    - `membership_periods`: every stretch of time a trainee was in a group (`left_at` NULL: still
      in it). An instructor reads a trainee's work only from within these periods; the periods of
      today's members start at the `joined_at` they already had.
    - `one_time_codes.redeemed_at`: the code set the password then (`used_at` is also set when a
      newer code or a new password made the code void).
    """
    db.create_table(
        "sessions",
        {
            "id": int,
            "user_id": int,
            "key_hash": str,
            "created_at": str,
            "seen_at": str,
            "ended_at": str,
        },
        pk="id",
        foreign_keys=[("user_id", "users", "id")],
        not_null=["user_id", "key_hash", "created_at", "seen_at"],
        strict=True,
    )
    db.execute("CREATE UNIQUE INDEX sessions_key ON sessions (key_hash)")
    db.execute("CREATE INDEX sessions_user ON sessions (user_id)")
    db.create_table(
        "membership_periods",
        {"id": int, "group_id": int, "user_id": int, "joined_at": str, "left_at": str},
        pk="id",
        foreign_keys=[("group_id", "groups", "id"), ("user_id", "users", "id")],
        not_null=["group_id", "user_id", "joined_at"],
        strict=True,
    )
    db.execute("CREATE INDEX membership_periods_member ON membership_periods (group_id, user_id)")
    db.execute(
        "INSERT INTO membership_periods (group_id, user_id, joined_at) "
        "SELECT group_id, user_id, joined_at FROM memberships ORDER BY joined_at"
    )
    db.execute("ALTER TABLE one_time_codes ADD COLUMN redeemed_at TEXT")


@MIGRATIONS()
def m010_desk_indexes(db: Database) -> None:
    """Indexes the instructor's desk reads each member's answers along, within his time in the
    group, with no lookup of the row: by kind and time (the counts and medians per kind come out
    in order, no sort) and newest first (the last answers of a game, for readiness, with LIMIT).
    The answered time is in both, so the membership stretches are checked in the index."""
    db.execute(
        "CREATE INDEX attempts_member_kind_time ON attempts (trainee_id, kind, time_ms, correct, answered_at)"
    )
    db.execute(
        "CREATE INDEX attempts_member_recent "
        "ON attempts (trainee_id, answered_at, kind, correct, time_ms, drill_id)"
    )


def _connect(path: str | Path, *, create: bool, timeout: float) -> sqlite3.Connection:
    # `check_same_thread=False`: a connection may be handed between the threads of one request.
    if str(path) == ":memory:":
        return sqlite3.connect(":memory:", timeout=timeout, check_same_thread=False)
    # Only start-up (migrations) may create the file: a file that disappears while the app runs
    # must not be recreated empty by the next request, so requests open it read-write only.
    uri = Path(path).absolute().as_uri() + ("?mode=rwc" if create else "?mode=rw")
    return sqlite3.connect(uri, uri=True, timeout=timeout, check_same_thread=False)


def open_db(path: str | Path, *, migrate: bool = True, timeout: float = BUSY_TIMEOUT_S) -> Database:
    """Open the database file (":memory:" for a throwaway one), with WAL and foreign keys on.

    With `migrate=False` (every request) the file must exist already: a missing file raises
    `sqlite3.OperationalError` instead of being created empty. A writer waits up to `timeout` seconds
    for another's lock before "database is locked".
    """
    conn = _connect(path, create=migrate, timeout=timeout)
    db = Database(conn)
    db.execute("PRAGMA foreign_keys = ON")
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
def writing(db: Database) -> Iterator[Database]:
    """One write transaction, started as BEGIN IMMEDIATE.

    A deferred transaction that reads and then writes cannot wait for the lock: SQLite refuses the
    upgrade at once (SQLITE_BUSY) and the busy timeout never applies. Taking the write lock first
    makes concurrent writers queue for the connection's timeout instead. Nested use becomes a savepoint.
    """
    if db.conn.in_transaction:
        with db.atomic():
            yield db
        return
    db.conn.execute("BEGIN IMMEDIATE")
    try:
        yield db
    except BaseException:
        db.rollback()
        raise
    try:
        db.conn.execute("COMMIT")
    except BaseException:
        db.rollback()
        raise


def insert(db: Database, table: str, record: dict[str, Any]) -> int:
    """INSERT one row and return its id, without re-reading the schema (sqlite-utils' `insert()`
    inspects `sqlite_master` and the table's columns on every call). Call it inside `writing`."""
    columns = ", ".join(f"[{name}]" for name in record)
    marks = ", ".join("?" for _ in record)
    cursor = db.execute(f"INSERT INTO [{table}] ({columns}) VALUES ({marks})", list(record.values()))
    if cursor.lastrowid is None:
        raise sqlite3.DatabaseError(f"no row was written to {table}")
    return int(cursor.lastrowid)

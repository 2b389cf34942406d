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
  written and as trainees join and leave (m022, m023).
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
import json
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
from sqlite_utils.migrations import Migrations

from trainer.store.usernames import username_from_name, username_key, username_skeleton

MIGRATIONS = Migrations("trainer")

MODES = ("practice", "sprint", "quiz", "live")


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
_WRITERS = threading.Lock()  # this process's writers queue here, woken in turn, not by SQLite's polling
SYNCHRONOUS = ("NORMAL", "FULL")  # open_db's choices of SQLite's `PRAGMA synchronous`


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
def m010_username_skeletons(db: Database) -> None:
    """Each username's skeleton (`usernames.username_skeleton`: what it looks like, UTS #39) under a
    unique index, so that a name drawn like an existing one (a Cyrillic "е" for a Latin "e") is refused
    by the database itself, even when two sign-ups race.

    Accounts made before this that look alike all keep working: the first (lowest id) gets the
    skeleton, a later look-alike none (NULL, which the unique index allows), and every new name is
    still compared with the first. A new `confusables.txt` changes skeletons: it needs a migration
    that makes them again."""
    db.execute("ALTER TABLE users ADD COLUMN username_skeleton TEXT")
    seen: set[str] = set()
    for row in list(db.query("SELECT id, username FROM users ORDER BY id")):
        shape = username_skeleton(row["username"])
        if shape in seen:
            continue
        seen.add(shape)
        db.execute("UPDATE users SET username_skeleton = ? WHERE id = ?", [shape, row["id"]])
    db.execute("CREATE UNIQUE INDEX users_username_skeleton ON users (username_skeleton)")


@MIGRATIONS()
def m011_sign_in_failures(db: Database) -> None:
    """Failed password checks per key (`trainer.store.sign_in_failures`), kept here rather than in each
    worker's memory so that all the workers of a server count them together."""
    db.create_table(
        "sign_in_failures",
        {"id": int, "key": str, "at": float},
        pk="id",
        not_null=["key", "at"],
        strict=True,
    )
    db.execute("CREATE INDEX sign_in_failures_key ON sign_in_failures (key, at)")
    db.execute("CREATE INDEX sign_in_failures_at ON sign_in_failures (at)")


@MIGRATIONS()
def m012_sprint_questions(db: Database) -> None:
    """A sprint's questions live on the server: how many it asks (`sprints.questions`) and the drill
    kinds it asks in turn (`sprints.kinds`, JSON), and each question's place in it (`drills.position`,
    unique per sprint, so two requests cannot both add the same question); a skipped question is
    closed (`answered` = 1) with `skipped_at` and no attempt. Sprints from before keep their number
    of questions (from the scope "<what>/<N>") and the kinds they asked."""
    db.execute("ALTER TABLE sprints ADD COLUMN questions INTEGER")
    db.execute("ALTER TABLE sprints ADD COLUMN kinds TEXT")
    db.execute("ALTER TABLE drills ADD COLUMN position INTEGER")
    db.execute("ALTER TABLE drills ADD COLUMN skipped_at TEXT")
    for row in list(db.query("SELECT id, scope FROM sprints")):
        what, _, n = str(row["scope"]).rpartition("/")
        asked = [
            r["kind"]
            for r in db.query(
                "SELECT kind FROM drills WHERE sprint_id = ? GROUP BY kind ORDER BY min(id)", [row["id"]]
            )
        ]
        db.execute(
            "UPDATE sprints SET questions = ?, kinds = ? WHERE id = ?",
            [int(n) if n.isdigit() else None, json.dumps(asked or [what or row["scope"]]), row["id"]],
        )
    db.execute(
        """UPDATE drills SET position = (SELECT count(*) FROM drills e
                                         WHERE e.sprint_id = drills.sprint_id AND e.id < drills.id)
           WHERE sprint_id IS NOT NULL"""
    )
    db.execute("CREATE UNIQUE INDEX drills_sprint_position ON drills (sprint_id, position)")
    # Readiness counts a practice question passed over (a newer one of its kind drawn): found by this.
    db.execute("CREATE INDEX drills_trainee_kind ON drills (trainee_id, kind, id)")


@MIGRATIONS()
def m013_progress_indexes(db: Database) -> None:
    """Indexes the progress figures are read from without sorting a trainee's answers per request:
    medians by offset along time per kind and per UTC day, and the answers in the order they came
    (answered_at, then id) with whether they were right, for the runs of right answers; the mistakes
    with their kind and time. The answered time ends the first, so the instructor's desk checks a
    member's stretches in the group along it too."""
    db.execute(
        "CREATE INDEX attempts_trainee_kind_time "
        "ON attempts (trainee_id, kind, time_ms, correct, mode, answered_at)"
    )
    db.execute(
        """CREATE INDEX attempts_trainee_day_time
           ON attempts (trainee_id, substr(answered_at, 1, 10), time_ms, answered_at, correct)"""
    )
    db.execute("CREATE INDEX attempts_trainee_order ON attempts (trainee_id, answered_at, id, correct)")
    # The mistakes' counts per kind and their last time, from the index alone (it starts as the one
    # it replaces did).
    db.execute("CREATE INDEX attempts_trainee_mistakes ON attempts (trainee_id, mistake, kind, answered_at)")
    db.execute("DROP INDEX attempts_trainee_mistake")


@MIGRATIONS()
def m014_desk_indexes(db: Database) -> None:
    """The index the instructor's desk reads each member's last answers along, newest first, within
    his time in the group (readiness, with LIMIT), with no lookup of the row. The counts and medians
    per kind read `attempts_trainee_kind_time` (m013), which carries the answered time, so the
    membership stretches are checked in the index there too."""
    db.execute(
        "CREATE INDEX attempts_member_recent "
        "ON attempts (trainee_id, answered_at, kind, correct, time_ms, drill_id)"
    )


@MIGRATIONS()
def m015_live_sessions(db: Database) -> None:
    """The live class: a session an instructor runs for one of his groups (its short `code`, what it
    asks, its clock and `state`), the trainees who joined it, its questions (each a situation with
    its clock: `opened_at`, `closes_at` for a timed one, `revealed_at`) and each trainee's one answer
    per question (unique per question and trainee), which points at the drill and attempt it was
    recorded as (mode "live")."""
    db.execute(
        """CREATE TABLE live_sessions (
             id INTEGER PRIMARY KEY,
             code TEXT NOT NULL UNIQUE,
             instructor_id INTEGER NOT NULL REFERENCES users(id),
             group_id INTEGER NOT NULL REFERENCES groups(id),
             kinds TEXT NOT NULL,
             level INTEGER NOT NULL,
             questions INTEGER NOT NULL,
             seconds INTEGER,
             scoring TEXT NOT NULL,
             state TEXT NOT NULL,
             position INTEGER NOT NULL DEFAULT -1,
             paused_left_ms INTEGER,
             version INTEGER NOT NULL DEFAULT 0,
             created_at TEXT NOT NULL,
             ended_at TEXT
           ) STRICT"""
    )
    db.execute("CREATE INDEX live_sessions_group ON live_sessions (group_id, created_at)")
    db.execute(
        """CREATE TABLE live_players (
             session_id INTEGER NOT NULL REFERENCES live_sessions(id),
             trainee_id INTEGER NOT NULL REFERENCES trainees(id),
             joined_at TEXT NOT NULL,
             PRIMARY KEY (session_id, trainee_id)
           ) STRICT"""
    )
    db.execute(
        """CREATE TABLE live_questions (
             id INTEGER PRIMARY KEY,
             session_id INTEGER NOT NULL REFERENCES live_sessions(id),
             position INTEGER NOT NULL,
             situation TEXT NOT NULL,
             opened_at TEXT NOT NULL,
             closes_at TEXT,
             revealed_at TEXT,
             UNIQUE (session_id, position)
           ) STRICT"""
    )
    db.execute(
        """CREATE TABLE live_answers (
             question_id INTEGER NOT NULL REFERENCES live_questions(id),
             trainee_id INTEGER NOT NULL REFERENCES trainees(id),
             drill_id INTEGER NOT NULL REFERENCES drills(id),
             correct INTEGER NOT NULL,
             time_ms INTEGER NOT NULL,
             points INTEGER NOT NULL,
             answer TEXT NOT NULL,
             mistake TEXT,
             PRIMARY KEY (question_id, trainee_id)
           ) STRICT"""
    )


@MIGRATIONS()
def m016_group_time_zone(db: Database) -> None:
    """A group's time zone (an IANA name such as Asia/Tbilisi; NULL: the instance's, `TRAINER_TIME_ZONE`),
    in which its desk, its quizzes' times and its exports are entered and shown. Times stay stored in
    UTC."""
    db.execute("ALTER TABLE groups ADD COLUMN time_zone TEXT")


@MIGRATIONS()
def m017_sitting_comments(db: Database) -> None:
    """An instructor's comments on a trainee's quiz sitting, which the trainee reads on his result
    page (`seen_at`: when he first did, so he is told of unread ones)."""
    db.create_table(
        "sitting_comments",
        {"id": int, "sitting_id": int, "author_id": int, "text": str, "created_at": str, "seen_at": str},
        pk="id",
        foreign_keys=[("sitting_id", "exam_sittings", "id"), ("author_id", "users", "id")],
        not_null=["sitting_id", "author_id", "text", "created_at"],
        strict=True,
    )
    db.execute("CREATE INDEX sitting_comments_sitting ON sitting_comments (sitting_id, id)")


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


@MIGRATIONS()
def m018_board_names(db: Database) -> None:
    """Whether a trainee hides his name on his groups' weekly leaderboards (`users.board_hidden`): his
    groupmates then read a neutral label; his instructor still sees him."""
    db.execute("ALTER TABLE users ADD COLUMN board_hidden INTEGER NOT NULL DEFAULT 0")
    db.execute("CREATE INDEX sprints_started ON sprints (started_at)")


@MIGRATIONS()
def m019_group_paces(db: Database) -> None:
    """A group's own pace for a drill kind (seconds a question), set by its instructor: it replaces
    the school's target of `data/pace.toml` for the group's drills, sprints and live sessions."""
    db.execute(
        """CREATE TABLE group_paces (
             group_id INTEGER NOT NULL REFERENCES groups(id),
             kind TEXT NOT NULL,
             seconds REAL NOT NULL CHECK (seconds > 0),
             updated_at TEXT NOT NULL,
             PRIMARY KEY (group_id, kind)
           ) STRICT"""
    )


@MIGRATIONS()
def m020_duels(db: Database) -> None:
    """Duels: a trainee challenges a groupmate to a sprint of one drill kind and level; both sprints
    ask the duel's `seeds` in turn under its `rules` (so the same situations), each side's sprint is
    linked once (unique), and neither may start after `expires_at`. A sprint keeps the seeds and rules
    it asks (`sprints.seeds`, `sprints.rules`; NULL: drawn at random under the trainee's rules)."""
    db.execute("ALTER TABLE sprints ADD COLUMN seeds TEXT")
    db.execute("ALTER TABLE sprints ADD COLUMN rules TEXT")
    db.execute(
        """CREATE TABLE duels (
             id INTEGER PRIMARY KEY,
             group_id INTEGER NOT NULL REFERENCES groups(id),
             challenger_id INTEGER NOT NULL REFERENCES users(id),
             opponent_id INTEGER NOT NULL REFERENCES users(id),
             kind TEXT NOT NULL,
             level INTEGER NOT NULL,
             questions INTEGER NOT NULL,
             duration_s INTEGER NOT NULL,
             seeds TEXT NOT NULL,
             rules TEXT,
             created_at TEXT NOT NULL,
             expires_at TEXT NOT NULL,
             challenger_sprint_id INTEGER UNIQUE REFERENCES sprints(id),
             opponent_sprint_id INTEGER UNIQUE REFERENCES sprints(id),
             CHECK (challenger_id != opponent_id)
           ) STRICT"""
    )
    db.execute("CREATE INDEX duels_challenger ON duels (challenger_id, created_at)")
    db.execute("CREATE INDEX duels_opponent ON duels (opponent_id, created_at)")


@MIGRATIONS()
def m021_invitations(db: Database) -> None:
    """Invitations from a class list: per name on the list, a one-time code (only its SHA-256
    digest is kept) with which that trainee makes his own account and joins the group, by his own
    act; `redeemed_by` is the account he made (or the signed-in account that used the code), and
    `withdrawn_at` marks a code its instructor withdrew or replaced by a new slip."""
    db.execute(
        """CREATE TABLE invitations (
             id INTEGER PRIMARY KEY,
             group_id INTEGER NOT NULL REFERENCES groups(id),
             name TEXT NOT NULL,
             code_hash TEXT NOT NULL UNIQUE,
             made_by INTEGER NOT NULL REFERENCES users(id),
             created_at TEXT NOT NULL,
             expires_at TEXT NOT NULL,
             redeemed_at TEXT,
             redeemed_by INTEGER REFERENCES users(id),
             withdrawn_at TEXT
           ) STRICT"""
    )
    db.execute("CREATE INDEX invitations_group ON invitations (group_id, id)")


def _refresh_kind_total(row: str) -> str:
    """The statements of a trigger that count one trainee's answers of one kind again from
    `attempts` (`row` is NEW or OLD: the trainee and kind of the answer written or removed)."""
    return f"""
        DELETE FROM kind_totals WHERE trainee_id = {row}.trainee_id AND kind = {row}.kind;
        INSERT INTO kind_totals (trainee_id, kind, attempts, correct, first_at, last_at)
            SELECT trainee_id, kind, count(*), sum(correct), min(answered_at), max(answered_at)
            FROM attempts WHERE trainee_id = {row}.trainee_id AND kind = {row}.kind
            GROUP BY trainee_id, kind;
        {_median_update(row)}"""


def _median_update(row: str) -> str:
    """An UPDATE setting the median time of the trainee's answers of the kind: the middle one of
    `attempts_trainee_kind_time` (or the mean of the two middle ones), read by offset along it."""
    this = f"trainee_id = {row}.trainee_id AND kind = {row}.kind"
    count = f"(SELECT attempts FROM kind_totals WHERE {this})"
    return f"""UPDATE kind_totals SET median_ms = (
            SELECT avg(time_ms) FROM (
                SELECT time_ms FROM attempts WHERE {this} ORDER BY time_ms
                LIMIT 2 - {count} % 2 OFFSET ({count} - 1) / 2))
        WHERE {this};"""


@MIGRATIONS()
def m022_kind_totals(db: Database) -> None:
    """Per trainee and drill kind, his answers' count, right ones, first and last time and median
    time (`kind_totals`), kept by triggers on `attempts` in the statement that writes an answer (so
    in its transaction, whichever code or tool writes it): the instructor's desk reads a row per
    member and kind instead of every answer (`Groups.report`). Filled here from the answers there
    are. And an index of the drills readiness counts as not right (skipped, or left open), so the
    desk's readiness does not read every drill of its members."""
    db.execute(
        """CREATE TABLE kind_totals (
             trainee_id INTEGER NOT NULL,
             kind TEXT NOT NULL,
             attempts INTEGER NOT NULL,
             correct INTEGER NOT NULL,
             first_at TEXT NOT NULL,
             last_at TEXT NOT NULL,
             median_ms REAL,
             PRIMARY KEY (trainee_id, kind)
           ) STRICT"""
    )
    db.execute(
        f"""CREATE TRIGGER kind_totals_answer AFTER INSERT ON attempts BEGIN
              INSERT INTO kind_totals (trainee_id, kind, attempts, correct, first_at, last_at)
                VALUES (NEW.trainee_id, NEW.kind, 1, NEW.correct, NEW.answered_at, NEW.answered_at)
                ON CONFLICT (trainee_id, kind) DO UPDATE SET
                  attempts = attempts + 1,
                  correct = correct + excluded.correct,
                  first_at = min(first_at, excluded.first_at),
                  last_at = max(last_at, excluded.last_at);
              {_median_update("NEW")}
            END"""
    )
    db.execute(
        f"""CREATE TRIGGER kind_totals_removed AFTER DELETE ON attempts BEGIN
              {_refresh_kind_total("OLD")}
            END"""
    )
    db.execute(
        f"""CREATE TRIGGER kind_totals_changed
              AFTER UPDATE OF trainee_id, kind, correct, time_ms, answered_at ON attempts BEGIN
              {_refresh_kind_total("OLD")}
              {_refresh_kind_total("NEW")}
            END"""
    )
    # The medians of the answers there are in one pass along the index (trainee, kind, time).
    db.execute(
        """INSERT INTO kind_totals (trainee_id, kind, attempts, correct, first_at, last_at, median_ms)
           SELECT t.trainee_id, t.kind, t.n, t.right, t.first_at, t.last_at, m.median_ms
           FROM (SELECT trainee_id, kind, count(*) AS n, sum(correct) AS right,
                        min(answered_at) AS first_at, max(answered_at) AS last_at
                 FROM attempts GROUP BY trainee_id, kind) t
           JOIN (SELECT trainee_id, kind, avg(time_ms) AS median_ms
                 FROM (SELECT trainee_id, kind, time_ms,
                              row_number() OVER (PARTITION BY trainee_id, kind ORDER BY time_ms) AS r,
                              count(*) OVER (PARTITION BY trainee_id, kind) AS n
                       FROM attempts)
                 WHERE r IN ((n + 1) / 2, (n + 2) / 2) GROUP BY trainee_id, kind) m
             ON m.trainee_id = t.trainee_id AND m.kind = t.kind"""
    )
    db.execute(
        "CREATE INDEX drills_not_answered ON drills (trainee_id, kind, level) "
        "WHERE skipped_at IS NOT NULL OR answered = 0"
    )


_ITEM = ("group_id", "kind", "level", "mode")  # a row of the desk's item analysis
_KIND = ("group_id", "kind")  # a row of the report's item analysis


def _same(keys: tuple[str, ...], left: str, right: str) -> str:
    return " AND ".join(f"{left}.{key} = {right}.{key}" for key in keys)


def _median_pointer(table: str, keys: tuple[str, ...], row: str, written: bool) -> str:
    """The statements that keep `table`'s median of `time_ms` over its rows of `group_answers`
    after `row` (NEW or OLD) was written (`written`) or removed. Each row of `table` keeps the
    lower middle answer (`low_ms`, `low_id`: ordered by time, then attempt id) and moves it by one
    answer (a seek along the index) when an answer comes or goes, so a new answer costs the same
    in a class of 5 as of 500; the median is the lower middle, or the mean of it and the next."""
    here = _same(keys, table, row)
    among = _same(keys, "g", row)
    key = f"({row}.time_ms, {row}.attempt_id)"
    low = f"({table}.low_ms, {table}.low_id)"
    before = (
        f"(SELECT g.time_ms, g.attempt_id FROM group_answers g "
        f"WHERE {among} AND (g.time_ms, g.attempt_id) < {low} "
        "ORDER BY g.time_ms DESC, g.attempt_id DESC LIMIT 1)"
    )
    after = (
        f"(SELECT g.time_ms, g.attempt_id FROM group_answers g "
        f"WHERE {among} AND (g.time_ms, g.attempt_id) > {low} "
        "ORDER BY g.time_ms, g.attempt_id LIMIT 1)"
    )
    if written:  # the new answer is among them; `attempts` counts it
        moves = f"""
        UPDATE {table} SET (low_ms, low_id) = {before}
            WHERE {here} AND attempts % 2 = 0 AND {key} < {low};
        UPDATE {table} SET (low_ms, low_id) = {after}
            WHERE {here} AND attempts > 1 AND attempts % 2 = 1 AND {key} > {low};"""
    else:  # the answer is gone; `attempts` no longer counts it
        moves = f"""
        UPDATE {table} SET (low_ms, low_id) = {before}
            WHERE {here} AND attempts % 2 = 0 AND {key} >= {low};
        UPDATE {table} SET (low_ms, low_id) = {after}
            WHERE {here} AND attempts % 2 = 1 AND {key} <= {low};"""
    next_ms = (
        f"(SELECT g.time_ms FROM group_answers g WHERE {among} AND (g.time_ms, g.attempt_id) > {low} "
        "ORDER BY g.time_ms, g.attempt_id LIMIT 1)"
    )
    return f"""{moves}
        UPDATE {table} SET median_ms = CASE WHEN attempts % 2 = 1 THEN low_ms
                                            ELSE (low_ms + {next_ms}) / 2.0 END
            WHERE {here};"""


def _counted(table: str, keys: tuple[str, ...], row: str, written: bool, when: str = "1") -> str:
    """The statements that count `row` (NEW or OLD, when `when` holds) in or out of `table`'s `n`."""
    if written:
        return f"""
        INSERT INTO {table} ({", ".join(keys)}, n) SELECT {", ".join(f"{row}.{k}" for k in keys)}, 1
            WHERE {when} ON CONFLICT ({", ".join(keys)}) DO UPDATE SET n = n + 1;"""
    here = _same(keys, table, row)
    return f"""
        DELETE FROM {table} WHERE {here} AND n = 1 AND {when};
        UPDATE {table} SET n = n - 1 WHERE {here} AND {when};"""


def _in_group(group: str, user: str, at: str) -> str:
    """A member of the group now, who was in it at `at` (the desk's members and `while_member`)."""
    return (
        f"EXISTS (SELECT 1 FROM memberships m WHERE m.group_id = {group} AND m.user_id = {user}) "
        f"AND EXISTS (SELECT 1 FROM membership_periods p WHERE p.group_id = {group} AND p.user_id = {user} "
        f"AND {at} >= p.joined_at AND (p.left_at IS NULL OR {at} < p.left_at))"
    )


_GROUP_ANSWER = (
    "a.id, a.trainee_id, a.drill_id, a.kind, d.level, a.mode, a.time_ms, a.correct, a.answer, "
    "a.mistake, a.answered_at"
)
_GROUP_COLUMNS = (
    "group_id, attempt_id, trainee_id, drill_id, kind, level, mode, time_ms, correct, answer, "
    "mistake, answered_at"
)


def _resync(group: str, user: str) -> str:
    """The statements that make the user's rows of `group_answers` in the group what `_in_group`
    keeps: after he joins or leaves, or a period of his changes."""
    return f"""
        DELETE FROM group_answers WHERE group_id = {group} AND trainee_id = {user}
            AND NOT ({_in_group(group, user, "group_answers.answered_at")});
        INSERT INTO group_answers ({_GROUP_COLUMNS})
            SELECT {group}, {_GROUP_ANSWER} FROM attempts a JOIN drills d ON d.id = a.drill_id
            WHERE a.trainee_id = {user} AND {_in_group(group, user, "a.answered_at")}
              AND NOT EXISTS (SELECT 1 FROM group_answers x WHERE x.group_id = {group}
                              AND x.attempt_id = a.id);"""


@MIGRATIONS()
def m023_group_answers(db: Database) -> None:
    """The desk's item analysis and mistakes kept as answers are written, by triggers (so in the
    answer's transaction, whoever writes it). `group_answers` holds each answer a current member of
    a group gave while in it (what `Groups.item_details` reads), once per group: it follows
    `attempts`, `memberships` and `membership_periods`. From it, per group: `group_items` (per
    kind, level and mode) and `group_kinds` (per kind) count the answers and the right ones and
    keep the median time; `group_wrong` counts each wrong answer per kind, level and mode with the
    first drill it was given to, `group_kind_wrong` per kind; `group_item_mistakes`, `group_mistake_kinds` and
    `group_mistake_members` count the catalogued mistakes per kind, level and mode, per kind, and
    per trainee. The desk then reads rows per kind and level, not every answer of the group."""
    db.execute(
        """CREATE TABLE group_answers (
             group_id INTEGER NOT NULL, attempt_id INTEGER NOT NULL, trainee_id INTEGER NOT NULL,
             drill_id INTEGER NOT NULL, kind TEXT NOT NULL, level INTEGER NOT NULL, mode TEXT NOT NULL,
             time_ms INTEGER NOT NULL, correct INTEGER NOT NULL, answer TEXT NOT NULL, mistake TEXT,
             answered_at TEXT NOT NULL,
             PRIMARY KEY (group_id, attempt_id)
           ) STRICT"""
    )
    db.execute("CREATE INDEX group_answers_attempt ON group_answers (attempt_id)")
    db.execute("CREATE INDEX group_answers_member ON group_answers (group_id, trainee_id)")
    db.execute(
        "CREATE INDEX group_answers_item_time "
        "ON group_answers (group_id, kind, level, mode, time_ms, attempt_id)"
    )
    db.execute("CREATE INDEX group_answers_kind_time ON group_answers (group_id, kind, time_ms, attempt_id)")
    # A member's newest answers in the group with their kind and level (the desk's readiness).
    db.execute(
        "CREATE INDEX group_answers_recent "
        "ON group_answers (group_id, trainee_id, answered_at, drill_id, kind, level, correct, time_ms)"
    )
    db.execute(
        "CREATE INDEX group_answers_wrong ON group_answers (group_id, kind, level, mode, answer, drill_id) "
        "WHERE correct = 0"
    )
    for table, keys in (("group_items", _ITEM), ("group_kinds", _KIND)):
        columns = ", ".join(
            f"{k} {'INTEGER' if k in ('group_id', 'level') else 'TEXT'} NOT NULL" for k in keys
        )
        db.execute(
            f"""CREATE TABLE {table} (
                 {columns}, attempts INTEGER NOT NULL, correct INTEGER NOT NULL,
                 low_ms INTEGER NOT NULL, low_id INTEGER NOT NULL, median_ms REAL,
                 PRIMARY KEY ({", ".join(keys)})
               ) STRICT"""
        )
    db.execute(
        """CREATE TABLE group_wrong (
             group_id INTEGER NOT NULL, kind TEXT NOT NULL, level INTEGER NOT NULL, mode TEXT NOT NULL,
             answer TEXT NOT NULL, n INTEGER NOT NULL, drill_id INTEGER NOT NULL,
             PRIMARY KEY (group_id, kind, level, mode, answer)
           ) STRICT"""
    )
    counters = {
        "group_kind_wrong": ("group_id", "kind", "answer"),
        "group_item_mistakes": (*_ITEM, "mistake"),
        "group_mistake_kinds": ("group_id", "mistake", "kind"),
        "group_mistake_members": ("group_id", "mistake", "trainee_id"),
    }
    for table, keys in counters.items():
        columns = ", ".join(
            f"{k} {'INTEGER' if k in ('group_id', 'level', 'trainee_id') else 'TEXT'} NOT NULL" for k in keys
        )
        db.execute(
            f"CREATE TABLE {table} ({columns}, n INTEGER NOT NULL, PRIMARY KEY ({', '.join(keys)})) STRICT"
        )
    db.execute("CREATE INDEX group_kind_wrong_rank ON group_kind_wrong (group_id, kind, n DESC, answer)")
    # The most frequent first of each kind, level and mode, along the index (the desk shows three).
    db.execute("CREATE INDEX group_wrong_rank ON group_wrong (group_id, kind, level, mode, n DESC, answer)")
    db.execute(
        "CREATE INDEX group_item_mistakes_rank "
        "ON group_item_mistakes (group_id, kind, level, mode, n DESC, mistake)"
    )
    written, removed = [], []
    for table, keys in (("group_items", _ITEM), ("group_kinds", _KIND)):
        names = ", ".join(keys)
        written.append(
            f"""
        INSERT INTO {table} ({names}, attempts, correct, low_ms, low_id)
            VALUES ({", ".join(f"NEW.{k}" for k in keys)}, 1, NEW.correct, NEW.time_ms, NEW.attempt_id)
            ON CONFLICT ({names}) DO UPDATE SET
              attempts = attempts + 1, correct = correct + excluded.correct;"""
            + _median_pointer(table, keys, "NEW", True)
        )
        here = _same(keys, table, "OLD")
        removed.append(
            f"""
        DELETE FROM {table} WHERE {here} AND attempts = 1;
        UPDATE {table} SET attempts = attempts - 1, correct = correct - OLD.correct WHERE {here};"""
            + _median_pointer(table, keys, "OLD", False)
        )
    wrong_keys = (*_ITEM, "answer")
    written.append(
        f"""
        INSERT INTO group_wrong ({", ".join(wrong_keys)}, n, drill_id)
            SELECT {", ".join(f"NEW.{k}" for k in wrong_keys)}, 1, NEW.drill_id WHERE NEW.correct = 0
            ON CONFLICT ({", ".join(wrong_keys)}) DO UPDATE SET
              n = n + 1, drill_id = min(drill_id, excluded.drill_id);"""
    )
    here = _same(wrong_keys, "group_wrong", "OLD")
    removed.append(
        f"""
        DELETE FROM group_wrong WHERE {here} AND n = 1 AND OLD.correct = 0;
        UPDATE group_wrong SET n = n - 1, drill_id = (
            SELECT min(g.drill_id) FROM group_answers g
            WHERE {_same(wrong_keys, "g", "OLD")} AND g.correct = 0)
            WHERE {here} AND OLD.correct = 0;"""
    )
    for table, keys in counters.items():
        counts = "correct = 0" if table == "group_kind_wrong" else "mistake IS NOT NULL"
        written.append(_counted(table, keys, "NEW", True, f"NEW.{counts}"))
        removed.append(_counted(table, keys, "OLD", False, f"OLD.{counts}"))
    db.execute(
        f"CREATE TRIGGER group_answers_written AFTER INSERT ON group_answers BEGIN {''.join(written)} END"
    )
    db.execute(
        f"CREATE TRIGGER group_answers_removed AFTER DELETE ON group_answers BEGIN {''.join(removed)} END"
    )
    # What feeds `group_answers`: the answers, and who is in which group when.
    add_answer = f"""
        INSERT INTO group_answers ({_GROUP_COLUMNS})
            SELECT m.group_id, {_GROUP_ANSWER} FROM memberships m
            JOIN attempts a ON a.id = NEW.id JOIN drills d ON d.id = a.drill_id
            WHERE m.user_id = NEW.trainee_id
              AND {_in_group("m.group_id", "NEW.trainee_id", "NEW.answered_at")};"""
    db.execute(f"CREATE TRIGGER group_answers_answer AFTER INSERT ON attempts BEGIN {add_answer} END")
    drop_answer = "DELETE FROM group_answers WHERE attempt_id = OLD.id;"
    db.execute(
        f"CREATE TRIGGER group_answers_answer_removed AFTER DELETE ON attempts BEGIN {drop_answer} END"
    )
    db.execute(
        f"""CREATE TRIGGER group_answers_answer_changed AFTER UPDATE ON attempts BEGIN
              {drop_answer}{add_answer}
            END"""
    )
    for table in ("memberships", "membership_periods"):
        for event, rows in (("INSERT", ("NEW",)), ("DELETE", ("OLD",)), ("UPDATE", ("OLD", "NEW"))):
            body = "".join(_resync(f"{r}.group_id", f"{r}.user_id") for r in rows)
            db.execute(
                f"CREATE TRIGGER group_answers_{table}_{event.lower()} "
                f"AFTER {event} ON {table} BEGIN {body} END"
            )
    db.execute(
        f"""INSERT INTO group_answers ({_GROUP_COLUMNS})
            SELECT m.group_id, {_GROUP_ANSWER} FROM memberships m
            JOIN attempts a ON a.trainee_id = m.user_id JOIN drills d ON d.id = a.drill_id
            WHERE {_in_group("m.group_id", "m.user_id", "a.answered_at")}
            ORDER BY m.group_id, a.id"""
    )


# `attempts_trainee_kind_time` orders a trainee's answers of a kind by these (the row id last): a
# total order by time, which the median's pointer (m024) moves along, and the pointer's columns.
_TIME_ORDER = ("time_ms", "correct", "mode", "answered_at", "id")
_LOW = ("low_ms", "low_correct", "low_mode", "low_at", "low_id")


def _time_key(row: str, columns: tuple[str, ...] = _TIME_ORDER) -> str:
    return "(" + ", ".join(f"{row}.{column}" for column in columns) + ")"


def _kind_median(row: str, written: bool | None) -> str:
    """The statements that keep `kind_totals`' median time of the trainee's answers of the kind
    after `row` (NEW or OLD) was written (`written`), or after the row was counted again from the
    answers (`written` None: the pointer found by offset, as rarely as answers are removed or
    changed). The row keeps its lower middle answer (`_LOW`: its place in `_TIME_ORDER`) and
    moves it by one answer, a seek along the index, when an answer comes: a trainee's 2,000th
    answer of a kind costs what his first did, where reading the middle by offset read half of
    them. The pointer is kept as the index's columns, not only the answer's id, so that the seek
    is a range of the index even where many answers took the same time."""
    this = f"kind_totals.trainee_id = {row}.trainee_id AND kind_totals.kind = {row}.kind"
    among = f"a.trainee_id = {row}.trainee_id AND a.kind = {row}.kind"
    low = _time_key("kind_totals", _LOW)
    up = ", ".join(f"a.{column}" for column in _TIME_ORDER)
    down = ", ".join(f"a.{column} DESC" for column in _TIME_ORDER)
    pointer = "(" + ", ".join(_LOW) + ")"

    def next_of(direction: str, order: str, columns: str) -> str:
        return (
            f"(SELECT {columns} FROM attempts a WHERE {among} AND {_time_key('a')} {direction} {low} "
            f"ORDER BY {order} LIMIT 1)"
        )

    if written is None:
        moves = f"""
        UPDATE kind_totals SET {pointer} = (
            SELECT {up} FROM attempts a WHERE {among} ORDER BY {up} LIMIT 1 OFFSET (
              (SELECT k.attempts FROM kind_totals k WHERE k.trainee_id = {row}.trainee_id
               AND k.kind = {row}.kind) - 1) / 2)
            WHERE {this};"""
    else:  # the new answer is among them; `attempts` counts it
        moves = f"""
        UPDATE kind_totals SET {pointer} = {next_of("<", down, up)}
            WHERE {this} AND attempts % 2 = 0 AND {_time_key(row)} < {low};
        UPDATE kind_totals SET {pointer} = {next_of(">", up, up)}
            WHERE {this} AND attempts > 1 AND attempts % 2 = 1 AND {_time_key(row)} > {low};"""
    return f"""{moves}
        UPDATE kind_totals SET median_ms = CASE WHEN attempts % 2 = 1 THEN low_ms
                                                ELSE (low_ms + {next_of(">", up, "a.time_ms")}) / 2.0 END
            WHERE {this};"""


def _recount_kind_total(row: str) -> str:
    """`_refresh_kind_total` with the median's pointer (m024)."""
    return f"""
        DELETE FROM kind_totals WHERE trainee_id = {row}.trainee_id AND kind = {row}.kind;
        INSERT INTO kind_totals (trainee_id, kind, attempts, correct, first_at, last_at)
            SELECT trainee_id, kind, count(*), sum(correct), min(answered_at), max(answered_at)
            FROM attempts WHERE trainee_id = {row}.trainee_id AND kind = {row}.kind
            GROUP BY trainee_id, kind;
        {_kind_median(row, None)}"""


@MIGRATIONS()
def m024_kind_median_pointer(db: Database) -> None:
    """`kind_totals` keeps its median time by a pointer to the lower middle answer (`_LOW`),
    moved by one answer as each is written, instead of reading the middle by offset along the
    index at every answer (half the trainee's answers of the kind: the answer's cost grew with
    them). The pointers of the totals there are found here.

    And the table is made again WITHOUT ROWID, its rows in the order of its key (trainee, kind):
    the desk reads a member's rows together (a row per member and kind: 7,200 at 200 members)
    rather than one look-up in the table per entry of its key's index, and an answer writes one
    b-tree of it, not two."""
    for name in ("kind_totals_answer", "kind_totals_removed", "kind_totals_changed"):
        db.execute(f"DROP TRIGGER {name}")
    db.execute(
        """CREATE TABLE kind_totals_keyed (
             trainee_id INTEGER NOT NULL,
             kind TEXT NOT NULL,
             attempts INTEGER NOT NULL,
             correct INTEGER NOT NULL,
             first_at TEXT NOT NULL,
             last_at TEXT NOT NULL,
             median_ms REAL,
             low_ms INTEGER,
             low_correct INTEGER,
             low_mode TEXT,
             low_at TEXT,
             low_id INTEGER,
             PRIMARY KEY (trainee_id, kind)
           ) STRICT, WITHOUT ROWID"""
    )
    kept = "trainee_id, kind, attempts, correct, first_at, last_at, median_ms"
    db.execute(f"INSERT INTO kind_totals_keyed ({kept}) SELECT {kept} FROM kind_totals")
    db.execute("DROP TABLE kind_totals")
    db.execute("ALTER TABLE kind_totals_keyed RENAME TO kind_totals")
    new_low = ", ".join(f"NEW.{column}" for column in _TIME_ORDER)
    db.execute(
        f"""CREATE TRIGGER kind_totals_answer AFTER INSERT ON attempts BEGIN
              INSERT INTO kind_totals
                  (trainee_id, kind, attempts, correct, first_at, last_at, {", ".join(_LOW)})
                VALUES (NEW.trainee_id, NEW.kind, 1, NEW.correct, NEW.answered_at, NEW.answered_at, {new_low})
                ON CONFLICT (trainee_id, kind) DO UPDATE SET
                  attempts = attempts + 1,
                  correct = correct + excluded.correct,
                  first_at = min(first_at, excluded.first_at),
                  last_at = max(last_at, excluded.last_at);
              {_kind_median("NEW", True)}
            END"""
    )
    db.execute(
        f"""CREATE TRIGGER kind_totals_removed AFTER DELETE ON attempts BEGIN
              {_recount_kind_total("OLD")}
            END"""
    )
    db.execute(
        f"""CREATE TRIGGER kind_totals_changed
              AFTER UPDATE OF trainee_id, kind, correct, time_ms, answered_at, mode ON attempts BEGIN
              {_recount_kind_total("OLD")}
              {_recount_kind_total("NEW")}
            END"""
    )
    up = ", ".join(f"a.{column}" for column in _TIME_ORDER)
    db.execute(
        f"""UPDATE kind_totals SET ({", ".join(_LOW)}) = (m.time_ms, m.correct, m.mode, m.answered_at, m.id)
            FROM (SELECT {up}, a.trainee_id, a.kind,
                         row_number() OVER (PARTITION BY a.trainee_id, a.kind ORDER BY {up}) AS r,
                         count(*) OVER (PARTITION BY a.trainee_id, a.kind) AS n
                  FROM attempts a) m
            WHERE m.trainee_id = kind_totals.trainee_id AND m.kind = kind_totals.kind
              AND m.r = (m.n + 1) / 2"""
    )


@MIGRATIONS()
def m025_group_answers_by_game(db: Database) -> None:
    """`group_answers_recent` holds a member's answers of each game together (by the kinds' game
    prefix, `trainer.store.readiness.GAME_PREFIX`), newest last: the desk's readiness reads the
    newest answers of one game of a member without stepping over his answers in the others (at
    200 members, a third of the index entries it read)."""
    db.execute("DROP INDEX group_answers_recent")
    db.execute(
        "CREATE INDEX group_answers_recent ON group_answers (group_id, trainee_id, "
        "substr(kind, 1, instr(kind, '.')), answered_at, drill_id, kind, level, correct, time_ms)"
    )

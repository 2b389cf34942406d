"""Migration m015 of the progress database, run in the order of `MIGRATIONS` in `__init__.py`."""

from __future__ import annotations

from sqlite_utils import Database


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

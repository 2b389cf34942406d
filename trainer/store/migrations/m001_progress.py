"""Migration m001 of the progress database, run in the order of `MIGRATIONS` in `__init__.py`."""

from __future__ import annotations

from sqlite_utils import Database


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

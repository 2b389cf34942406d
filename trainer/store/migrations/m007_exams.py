"""Migration m007 of the progress database, run in the order of `MIGRATIONS` in `__init__.py`."""

from __future__ import annotations

from sqlite_utils import Database


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

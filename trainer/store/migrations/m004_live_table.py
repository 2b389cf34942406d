"""Migration m004 of the progress database, run in the order of `MIGRATIONS` in `__init__.py`."""

from __future__ import annotations

from sqlite_utils import Database


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

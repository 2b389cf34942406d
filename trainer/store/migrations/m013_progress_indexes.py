"""Migration m013 of the progress database, run in the order of `MIGRATIONS` in `__init__.py`."""

from __future__ import annotations

from sqlite_utils import Database


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

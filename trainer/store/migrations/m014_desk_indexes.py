"""Migration m014 of the progress database, run in the order of `MIGRATIONS` in `__init__.py`."""

from __future__ import annotations

from sqlite_utils import Database


def m014_desk_indexes(db: Database) -> None:
    """The index the instructor's desk reads each member's last answers along, newest first, within
    his time in the group (readiness, with LIMIT), with no lookup of the row. The counts and medians
    per kind read `attempts_trainee_kind_time` (m013), which carries the answered time, so the
    membership stretches are checked in the index there too."""
    db.execute(
        "CREATE INDEX attempts_member_recent "
        "ON attempts (trainee_id, answered_at, kind, correct, time_ms, drill_id)"
    )

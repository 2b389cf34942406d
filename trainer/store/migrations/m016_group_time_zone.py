"""Migration m016 of the progress database, run in the order of `MIGRATIONS` in `__init__.py`."""

from __future__ import annotations

from sqlite_utils import Database


def m016_group_time_zone(db: Database) -> None:
    """A group's time zone (an IANA name such as Asia/Tbilisi; NULL: the instance's, `TRAINER_TIME_ZONE`),
    in which its desk, its quizzes' times and its exports are entered and shown. Times stay stored in
    UTC."""
    db.execute("ALTER TABLE groups ADD COLUMN time_zone TEXT")

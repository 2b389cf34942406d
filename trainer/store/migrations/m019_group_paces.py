"""Migration m019 of the progress database, run in the order of `MIGRATIONS` in `__init__.py`."""

from __future__ import annotations

from sqlite_utils import Database


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

"""Migration m018 of the progress database, run in the order of `MIGRATIONS` in `__init__.py`."""

from __future__ import annotations

from sqlite_utils import Database


def m018_board_names(db: Database) -> None:
    """Whether a trainee hides his name on his groups' weekly leaderboards (`users.board_hidden`): his
    groupmates then read a neutral label; his instructor still sees him."""
    db.execute("ALTER TABLE users ADD COLUMN board_hidden INTEGER NOT NULL DEFAULT 0")
    db.execute("CREATE INDEX sprints_started ON sprints (started_at)")

"""Migration m021 of the progress database, run in the order of `MIGRATIONS` in `__init__.py`."""

from __future__ import annotations

from sqlite_utils import Database


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

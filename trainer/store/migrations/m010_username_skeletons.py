"""Migration m010 of the progress database, run in the order of `MIGRATIONS` in `__init__.py`."""

from __future__ import annotations

from sqlite_utils import Database

from trainer.store.usernames import username_skeleton


def m010_username_skeletons(db: Database) -> None:
    """Each username's skeleton (`usernames.username_skeleton`: what it looks like, UTS #39) under a
    unique index, so that a name drawn like an existing one (a Cyrillic "е" for a Latin "e") is refused
    by the database itself, even when two sign-ups race.

    Accounts made before this that look alike all keep working: the first (lowest id) gets the
    skeleton, a later look-alike none (NULL, which the unique index allows), and every new name is
    still compared with the first. A new `confusables.txt` changes skeletons: it needs a migration
    that makes them again."""
    db.execute("ALTER TABLE users ADD COLUMN username_skeleton TEXT")
    seen: set[str] = set()
    for row in list(db.query("SELECT id, username FROM users ORDER BY id")):
        shape = username_skeleton(row["username"])
        if shape in seen:
            continue
        seen.add(shape)
        db.execute("UPDATE users SET username_skeleton = ? WHERE id = ?", [shape, row["id"]])
    db.execute("CREATE UNIQUE INDEX users_username_skeleton ON users (username_skeleton)")

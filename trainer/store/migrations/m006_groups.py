"""Migration m006 of the progress database, run in the order of `MIGRATIONS` in `__init__.py`."""

from __future__ import annotations

from sqlite_utils import Database


def m006_groups(db: Database) -> None:
    """Groups with join codes and members; per group and game its house rules (a shipped preset) and
    readiness target; the group a trainee practises for, and the group each drill was practised for."""
    db.create_table(
        "groups",
        {"id": int, "name": str, "owner_id": int, "join_code": str, "created_at": str},
        pk="id",
        foreign_keys=[("owner_id", "users", "id")],
        not_null=["name", "owner_id", "join_code", "created_at"],
        strict=True,
    )
    db.execute("CREATE UNIQUE INDEX groups_join_code ON groups (join_code)")
    db.execute("CREATE INDEX groups_owner ON groups (owner_id)")
    db.create_table(
        "memberships",
        {"group_id": int, "user_id": int, "joined_at": str},
        pk=("group_id", "user_id"),
        foreign_keys=[("group_id", "groups", "id"), ("user_id", "users", "id")],
        not_null=["group_id", "user_id", "joined_at"],
        strict=True,
    )
    db.execute("CREATE INDEX memberships_user ON memberships (user_id)")
    db.create_table(
        "group_rules",
        {"group_id": int, "game": str, "preset": str, "updated_at": str},
        pk=("group_id", "game"),
        foreign_keys=[("group_id", "groups", "id")],
        not_null=["group_id", "game", "preset", "updated_at"],
        strict=True,
    )
    db.create_table(
        "group_targets",
        {
            "group_id": int,
            "game": str,
            "accuracy": float,
            "window": int,
            "min_level": int,
            "median_seconds": float,
        },
        pk=("group_id", "game"),
        foreign_keys=[("group_id", "groups", "id")],
        not_null=["group_id", "game", "accuracy", "window", "min_level", "median_seconds"],
        strict=True,
    )
    db.execute("ALTER TABLE users ADD COLUMN practice_group_id INTEGER REFERENCES groups(id)")
    db.execute("ALTER TABLE drills ADD COLUMN group_id INTEGER REFERENCES groups(id)")
    db.execute("CREATE INDEX drills_group ON drills (group_id)")

"""Migration m009 of the progress database, run in the order of `MIGRATIONS` in `__init__.py`."""

from __future__ import annotations

from sqlite_utils import Database


def m009_account_sessions(db: Database) -> None:
    """Server-side sessions, membership periods and when a one-time code was redeemed.

    - `sessions`: one row per signed-in browser (the cookie holds a random key, stored here as its
      digest); signing out ends the row, and a row unused past the idle limit or older than the
      absolute limit no longer signs anyone in.
    - `membership_periods`: every stretch of time a trainee was in a group (`left_at` NULL: still
      in it). An instructor reads a trainee's work only from within these periods; the periods of
      today's members start at the `joined_at` they already had.
    - `one_time_codes.redeemed_at`: the code set the password then (`used_at` is also set when a
      newer code or a new password made the code void).
    """
    db.create_table(
        "sessions",
        {
            "id": int,
            "user_id": int,
            "key_hash": str,
            "created_at": str,
            "seen_at": str,
            "ended_at": str,
        },
        pk="id",
        foreign_keys=[("user_id", "users", "id")],
        not_null=["user_id", "key_hash", "created_at", "seen_at"],
        strict=True,
    )
    db.execute("CREATE UNIQUE INDEX sessions_key ON sessions (key_hash)")
    db.execute("CREATE INDEX sessions_user ON sessions (user_id)")
    db.create_table(
        "membership_periods",
        {"id": int, "group_id": int, "user_id": int, "joined_at": str, "left_at": str},
        pk="id",
        foreign_keys=[("group_id", "groups", "id"), ("user_id", "users", "id")],
        not_null=["group_id", "user_id", "joined_at"],
        strict=True,
    )
    db.execute("CREATE INDEX membership_periods_member ON membership_periods (group_id, user_id)")
    db.execute(
        "INSERT INTO membership_periods (group_id, user_id, joined_at) "
        "SELECT group_id, user_id, joined_at FROM memberships ORDER BY joined_at"
    )
    db.execute("ALTER TABLE one_time_codes ADD COLUMN redeemed_at TEXT")

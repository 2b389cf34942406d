"""Migration m005 of the progress database, run in the order of `MIGRATIONS` in `__init__.py`."""

from __future__ import annotations

from sqlite_utils import Database

from trainer.store.usernames import username_from_name, username_key


def m005_accounts(db: Database) -> None:
    """Accounts, API tokens and one-time codes; every name-only trainee becomes an account to hand over.

    A user *is* a trainee with credentials: `users.id` is the trainee's id, so attempts, sprints and
    anything else kept per trainee belong to the account, and a guest who signs up keeps all of it.
    `session_epoch` is part of every session's login id: raising it ends every session at once.
    A NULL `password_hash` is an account nobody has claimed yet (a migrated name, or one an instructor
    made): it is claimed with a one-time code.
    """
    db.create_table(
        "users",
        {
            "id": int,
            "username": str,
            "username_key": str,
            "display_name": str,
            "password_hash": str,
            "role": str,
            "session_epoch": int,
            "created_at": str,
            "password_changed_at": str,
        },
        pk="id",
        foreign_keys=[("id", "trainees", "id")],
        not_null=["username", "username_key", "display_name", "role", "session_epoch", "created_at"],
        defaults={"session_epoch": 0, "role": "trainee"},
        strict=True,
    )
    db.execute("CREATE UNIQUE INDEX users_username ON users (username_key)")
    db.create_table(
        "api_tokens",
        {
            "id": int,
            "user_id": int,
            "token_hash": str,
            "label": str,
            "created_at": str,
            "revoked_at": str,
        },
        pk="id",
        foreign_keys=[("user_id", "users", "id")],
        not_null=["user_id", "token_hash", "created_at"],
        strict=True,
    )
    db.execute("CREATE UNIQUE INDEX api_tokens_hash ON api_tokens (token_hash)")
    db.execute("CREATE INDEX api_tokens_user ON api_tokens (user_id)")
    db.create_table(
        "one_time_codes",
        {
            "id": int,
            "user_id": int,
            "code_hash": str,
            "made_by": int,
            "created_at": str,
            "expires_at": str,
            "used_at": str,
        },
        pk="id",
        foreign_keys=[("user_id", "users", "id"), ("made_by", "users", "id")],
        not_null=["user_id", "code_hash", "created_at", "expires_at"],
        strict=True,
    )
    db.execute("CREATE INDEX one_time_codes_user ON one_time_codes (user_id)")
    # Name-only trainees: each becomes an unclaimed account under a username made from the name.

    taken: set[str] = set()
    for row in list(db.query("SELECT id, name, created_at FROM trainees WHERE name IS NOT NULL ORDER BY id")):
        username = username_from_name(row["name"], taken)
        taken.add(username_key(username))
        db.table("users").insert(
            {
                "id": row["id"],
                "username": username,
                "username_key": username_key(username),
                "display_name": row["name"],
                "password_hash": None,
                "role": "trainee",
                "session_epoch": 0,
                "created_at": row["created_at"],
            }
        )

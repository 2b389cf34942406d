"""Migration m011 of the progress database, run in the order of `MIGRATIONS` in `__init__.py`."""

from __future__ import annotations

from sqlite_utils import Database


def m011_sign_in_failures(db: Database) -> None:
    """Failed password checks per key (`trainer.store.sign_in_failures`), kept here rather than in each
    worker's memory so that all the workers of a server count them together."""
    db.create_table(
        "sign_in_failures",
        {"id": int, "key": str, "at": float},
        pk="id",
        not_null=["key", "at"],
        strict=True,
    )
    db.execute("CREATE INDEX sign_in_failures_key ON sign_in_failures (key, at)")
    db.execute("CREATE INDEX sign_in_failures_at ON sign_in_failures (at)")

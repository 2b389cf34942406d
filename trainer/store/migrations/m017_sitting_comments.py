"""Migration m017 of the progress database, run in the order of `MIGRATIONS` in `__init__.py`."""

from __future__ import annotations

from sqlite_utils import Database


def m017_sitting_comments(db: Database) -> None:
    """An instructor's comments on a trainee's quiz sitting, which the trainee reads on his result
    page (`seen_at`: when he first did, so he is told of unread ones)."""
    db.create_table(
        "sitting_comments",
        {"id": int, "sitting_id": int, "author_id": int, "text": str, "created_at": str, "seen_at": str},
        pk="id",
        foreign_keys=[("sitting_id", "exam_sittings", "id"), ("author_id", "users", "id")],
        not_null=["sitting_id", "author_id", "text", "created_at"],
        strict=True,
    )
    db.execute("CREATE INDEX sitting_comments_sitting ON sitting_comments (sitting_id, id)")

"""An instructor's comments on a trainee's quiz sitting: written on the sitting's review page by the
instructor of the quiz's group, read by the trainee on his result page; the trainee is told of the
ones he has not read yet.

>>> from trainer.store.schema import open_db
>>> db = open_db(":memory:")
>>> clean_comment("  Check the ante first.  ")
'Check the ante first.'
"""

from __future__ import annotations

from datetime import UTC
from typing import Any

from sqlite_utils import Database

from trainer.store.clock import Clock
from trainer.store.clock import utc_now as _utc_now
from trainer.store.progress import Refusal
from trainer.store.schema import insert, writing

COMMENT_MAX = 2000


class CommentError(Refusal):
    """A comment the store refuses: `empty` or `long` (with `max`)."""


def clean_comment(text: Any) -> str:
    body = text.strip().replace("\r\n", "\n") if isinstance(text, str) else ""
    if not body:
        raise CommentError("empty")
    if len(body) > COMMENT_MAX:
        raise CommentError("long", max=COMMENT_MAX)
    return body


class Comments:
    def __init__(self, db: Database, *, clock: Clock = _utc_now) -> None:
        self.db = db
        self.clock = clock

    def add(self, sitting_id: int, author_id: int, text: Any) -> int:
        body = clean_comment(text)
        with writing(self.db):
            return insert(
                self.db,
                "sitting_comments",
                {
                    "sitting_id": sitting_id,
                    "author_id": author_id,
                    "text": body,
                    "created_at": self.clock().astimezone(UTC).isoformat(timespec="microseconds"),
                },
            )

    def of_sitting(self, sitting_id: int) -> list[dict[str, Any]]:
        return list(
            self.db.query(
                """SELECT c.id, c.text, c.created_at, c.seen_at, u.display_name AS author
                   FROM sitting_comments c JOIN users u ON u.id = c.author_id
                   WHERE c.sitting_id = ? ORDER BY c.id""",
                [sitting_id],
            )
        )

    def unread(self, trainee_id: int) -> list[dict[str, Any]]:
        """The trainee's sittings with comments he has not read, newest first, with the quiz's title."""
        return list(
            self.db.query(
                """SELECT s.id AS sitting_id, e.title, count(*) AS comments FROM sitting_comments c
                   JOIN exam_sittings s ON s.id = c.sitting_id JOIN exams e ON e.id = s.exam_id
                   WHERE s.trainee_id = ? AND c.seen_at IS NULL GROUP BY s.id ORDER BY max(c.id) DESC""",
                [trainee_id],
            )
        )

    def mark_read(self, sitting_id: int) -> None:
        with writing(self.db):
            self.db.execute(
                "UPDATE sitting_comments SET seen_at = ? WHERE sitting_id = ? AND seen_at IS NULL",
                [self.clock().astimezone(UTC).isoformat(timespec="microseconds"), sitting_id],
            )

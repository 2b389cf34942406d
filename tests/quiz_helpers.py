"""Shared by the store tests of assigned quizzes: a group with its instructor in a fresh database, and
the fields of a quiz open from now for a day, made by him."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from conftest import memory_db

from trainer.store.accounts import FAST_HASHER, Accounts, Role
from trainer.store.groups import Groups


def group_and_quiz_fields(title: str, questions: int) -> tuple[Any, int, dict[str, Any]]:
    """(database, the group's id, `Exams.create`'s fields but the group and the questions' source):
    untimed, one attempt, the same questions for all, answers shown on hand-in."""
    database = memory_db()
    teacher = Accounts(database, hasher=FAST_HASHER).create_user(
        "teacher", "a long secret", role=Role.INSTRUCTOR
    )
    group = Groups(database).create(teacher["id"], "Evening class")["id"]
    now = datetime.now(UTC)
    fields = dict(
        title=title,
        items=[],
        questions=questions,
        time_limit_s=None,
        attempts_allowed=1,
        same_questions=True,
        opens_at=now,
        closes_at=now + timedelta(days=1),
        answers_before_close=True,
        made_by=teacher["id"],
    )
    return database, group, fields

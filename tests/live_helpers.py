"""A live class opened through the instructor's form, as the live tests and the page sweeps need it."""

from __future__ import annotations

import re

from trainer.web.core import db


def open_live(
    teacher, group_id: int, kinds: list[str], *, questions: int = 2, seconds: int = 20
) -> tuple[int, str]:
    """Open a live session of `group_id` at level 1 (fast scoring) from `teacher`'s form: its id and
    the code its phones join with."""
    made = teacher.post(
        "/live/new",
        data={
            "group": group_id,
            "kinds": kinds,
            "level": 1,
            "questions": questions,
            "seconds": seconds,
            "scoring": "fast",
        },
    )
    assert made.status_code == 303, made.get_data(as_text=True)[:500]
    session_id = int(re.search(r"/live/(\d+)/projector", made.location).group(1))
    with teacher.application.app_context():
        found = db.store().db.execute("SELECT code FROM live_sessions WHERE id = ?", [session_id]).fetchone()
    return session_id, found[0]

"""What the feedback shows of an answered drill, on the trainee's page and on the instructor's desk alike."""

from __future__ import annotations

from typing import Any

from trainer.drills import get_kind
from trainer.drills.base import expected_of
from trainer.web.core import db
from trainer.web.core.pace import rated
from trainer.web.situations.catalog import game_title, kind_title
from trainer.web.situations.mistakes import recorded_mistake


def graded(drill: dict[str, Any]) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
    """The drill's attempt and what the feedback shows of it (expected text, steps, mistake, pace); both
    None while it is open. The instructor's desk shows an attempt the same way."""
    attempt = db.store().attempt(drill["id"]) if drill["answered"] else None
    if attempt is None:
        return None, None
    _expected, expected_text, steps = expected_of(
        drill["situation"], get_kind(drill["kind"]), houses=db.houses()
    )
    grade = {
        "expected_text": expected_text,
        "steps": steps,
        "mistake": recorded_mistake(drill["situation"], attempt, db.houses()),
        "pace": rated(drill["kind"], attempt, drill.get("group_id")),
    }
    return attempt, grade


def drill_shown(drill: dict[str, Any]) -> dict[str, Any]:
    """What a page of one drill shows of it (the template's arguments): the drill, its kind and
    titles, the situation, its attempt and feedback (`graded`: both None while it is open)."""
    kind = get_kind(drill["kind"])
    attempt, grade = graded(drill)
    return {
        "drill": drill,
        "kind": kind,
        "title": kind_title(kind),
        "game": game_title(kind.game),
        "situation": drill["situation"],
        "attempt": attempt,
        "grade": grade,
    }

"""Naming a wrong answer's mistake on the pages and in the API, in the trainee's language.

The store records the mistake's id with the attempt; its sentence (the step that differs, with the
situation's numbers) is asked of the drill's catalogue again when shown, and shown only when the
catalogue still names the same mistake for that answer.
"""

from __future__ import annotations

from typing import Any

from flask_babel import gettext

from trainer.drills import Situation, diagnose
from trainer.drills.mistakes import Mistake, mistake_title
from trainer.engine.presets import HouseSource
from trainer.web.core.i18n import translate_step


def mistake_json(mistake: Mistake | None) -> dict[str, Any] | None:
    """{"id", "title", "text"} in the current language, or None."""
    if mistake is None:
        return None
    return {"id": mistake.id, "title": gettext(mistake.type.title), "text": translate_step(mistake.text)}


def recorded_mistake(
    situation: Situation, attempt: dict[str, Any], houses: HouseSource | None = None
) -> dict[str, Any] | None:
    """The mistake recorded with an attempt, named in the current language (None for none); `houses`
    holds the house preset the drill was dealt under, if it names one."""
    mistake_id = attempt.get("mistake")
    if not mistake_id:
        return None
    found = diagnose(situation, attempt["answer"], houses=houses)
    if found is not None and found.id == mistake_id:
        return mistake_json(found)
    return {"id": mistake_id, "title": gettext(mistake_title(mistake_id)), "text": None}

"""An answer's pace on every page that shows one (a drill's feedback, a sprint's result, the live
class's phone): against the drill kind's target in `data/pace.toml`, or the group's own target where
its instructor set one (`Groups.set_pace`). Only a right answer is rated: a fast wrong answer is not
fast work."""

from __future__ import annotations

from typing import Any

from trainer.drills import pace
from trainer.web.core import db


def paces_for(group_id: int | None) -> pace.Paces:
    """The school's paces with the group's own targets in their place."""
    return pace.shipped_paces().overridden(db.groups().paces(group_id))


def rated(kind: str, attempt: dict[str, Any] | None, group_id: int | None) -> dict[str, Any] | None:
    """`{"pace": "fast" | "on_pace" | "slow", "seconds": target, "own": the group's own target}` for
    a right, timed answer, else None."""
    if attempt is None or not attempt.get("correct") or attempt.get("time_ms") is None:
        return None
    own = db.groups().paces(group_id)
    paces = pace.shipped_paces().overridden(own)
    return {
        "pace": paces.rate(kind, int(attempt["time_ms"])).value,
        "seconds": paces.target_s(kind),
        "own": kind in own,
    }

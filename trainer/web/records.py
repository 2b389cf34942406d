"""What the pages show of a trainee's record: the home page summary and the progress page.

The store, the trainee and the drills come through `trainer.web.db`, the web's one door to the store.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from trainer.store import stats
from trainer.web.catalog import kind_title
from trainer.web.db import store

RECENT_DAYS = 14


def summary(trainee: int) -> dict[str, Any]:
    """Home page figures: accuracy per game over the last `RECENT_DAYS` days, and the weakest kinds."""
    from trainer.drills import REGISTRY

    db = store().db
    since = (datetime.now(UTC).date() - timedelta(days=RECENT_DAYS - 1)).isoformat()
    per_game: dict[str, dict[str, int]] = {}
    for row in stats.kind_summary(db, trainee):
        kind = REGISTRY.get(row["kind"])
        if kind is None:
            continue
        recent = [day for day in stats.trend_by_day(db, trainee, kind=kind.id) if day["day"] >= since]
        if not recent:
            continue
        totals = per_game.setdefault(kind.game, {"attempts": 0, "correct": 0})
        totals["attempts"] += sum(day["attempts"] for day in recent)
        totals["correct"] += sum(day["correct"] for day in recent)
    weakest = [
        {**row, "title": kind_title(row["kind"])}
        for row in stats.weakest_kinds(db, trainee)
        if row["kind"] in REGISTRY
    ]
    return {"games": per_game, "weakest": weakest, "days": RECENT_DAYS}


def progress(trainee: int) -> dict[str, Any]:
    db = store().db
    today = datetime.now(UTC).date()
    return {
        "kinds": [{**row, "title": kind_title(row["kind"])} for row in stats.kind_summary(db, trainee)],
        "trend": stats.trend_by_day(db, trainee),
        "streaks": stats.streaks(db, trainee, today=today),
        "bests": stats.sprint_bests(db, trainee),
        "mistakes": [
            {**row, "titles": [kind_title(k) for k in row["kinds"]]}
            for row in stats.frequent_mistakes(db, trainee)
        ],
    }

"""What the pages show of a trainee's record: the home page summary and the progress page.

The store, the trainee and the drills come through `trainer.web.db`, the web's one door to the store.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from trainer.store import stats
from trainer.store.practice import Today, practice_queue
from trainer.web.catalog import games_with_kinds, kind_title
from trainer.web.db import store

RECENT_DAYS = 14


def catalog(game: str | None = None) -> list[tuple[str, tuple[int, ...]]]:
    """(kind, levels) in the order today's practice brings new drills in: game by game, as listed."""
    return [(k.id, k.levels) for g in games_with_kinds() if game in (None, g["id"]) for k in g["kinds"]]


def today(trainee: int | None, game: str | None = None) -> Today:
    """Today's practice queue for the trainee (from nothing for a trainee with no record yet)."""
    now = datetime.now(UTC)
    if trainee is None:
        return practice_queue(store().db, -1, catalog(game), now=now)
    return practice_queue(store().db, trainee, catalog(game), now=now)


def summary(trainee: int) -> dict[str, Any]:
    """Home page figures: accuracy per game over the last `RECENT_DAYS` days, and the next drills of
    today's practice (the recommendation)."""
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
    queue = today(trainee)
    recommended = [{**item.to_json(), "title": kind_title(item.kind)} for item in queue.items[:3]]
    return {"games": per_game, "next": recommended, "today": queue, "days": RECENT_DAYS}


NO_PROGRESS: dict[str, Any] = {"kinds": [], "trend": [], "streaks": {}, "bests": []}


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


def trend_chart(trend: list[dict[str, Any]]) -> dict[str, list[Any]]:
    """The trend chart's series (static/js/progress.js): days, accuracy in per cent, median seconds."""
    return {
        "days": [row["day"] for row in trend],
        "accuracy": [round(100 * row["accuracy"], 1) for row in trend],
        "median_s": [round(row["median_ms"] / 1000, 1) for row in trend],
    }

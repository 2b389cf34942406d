"""The pages' one door to the progress store: a connection per request, the trainee from the session.

Views call these helpers instead of touching SQL or sqlite-utils themselves.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from flask import Flask, current_app, g, session

from trainer.store import Store, StoreError, open_db, stats
from trainer.web.catalog import kind_title


def init_app(app: Flask) -> None:
    # Migrate once at start-up; requests then open the file without re-checking the schema.
    open_db(app.config["DATABASE"]).conn.close()
    app.teardown_appcontext(_close)


def store() -> Store:
    if "trainer_store" not in g:
        g.trainer_store = Store(open_db(current_app.config["DATABASE"], migrate=False))
    return g.trainer_store


def _close(_error: BaseException | None) -> None:
    held = g.pop("trainer_store", None)
    if held is not None:
        held.db.conn.close()


def trainee_id() -> int | None:
    """The session's trainee (created from the name on first use), or None before a name is given."""
    name = session.get("trainee_name")
    if not name:
        return None
    cached = session.get("trainee_id")
    if isinstance(cached, int) and session.get("trainee_for") == name:
        return cached
    try:
        row = store().trainee_named(name)
    except StoreError:
        session.pop("trainee_name", None)
        return None
    session["trainee_id"], session["trainee_for"] = int(row["id"]), name
    return int(row["id"])


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
    }

"""What the pages show of a trainee's record: the home page summary and the progress page.

The store, the trainee and the drills come through `trainer.web.db`, the web's one door to the store.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from trainer.store import stats
from trainer.store.practice import Today, practice_queue
from trainer.store.readiness import Target
from trainer.web.catalog import games_with_kinds, kind_title
from trainer.web.db import groups, practice_group_id, store

RECENT_DAYS = 14


def catalog(game: str | None = None) -> list[tuple[str, tuple[int, ...]]]:
    """(kind, levels) in the order today's practice brings new drills in: game by game, as listed."""
    return [(k.id, k.levels) for g in games_with_kinds() if game in (None, g["id"]) for k in g["kinds"]]


def targets() -> dict[str, Target] | None:
    """The readiness target per drill kind of the group the signed-in trainee practises for (the one
    its instructor's desk judges him by), or None: the default target."""
    group_id = practice_group_id()
    if group_id is None:
        return None
    kinds = games_with_kinds()
    by_game = {g["id"]: groups().target(group_id, g["id"]) for g in kinds}
    return {k.id: by_game[g["id"]] for g in kinds for k in g["kinds"]}


def today(trainee: int | None, game: str | None = None) -> Today:
    """Today's practice queue for the trainee (from nothing for a trainee with no record yet); a level
    counts as mastered by the readiness target of the group he practises for, if any."""
    now = datetime.now(UTC)
    if trainee is None:
        return practice_queue(store().db, -1, catalog(game), now=now)
    return practice_queue(store().db, trainee, catalog(game), now=now, targets=targets())


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
    return {"games": per_game, "next": recommended(trainee, queue), "today": queue, "days": RECENT_DAYS}


SUGGESTED = 3
FEW_ANSWERS = 5  # below this many answers a drill's figure is shown as not yet telling
SURE_ENOUGH = 0.8  # a drill whose answers show this accuracy for sure needs no pointing out


def recommended(trainee: int, queue: Today) -> list[dict[str, Any]]:
    """ "Practise these next": first the drills the trainee most needs (`stats.needs`: the lowest
    accuracy the answers show for sure, so a drill answered once is uncertain, not strong) while they
    are below `SURE_ENOUGH`; then the head of today's queue (new drills for a new trainee); then the
    remaining answered drills, weakest first, so a strong drill comes last if at all."""
    from trainer.drills import REGISTRY

    ranked = [
        {**row, "reason": "need", "few": row["attempts"] < FEW_ANSWERS}
        for row in stats.needs(store().db, trainee, count=len(REGISTRY), kinds=REGISTRY)
    ]
    weak = [row for row in ranked if row["sure"] < SURE_ENOUGH]
    queued = [item.to_json() for item in queue.items]
    rows: list[dict[str, Any]] = []
    for row in [*weak, *queued, *ranked]:
        if len(rows) < SUGGESTED and row["kind"] not in {r["kind"] for r in rows}:
            rows.append(row)
    return [{**row, "title": kind_title(row["kind"])} for row in rows]


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

"""What the pages show of a trainee's record: the home page summary and the progress page.

The store, the trainee and the drills come through `trainer.web.core.db`, the web's one door to the store.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from trainer.store import stats
from trainer.store.practice import Item, Today, local_day, practice_queue
from trainer.store.readiness import Target
from trainer.web.core import local_time
from trainer.web.core.db import groups, practice_group_id, store
from trainer.web.situations.catalog import games_with_kinds, kind_title

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
        return practice_queue(store().db, -1, catalog(game), now=now, zone=local_time.instance_zone())
    return practice_queue(store().db, trainee, catalog(game), now=now, targets=targets(), zone=zone())


def zone() -> str:
    """The time zone of the signed-in trainee's day: his practised-for group's, else the instance's."""
    group_id = practice_group_id()
    return local_time.zone_of(None if group_id is None else groups().group(group_id))


def summary(trainee: int) -> dict[str, Any]:
    """Home page figures: accuracy per game over the last `RECENT_DAYS` days, and the next drills of
    today's practice (the recommendation)."""
    from trainer.drills import REGISTRY

    # The last days are calendar days in the trainee's time zone, as today's practice counts them.
    here = zone()
    first = datetime.now(UTC).astimezone(ZoneInfo(here)).date() - timedelta(days=RECENT_DAYS - 1)
    since = local_day(datetime.combine(first, time(12), tzinfo=ZoneInfo(here)), here)[0]
    per_game: dict[str, dict[str, int]] = {}
    for kind_id, recent in stats.recent_by_kind(store().db, trainee, since=since).items():
        kind = REGISTRY.get(kind_id)
        if kind is None:
            continue
        totals = per_game.setdefault(kind.game, {"attempts": 0, "correct": 0})
        totals["attempts"] += recent["attempts"]
        totals["correct"] += recent["correct"]
    queue = today(trainee)
    return {"games": per_game, "next": recommended(queue), "today": queue, "days": RECENT_DAYS}


SUGGESTED = 3
FEW_ANSWERS = 5  # below this many answers a drill's figure is shown as not yet telling


def entries(items: Sequence[Item], count: int) -> list[dict[str, Any]]:
    """The first `count` entries of a queue as the pages show them: a weak drill with its figure ("x of
    y right", and "too few answers to be sure" under `FEW_ANSWERS`), any other with why it is there."""
    return [
        {**item.to_json(), "title": kind_title(item.kind), "few": (item.attempts or 0) < FEW_ANSWERS}
        for item in items[:count]
    ]


def recommended(queue: Today) -> list[dict[str, Any]]:
    """ "Practise these next": the head of today's practice queue, the same the today page and
    `GET /api/v1/practice/next` serve (`trainer.store.practice`: weak drills first, the lowest accuracy
    their answers show for sure, so a drill answered wrong once is unknown, not strong; then what is
    due, new drills, practice ahead)."""
    return entries(queue.items, SUGGESTED)


NO_PROGRESS: dict[str, Any] = {"kinds": [], "trend": [], "streaks": {}, "bests": []}


def progress(trainee: int) -> dict[str, Any]:
    db = store().db
    day_zone = zone()
    today = datetime.now(UTC).astimezone(ZoneInfo(day_zone)).date()
    return {
        "kinds": [{**row, "title": kind_title(row["kind"])} for row in stats.kind_summary(db, trainee)],
        "trend": stats.trend_by_day(db, trainee),
        "streaks": stats.streaks(db, trainee, today=today, zone=day_zone),
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

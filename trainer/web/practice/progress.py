"""Progress: accuracy and median time per drill, the trend over days, streaks and sprint bests."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, render_template

from trainer.drills import REGISTRY
from trainer.web.core import db
from trainer.web.practice import records
from trainer.web.situations.catalog import game_title, games_with_kinds, sprint_title

bp = Blueprint("progress", __name__, url_prefix="/progress")


@bp.get("/")
def show() -> str:
    trainee = db.trainee_id()
    data = records.progress(trainee) if trainee is not None else records.NO_PROGRESS
    results = db.tables().table_test_results(trainee) if trainee is not None else []
    chart = records.trend_chart(data["trend"])
    bests = [{**row, "title": sprint_title(row["what"])} for row in data["bests"]]
    return render_template(
        "practice/progress.html",
        data=data,
        by_game=by_game(data["kinds"]),
        chart=chart,
        bests=bests,
        results=results,
        game_title=game_title,
    )


def by_game(kinds: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The per-drill rows grouped by game in the games' order, each game's drills in its order (a
    drill no longer installed comes last, under its own id); each row knows whether it can be practised."""
    rows = {row["kind"]: row for row in kinds}
    groups = []
    for game in games_with_kinds():
        listed = [{**rows.pop(kind.id), "practise": True} for kind in game["kinds"] if kind.id in rows]
        if listed:
            groups.append({"id": game["id"], "title": game["title"], "rows": listed})
    if rows:
        groups.append(
            {
                "id": "",
                "title": "",
                "rows": [{**row, "practise": row["kind"] in REGISTRY} for row in rows.values()],
            }
        )
    return groups

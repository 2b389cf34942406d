"""Progress: accuracy and median time per drill, the trend over days, streaks and sprint bests."""

from __future__ import annotations

from flask import Blueprint, render_template

from trainer.web import db, records
from trainer.web.catalog import game_title, kind_title

bp = Blueprint("progress", __name__, url_prefix="/progress")


@bp.get("/")
def show() -> str:
    trainee = db.trainee_id()
    data = records.progress(trainee) if trainee is not None else records.NO_PROGRESS
    results = db.tables().table_test_results(trainee) if trainee is not None else []
    chart = records.trend_chart(data["trend"])
    bests = [{**row, "title": kind_title(row["what"])} for row in data["bests"]]
    return render_template(
        "progress.html", data=data, chart=chart, bests=bests, results=results, game_title=game_title
    )

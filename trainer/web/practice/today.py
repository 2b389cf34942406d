"""Today's practice: the queue of what to practise next (`trainer.store.practice`), the daily goal,
and a start button that draws the head of the queue. A GET shows the queue and records nothing."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, redirect, render_template, request, session, url_for
from flask_babel import gettext
from flask_babel import lazy_gettext as _l
from werkzeug.wrappers import Response

from trainer.store.practice import Item, Reason
from trainer.web.core import db
from trainer.web.core.forms import EmptyForm
from trainer.web.core.guards import check_form, require_trainee
from trainer.web.practice import records
from trainer.web.practice.forms import today_form
from trainer.web.situations.catalog import games_with_kinds

bp = Blueprint("today", __name__, url_prefix="/today")

SESSION_KEY = "today"  # {"drill": the last drill drawn from the queue, "game": its game filter}
SHOWN = 8

REASONS = {
    Reason.DUE: _l("due for review"),
    Reason.NEXT_LEVEL: _l("next level: the one below is mastered"),
    Reason.NEW: _l("new drill"),
    Reason.AHEAD: _l("ahead of schedule"),
}


def reason_label(reason: str) -> str:
    return str(REASONS[Reason(reason)])


def game_or_400(raw: Any) -> str | None:
    if raw in (None, ""):
        return None
    if raw not in {g["id"] for g in games_with_kinds()}:
        abort(400, description=gettext("There is no such game."))
    return str(raw)


def shown(items: tuple[Item, ...], count: int = SHOWN) -> list[dict[str, Any]]:
    return records.entries(items, count)


@bp.get("/")
def show() -> str:
    game = game_or_400(request.args.get("game"))
    queue = records.today(db.trainee_id(), game)
    return render_template(
        "practice/today.html",
        today=queue,
        items=shown(queue.items),
        game=game,
        games=games_with_kinds(),
        form=EmptyForm(),
    )


@bp.post("/")
def start() -> Response:
    """Draw the head of the queue and show it; "next question" there comes back here."""
    form = today_form([g["id"] for g in games_with_kinds()])
    check_form(form)
    game = form.game.data or None
    trainee = require_trainee(back=url_for("today.show", game=game), start=True)
    head = records.today(trainee, game).items[0]
    drill_id = db.new_drill(trainee, head.kind, head.level)
    session[SESSION_KEY] = {"drill": drill_id, "game": game}
    return redirect(url_for("practice.show", drill_id=drill_id), code=303)


def drawn_here(drill_id: int) -> dict[str, Any] | None:
    """{"game": ...} when this drill was drawn from today's queue (its "next" continues the queue)."""
    held = session.get(SESSION_KEY)
    if isinstance(held, dict) and held.get("drill") == drill_id:
        return {"game": held.get("game")}
    return None

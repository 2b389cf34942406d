"""Home and the language switch (accounts: `trainer.web.accounts.views`)."""

from __future__ import annotations

from flask import Blueprint, abort, redirect, render_template, session, url_for
from werkzeug.wrappers import Response

from trainer.web.core import auth, db
from trainer.web.core.forms import LanguageForm
from trainer.web.core.guards import safe_next
from trainer.web.core.i18n import LANGUAGES
from trainer.web.practice import records
from trainer.web.situations.catalog import games_with_kinds, rules_in_force

bp = Blueprint("home", __name__)


@bp.get("/")
def home() -> str:
    trainee = db.trainee_id()
    summary = records.summary(trainee) if trainee is not None else None
    user = auth.current()
    assigned = db.exams().assigned_to(user.id) if user is not None else []
    games = games_with_kinds()
    # Each game's house rules in force, named above its drills (with the way to change them).
    rules = {
        g["id"]: rules_in_force(g["kinds"][0].id, db.rules_for_game(g["id"]), db.houses()) for g in games
    }
    return render_template("practice/home.html", games=games, summary=summary, assigned=assigned, rules=rules)


@bp.post("/language")
def language() -> Response:
    form = LanguageForm()
    if not form.validate() or form.lang.data not in LANGUAGES:
        abort(400, description="language")
    session["lang"] = form.lang.data
    session.permanent = True
    return redirect(safe_next(form.next.data, url_for("home.home")))

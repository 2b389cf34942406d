"""Home and the language switch (accounts: `trainer.web.account`)."""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import Blueprint, abort, redirect, render_template, session, url_for
from werkzeug.wrappers import Response

from trainer.web import auth, db, records
from trainer.web.catalog import games_with_kinds, rules_in_force
from trainer.web.forms import LanguageForm
from trainer.web.i18n import LANGUAGES

bp = Blueprint("pages", __name__)


def safe_next(target: str | None, default: str) -> str:
    """Only same-site paths: a form cannot send the trainee to another site."""
    if not target:
        return default
    parts = urlsplit(target)
    if parts.scheme or parts.netloc or not target.startswith("/") or target.startswith("//"):
        return default
    return target


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
    return render_template("home.html", games=games, summary=summary, assigned=assigned, rules=rules)


@bp.post("/language")
def language() -> Response:
    form = LanguageForm()
    if not form.validate() or form.lang.data not in LANGUAGES:
        abort(400, description="language")
    session["lang"] = form.lang.data
    session.permanent = True
    return redirect(safe_next(form.next.data, url_for("pages.home")))

"""Practice: one situation at a time, answered, graded and explained; "next" keeps drill and level.

A new situation is drawn and recorded only by a POST (the level buttons, "skip", "next question"):
`GET /practice/<kind>?level=N` shows a start button and records nothing, so a link or an image on
another site cannot make drills for a trainee.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext
from werkzeug.wrappers import Response

from trainer.drills import AnswerError
from trainer.games import GAMES
from trainer.store import AlreadyAnsweredError
from trainer.web.core import db, kept
from trainer.web.core.forms import AnswerForm, EmptyForm
from trainer.web.core.guards import Page, check_form, own_drill, require_trainee, safe_next
from trainer.web.core.i18n import error_text
from trainer.web.practice.forms import level_form, rules_choice_form
from trainer.web.practice.today import drawn_here
from trainer.web.situations.answers import kept_input, read_answer
from trainer.web.situations.catalog import game_title, kind_or_404, kind_title, level_or_400, rules_in_force
from trainer.web.situations.feedback import drill_shown

bp = Blueprint("practice", __name__, url_prefix="/practice")


@bp.get("/rules")
def rules() -> str:
    """The house rules the trainee practises each game under: the default (the group's rules, else
    the game's own) or any shipped preset; nothing is recorded by a GET."""
    return render_template(
        "practice/rules.html", choices=_rule_choices(), form=EmptyForm(), back=_back(request.args.get("next"))
    )


@bp.post("/rules")
def choose_rules() -> Response:
    choices = _rule_choices()
    form = rules_choice_form({game["id"]: {"", *(p["name"] for p in game["presets"])} for game in choices})
    check_form(form)
    for game in choices:
        field = form["rules_" + game["id"]]
        if not field.raw_data:
            continue
        name = field.data
        default = not game["group"] and name == game["presets"][0]["name"]  # the game's own default
        db.choose_rules(game["id"], None if default or not name else name)
    flash(gettext("Saved: the next questions are dealt under the house rules you chose."), "info")
    return redirect(_back(form.next.data), code=303)


def _back(target: str | None) -> str:
    return safe_next(target, url_for("practice.rules"))


def _rule_choices() -> list[dict[str, Any]]:
    """Per game: its shipped presets (name, title), the one the trainee chose (None: the default) and
    what the default is for this trainee (the group's rules, else the game's own preset)."""
    found = []
    for game in GAMES:
        group_rules = db.practice_rules(game.id)
        default = rules_in_force(game.kinds[0], group_rules, db.houses())
        found.append(
            {
                "id": game.id,
                "field": "rules-" + game.id,
                "title": game_title(game.id),
                "slug": game.slug,
                "presets": [
                    {"name": name, "title": (rules_in_force(game.kinds[0], name) or {}).get("title", name)}
                    for name in game.preset_names()
                ],
                "chosen": db.chosen_rules(game.id),
                "default_title": default["title"] if default else game.default_preset,
                "group": group_rules is not None,
            }
        )
    return found


@bp.get("/<kind_id>")
def start(kind_id: str) -> str:
    """The start button for this kind and level (shared links land here); nothing is recorded."""
    kind = kind_or_404(kind_id)
    level = level_or_400(kind, request.args.get("level"))
    return render_template(
        "practice/start.html",
        kind=kind,
        level=level,
        title=kind_title(kind),
        game=game_title(kind.game),
        form=EmptyForm(),
        rules=rules_in_force(kind.id, db.rules_for_game(kind.game), db.houses()),
    )


@bp.post("/<kind_id>")
def new(kind_id: str) -> Response:
    """Draw a new situation of this kind and level, then show it at its own address."""
    kind = kind_or_404(kind_id)
    form = level_form(kind)
    check_form(form)
    level = form.level.data
    trainee = require_trainee(back=url_for("practice.start", kind_id=kind.id, level=level), start=True)
    drill_id = db.new_drill(trainee, kind, level)
    return redirect(url_for("practice.show", drill_id=drill_id), code=303)


@bp.get("/drill/<int:drill_id>")
def show(drill_id: int) -> str:
    trainee = require_trainee()
    drill = own_drill(drill_id, trainee, "practice")
    return _render(drill)


@bp.post("/drill/<int:drill_id>")
def answer(drill_id: int) -> Page:
    trainee = require_trainee()
    form = AnswerForm()
    check_form(form)
    if form.drill.data != str(drill_id):
        abort(400, description=gettext("The answer was sent for another question. Reload the page."))
    drill = own_drill(drill_id, trainee, "practice")
    fmt = drill["situation"].answer_format
    here = url_for("practice.show", drill_id=drill_id)
    try:
        raw = read_answer(fmt, request.form)
        db.store().answer(drill_id, raw)
    except AnswerError as error:
        if kept.is_kept():
            said = error_text(error)
            return kept.reply(said, recorded=False, href=here, link=gettext("Open the question"), status=400)
        # Unreadable input is not a wrong answer: the question stays open, the input stays.
        return _render(drill, error=error_text(error), kept=kept_input(fmt, request.form, error=error)), 400
    except AlreadyAnsweredError:
        said = gettext("This question was already answered; the first answer counts.")
        if kept.is_kept():
            return kept.reply(said, recorded=False, href=here, link=gettext("See how it was graded"))
        flash(said, "error")
    else:
        return kept.recorded(
            gettext("The connection is back: your answer was sent and recorded."),
            href=here,
            link=gettext("See how it was graded"),
        )
    return redirect(here)


def _render(drill: dict[str, Any], error: str | None = None, kept: dict[str, Any] | None = None) -> str:
    form = AnswerForm(drill=str(drill["id"]))
    return render_template(
        "practice/practice.html",
        **drill_shown(drill),
        today=drawn_here(drill["id"]),
        form=form,
        error=error,
        kept=kept or {},
    )

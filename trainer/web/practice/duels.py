"""Duels: a trainee challenges a member of one of his groups to a sprint (`/duels/`).

- `GET /duels/`: the signed-in trainee's duels and the form to challenge a groupmate.
- `POST /duels/`: a challenge (a groupmate of a group both are in, a drill kind, level, length); the
  server draws its seeds and fixes the group's house rules, so both sides get the same situations.
- `GET /duels/<id>`: the duel, side by side, to its two sides only (404 to anyone else); the scores
  appear once both have finished, so the second player does not play against a known mark.
- `POST /duels/<id>/play`: the caller's own side's sprint, started on the first press and the same
  one afterwards (a second tab, a replayed form); refused once the duel has expired. The sprint then
  runs as every sprint does (`practice/sprints.py`): its owner alone answers, once per question.
"""

from __future__ import annotations

import secrets
from typing import Any

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext
from flask_login import current_user, login_required
from werkzeug.wrappers import Response

from trainer.drills import REGISTRY, RulesError, issue
from trainer.drills.base import MAX_SEED
from trainer.store import NotFoundError, Refusal
from trainer.web.core import db, local_time
from trainer.web.core.forms import DEFAULT_SPRINT_SECONDS, SPRINT_LENGTHS, EmptyForm, whole_number
from trainer.web.core.guards import check_form
from trainer.web.practice.sprints import next_question
from trainer.web.situations.catalog import kind_title, sprint_title

bp = Blueprint("duels", __name__, url_prefix="/duels")


def _groupmates(user_id: int) -> list[dict[str, Any]]:
    """Whom the user may challenge: per group he is in, its other members."""
    found = []
    for group in db.groups().of_member(user_id):
        members = [m for m in db.groups().members(int(group["id"])) if m["id"] != user_id]
        if members:
            found.append({"group": group, "members": members})
    return found


def _zone(group_id: int) -> str:
    """The duel's times are shown in its group's time zone."""
    return local_time.zone_of(db.groups().group(group_id))


def _party(duel_id: int) -> dict[str, Any]:
    try:
        return db.duels().party_duel(duel_id, current_user.id)
    except NotFoundError:
        abort(404, description=gettext("There is no such duel."))


def _rules_of(group_id: int, kind: str, level: int, seed: int) -> str | None:
    """The house rules the duel's situations are dealt under: the group's, named outright, so that
    neither side's own choice of rules changes them."""
    house = db.groups().rules_for_kind(group_id, kind)
    try:
        return issue(kind, level, seed=seed, rules=house, houses=db.houses()).rules
    except RulesError:
        return issue(kind, level, seed=seed).rules


@bp.get("/")
@login_required
def index() -> str:
    duels = db.duels().of_trainee(current_user.id)
    return render_template(
        "practice/duels.html",
        duels=duels,
        zones={d["group_id"]: _zone(int(d["group_id"])) for d in duels},
        groupmates=_groupmates(current_user.id),
        kinds=[(kind.id, kind_title(kind)) for kind in REGISTRY.values()],
        lengths=SPRINT_LENGTHS,
        form=EmptyForm(),
        me=current_user.id,
        title_of=sprint_title,
    )


@bp.post("/")
@login_required
def challenge() -> Response:
    check_form(EmptyForm())
    group_raw, _, opponent_raw = request.form.get("opponent", "").partition(":")
    kind = REGISTRY.get(request.form.get("kind", ""))
    level, length = whole_number(request.form.get("level")), whole_number(request.form.get("length"))
    group_id, opponent = whole_number(group_raw, 18), whole_number(opponent_raw, 18)
    if kind is None:
        abort(400, description=gettext("There is no such drill. Choose one from the list."))
    if level is None or level not in kind.levels:
        abort(400, description=gettext("This drill has no level %(level)s.", level=str(level or "")))
    if length not in SPRINT_LENGTHS:
        abort(400, description=gettext("Choose how many questions from the list."))
    if group_id is None or opponent is None:
        abort(400, description=gettext("Choose a groupmate from the list."))
    seeds = [secrets.randbelow(MAX_SEED + 1) for _ in range(length)]
    if not db.groups().is_member(group_id, current_user.id):
        abort(400, description=gettext("Choose a groupmate from the list."))
    rules = _rules_of(group_id, kind.id, level, seeds[0])
    try:
        duel_id = db.duels().challenge(
            group_id,
            current_user.id,
            opponent,
            kind.id,
            level,
            length,
            DEFAULT_SPRINT_SECONDS,
            seeds=seeds,
            rules=rules,
        )
    except Refusal:
        abort(400, description=gettext("Choose a groupmate from the list."))
    flash(gettext("The challenge is sent. Play your sprint when you like, before it expires."), "ok")
    return redirect(url_for("duels.show", duel_id=duel_id), code=303)


@bp.get("/<int:duel_id>")
@login_required
def show(duel_id: int) -> str:
    duel = db.duels().with_outcome(_party(duel_id))
    return render_template(
        "practice/duel.html",
        duel=duel,
        me=current_user.id,
        mine="challenger" if duel["challenger_id"] == current_user.id else "opponent",
        title=sprint_title(duel["kind"]),
        zones={duel["group_id"]: _zone(int(duel["group_id"]))},
        form=EmptyForm(),
    )


@bp.post("/<int:duel_id>/play")
@login_required
def play(duel_id: int) -> Response:
    check_form(EmptyForm())
    _party(duel_id)
    try:
        sprint_id = db.duels().start_side(duel_id, current_user.id)
    except NotFoundError:
        abort(404, description=gettext("There is no such duel."))
    except Refusal:
        abort(409, description=gettext("This duel has expired: it can no longer be played."))
    sprint = db.store().sprint(sprint_id)
    if sprint["finished_at"] is not None:
        return redirect(url_for("sprints.result", sprint_id=sprint_id), code=303)
    next_question(sprint)  # its open question (a second press finds the same one)
    return redirect(url_for("sprints.run", sprint_id=sprint_id), code=303)

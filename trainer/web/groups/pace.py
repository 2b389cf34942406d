"""The group's own pace for a drill kind (`POST /groups/<id>/pace`, the owner only; anyone else gets
404, as for the desk): seconds a question, 1 to 600; blank puts the school's target back
(`data/pace.toml`). It rates the group's drills, sprints and live answers (`trainer.web.core.pace`)."""

from __future__ import annotations

import math

from flask import Response, abort, flash, redirect, request, url_for
from flask_babel import gettext

from trainer.drills import REGISTRY
from trainer.web.core import db
from trainer.web.core.auth import instructor_required
from trainer.web.core.forms import EmptyForm
from trainer.web.core.guards import check_form
from trainer.web.groups.views import _owned, bp

MAX_PACE_S = 600


@bp.post("/<int:group_id>/pace")
@instructor_required
def set_pace(group_id: int) -> Response:
    check_form(EmptyForm())
    _owned(group_id)
    kind = request.form.get("kind", "")
    if kind not in REGISTRY:
        abort(400, description=gettext("There is no such drill. Choose one from the list."))
    raw = request.form.get("seconds", "").strip().replace(",", ".")
    if not raw:
        db.groups().set_pace(group_id, kind, None)
        flash(gettext("The drill is rated against the school's pace again."), "ok")
    else:
        try:
            seconds = float(raw)
        except ValueError:
            seconds = math.nan
        if not 1 <= seconds <= MAX_PACE_S:  # also refuses NaN and infinity
            abort(
                400,
                description=gettext(
                    "Give the target time as a number of seconds from 1 to %(most)s.", most=MAX_PACE_S
                ),
            )
        db.groups().set_pace(group_id, kind, round(seconds, 1))
        flash(gettext("The group's pace is saved."), "ok")
    return redirect(url_for("groups.desk", group_id=group_id) + "#pace-title", code=303)

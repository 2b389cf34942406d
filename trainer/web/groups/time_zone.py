"""The group's time zone, chosen on its desk (`POST /groups/<id>/time-zone`, the owner only; anyone
else gets 404, as for the desk). Empty: the instance's (`TRAINER_TIME_ZONE`)."""

from __future__ import annotations

from flask import Response, abort, flash, redirect, request, url_for
from flask_babel import gettext

from trainer.store.accounts import AccountError
from trainer.web.core import db
from trainer.web.core.auth import instructor_required
from trainer.web.core.forms import EmptyForm
from trainer.web.core.guards import check_form
from trainer.web.core.settings import is_time_zone
from trainer.web.groups.views import _owned, bp


@bp.post("/<int:group_id>/time-zone")
@instructor_required
def set_time_zone(group_id: int) -> Response:
    check_form(EmptyForm())
    _owned(group_id)
    raw = request.form.get("time_zone", "").strip()
    if raw and not is_time_zone(raw):
        abort(400, description=gettext("There is no such time zone. Choose one from the list."))
    try:
        db.groups().set_time_zone(group_id, raw or None)
    except AccountError:
        abort(400, description=gettext("There is no such time zone. Choose one from the list."))
    flash(gettext("The group's time zone is saved. Every time on its pages is shown in it."), "ok")
    return redirect(url_for("groups.desk", group_id=group_id) + "#settings-title")

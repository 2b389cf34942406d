"""Bulk enrolment, for the group's owner only (anyone else: 404, as for the desk): a class list,
pasted or uploaded (.txt or .csv), becomes an invitation per name with a one-time code, shown once
as a sheet of slips to print and hand out (A4, eight to a page). Each trainee makes his own account
with his code (`/account/invitation`, `trainer.web.accounts.views`) and is in the group from then
on; the instructor sees who joined, withdraws a code, or prints new slips for those who have not.

- `GET /groups/<id>/invitations`: the form and the group's invitations with their state.
- `POST /groups/<id>/invitations`: the list; the sheet of slips (the codes, this once).
- `POST /groups/<id>/invitations/renew`: new slips for every waiting invitation (asks first).
- `POST /groups/<id>/invitations/<invitation id>/withdraw`: that code stops working.
"""

from __future__ import annotations

from typing import Any

from flask import abort, current_app, flash, redirect, render_template, request, url_for
from flask_babel import gettext
from flask_login import current_user
from werkzeug.wrappers import Response

from trainer.store.accounts import AccountError
from trainer.store.invitations import INVITATION_DAYS, LIST_BYTES_MAX, decode_list, read_names
from trainer.web.core import local_time
from trainer.web.core.auth import instructor_required, invitations, say
from trainer.web.core.forms import EmptyForm
from trainer.web.core.guards import Page, check_form
from trainer.web.groups.forms import ClassListForm
from trainer.web.groups.views import _confirm, _owned, bp


def _render_page(group: dict[str, Any], form: ClassListForm | None = None, status: int = 200) -> Page:
    page = render_template(
        "groups/invitations.html",
        group=group,
        form=form or ClassListForm(formdata=None),
        buttons=EmptyForm(),
        invitations=invitations().of_group(int(group["id"]), current_user.id),
        zone=local_time.zone_of(group),
        days=INVITATION_DAYS,
    )
    return (page, status) if status != 200 else page


def _slips(group: dict[str, Any], slips: list[dict[str, Any]]) -> str:
    return render_template(
        "groups/slips.html",
        group=group,
        slips=slips,
        address=url_for("accounts.invitation", _external=True),
        zone=local_time.zone_of(group),
    )


@bp.get("/<int:group_id>/invitations")
@instructor_required
def invitations_page(group_id: int) -> Page:
    return _render_page(_owned(group_id))


@bp.post("/<int:group_id>/invitations")
@instructor_required
def invite(group_id: int) -> Page:
    group = _owned(group_id)
    form = ClassListForm()
    if not form.validate():
        return _render_page(group, form, 400)
    text = form.names.data or ""
    try:
        if form.names_file.data:
            text += "\n" + decode_list(form.names_file.data.read(LIST_BYTES_MAX + 1))
        names = read_names(text)
        slips = invitations().create(group_id, current_user.id, names)
    except AccountError as error:
        field = form.names_file if error.reason in ("class_list_encoding", "class_list_big") else form.names
        field.errors = [*field.errors, say(error)]
        return _render_page(group, form, 400)
    current_app.logger.info(
        "%s invitations made for group %s by instructor %s", len(slips), group_id, current_user.id
    )
    return _slips(group, slips)


@bp.post("/<int:group_id>/invitations/renew")
@instructor_required
def renew_invitations(group_id: int) -> Page:
    """Asks first: every waiting code stops working, and the new sheet is shown this once."""
    check_form(EmptyForm())
    group = _owned(group_id)
    if request.form.get("confirm") != "1":
        return _confirm(group, "renew", url_for("groups.renew_invitations", group_id=group_id))
    slips = invitations().renew(group_id, current_user.id)
    if not slips:
        flash(gettext("No invitation is waiting: there is nothing to print."), "ok")
        return redirect(url_for("groups.invitations_page", group_id=group_id))
    return _slips(group, slips)


@bp.post("/<int:group_id>/invitations/<int:invitation_id>/withdraw")
@instructor_required
def withdraw_invitation(group_id: int, invitation_id: int) -> Response:
    check_form(EmptyForm())
    _owned(group_id)
    if not invitations().withdraw(group_id, current_user.id, invitation_id):
        abort(404, description=gettext("There is no such waiting invitation."))
    flash(gettext("The invitation is withdrawn: its code no longer works."), "ok")
    return redirect(url_for("groups.invitations_page", group_id=group_id))

"""Comments on a quiz sitting: the instructor of the quiz's group writes one on the sitting's review
page (`POST /exams/sittings/<id>/comments`; anyone else gets 404, as for the review), the trainee
reads them on his result page, and his home page and Groups page tell him of unread ones
(`unread_comments()` in templates)."""

from __future__ import annotations

from typing import Any

from flask import Response, abort, flash, redirect, request, url_for
from flask_babel import gettext
from flask_login import current_user

from trainer.store import NotFoundError
from trainer.store.comments import CommentError
from trainer.web.core import db
from trainer.web.core.auth import instructor_required
from trainer.web.core.forms import EmptyForm
from trainer.web.core.guards import check_form
from trainer.web.quizzes.views import _owned_exam, bp


@bp.post("/sittings/<int:sitting_id>/comments")
@instructor_required
def comment(sitting_id: int) -> Response:
    check_form(EmptyForm())
    try:
        sitting = db.exams().sitting(sitting_id)
    except NotFoundError:
        abort(404, description=gettext("There is no such quiz."))
    _owned_exam(int(sitting["exam_id"]))  # 404 unless the quiz is of the instructor's own group
    if sitting["finished_at"] is None:
        abort(409, description=gettext("Comment on a sitting once it is handed in."))
    try:
        db.comments().add(sitting_id, current_user.id, request.form.get("text"))
    except CommentError as refused:
        if refused.reason == "long":
            abort(
                400,
                description=gettext(
                    "A comment has at most %(max)s\u00a0characters.", max=refused.params["max"]
                ),
            )
        abort(400, description=gettext("Write the comment first."))
    flash(gettext("Your comment is saved; the trainee sees it on his result page."), "ok")
    return redirect(url_for("quizzes.review", sitting_id=sitting_id) + "#comments-title")


@bp.app_template_global()
def unread_comments() -> list[dict[str, Any]]:
    """The signed-in user's sittings with comments he has not read yet (none for a guest)."""
    if not getattr(current_user, "is_authenticated", False):
        return []
    return db.comments().unread(int(current_user.id))

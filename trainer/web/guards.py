"""Checks every view of the trainee's pages shares: a named trainee, a sound form, own records."""

from __future__ import annotations

from typing import Any

from flask import abort, redirect, request, url_for
from flask_babel import gettext
from flask_wtf import FlaskForm

from trainer.web import db


def expired_form_message() -> str:
    return gettext(
        "The form has expired or was changed (security check failed). "
        "Your progress is safe: reload the page and answer again."
    )


def require_trainee(back: str | None = None) -> int:
    """The trainee's id; without a name, off to the name form and back here (or to `back`) afterwards.

    Only a POST may create the trainee's row (for a name given before the row existed)."""
    trainee = db.trainee_id(create=request.method == "POST")
    if trainee is None:
        if back is None:
            back = request.full_path if request.method == "GET" else request.referrer or url_for("pages.home")
        abort(redirect(url_for("pages.trainee", next=back)))
    return trainee


def check_form(form: FlaskForm) -> None:
    """A form with a bad CSRF token or fields is refused with 400 and a sentence, nothing recorded."""
    if form.validate():
        return
    csrf = getattr(form, "csrf_token", None)
    if csrf is not None and csrf.errors:
        abort(400, description=expired_form_message())
    abort(400, description=gettext("The form was incomplete or changed. Reload the page and try again."))


def own_drill(drill_id: int, trainee: int, mode: str) -> dict[str, Any]:
    """The trainee's own drill of this mode, or 404 (another trainee's drill does not exist for him)."""
    return db.drill_or_404(drill_id, trainee, mode)

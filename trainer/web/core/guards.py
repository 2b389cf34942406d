"""Checks every view of the trainee's pages shares: a trainee (account or guest), a sound form, own work."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from flask import Response, abort, redirect, render_template, request, url_for
from flask_babel import gettext
from flask_wtf import FlaskForm

from trainer.web.core import db

Page = str | Response | tuple[str, int]  # what a page view returns: a page, a redirect, a page and its status


def expired_form_message() -> str:
    return gettext(
        "The form has expired or was changed (security check failed). "
        "Your progress is safe: reload the page and answer again."
    )


def require_trainee(back: str | None = None, *, start: bool = False) -> int:
    """The trainee's id: the signed-in user's, else this browser's guest. Guests practise at once: the
    POST that starts something (`start`: a drill, sprint, quiz, round or table test), once its form
    is checked, makes the guest's row. Nothing else does (a GET, an answer, a skip or a finish: a
    visitor without a row owns nothing to act on); without a trainee the visitor goes to `back`
    (default: the start page)."""
    trainee = db.trainee_id(create=start and request.method == "POST")
    if trainee is None:
        abort(redirect(back or url_for("home.home")))
    return trainee


def check_form(form: FlaskForm, refused: int = 400) -> None:
    """A form with a bad CSRF token or fields is refused with 400 and a sentence, nothing recorded.
    A `PageForm` says its first field's own sentence, with the status `refused` (a bad CSRF token
    is always 400)."""
    if form.validate():
        return
    csrf = getattr(form, "csrf_token", None)
    if csrf is not None and csrf.errors:
        abort(400, description=expired_form_message())
    if getattr(form, "says_why", False):
        said = [error for name, errors in form.errors.items() if name != "csrf_token" for error in errors]
        if said:
            abort(refused, description=str(said[0]))
    abort(400, description=gettext("The form was incomplete or changed. Reload the page and try again."))


class FormPage:
    """The page of a form that a GET shows and a POST sends back: one template and what else it is
    given, so that every answer of the view (the form, the form refused, the store's refusal) is that
    page with the form as it stands, at its own status."""

    def __init__(self, template: str, form: FlaskForm, **context: Any) -> None:
        self.template = template
        self.form = form
        self.context = context

    def show(self, status: int = 200) -> Page:
        page = render_template(self.template, form=self.form, **self.context)
        return page if status == 200 else (page, status)

    def first(self, **filled: Any) -> Page:
        """The page as a GET shows it, the `filled` fields' data set (from the link that led to it)."""
        for name, value in filled.items():
            self.form[name].data = value
        return self.show()

    def shown_or_refused(self, **filled: Any) -> Page | None:
        """On a GET, the page `first` shows; on a POST whose fields the form refuses, the page again
        with 400; None for a sound POST, which the view goes on to act on."""
        if request.method == "GET":
            return self.first(**filled)
        if not self.form.validate():
            return self.show(400)
        return None


def check_csrf(form: FlaskForm) -> None:
    """Only the CSRF token of a form whose fields the page itself says are wrong (400 and the
    expired-form sentence, nothing recorded)."""
    csrf = getattr(form, "csrf_token", None)
    if csrf is not None and not csrf.validate(form):
        abort(400, description=expired_form_message())


def own_drill(drill_id: int, trainee: int, mode: str) -> dict[str, Any]:
    """The trainee's own drill of this mode, or 404 (another trainee's drill does not exist for him)."""
    return db.drill_or_404(drill_id, trainee, mode)


def safe_next(target: str | None, default: str) -> str:
    """Only same-site paths: a form cannot send the trainee to another site."""
    if not target:
        return default
    parts = urlsplit(target)
    if parts.scheme or parts.netloc or not target.startswith("/") or target.startswith("//"):
        return default
    return target

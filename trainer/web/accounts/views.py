"""Account pages: sign up, sign in, sign out (here or everywhere: both end sessions on the server),
change password, set a password with a one-time code, the user's API tokens, and every one-time code
made for the account (who made it, whether it was used).

A guest's practice is kept: signing up makes the guest's trainee row the account; signing in to an
existing account moves the guest's work into it.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from flask import Blueprint, abort, flash, g, redirect, render_template, request, session, url_for
from flask_babel import gettext
from flask_login import current_user, login_required, logout_user
from werkzeug.wrappers import Response

from trainer.store.accounts import TOKEN_LABEL_MAX, AccountError, check_new_password, clean_username
from trainer.web.accounts.forms import (
    ChangePasswordForm,
    CodeForm,
    InvitationForm,
    InvitationJoinForm,
    SignInForm,
    SignUpForm,
    TokenForm,
)
from trainer.web.core import sign_in_limits
from trainer.web.core.auth import (
    GUEST_KEY,
    accounts,
    end_session,
    guest_id,
    invitations,
    say,
    start_session,
)
from trainer.web.core.forms import EmptyForm
from trainer.web.core.guards import FormPage, Page, check_form, safe_next

bp = Blueprint("accounts", __name__, url_prefix="/account")


def _start_session(row: dict[str, Any]) -> None:
    """Sign this browser in as `row`; a guest's practice in this browser comes along."""
    guest = guest_id()
    if guest is not None:
        accounts().move_guest_work(guest, int(row["id"]))
    session.pop(GUEST_KEY, None)
    start_session(row)
    sign_in_limits.proved(row)


def failed_sign_in() -> None:
    """Count this request against the failed sign-in limit (only failures are counted)."""
    g.failed_sign_in = True


@bp.route("/sign-in", methods=["GET", "POST"])
def sign_in() -> Page:
    form = SignInForm()
    if request.method == "GET" and current_user.is_authenticated:
        return redirect(url_for("accounts.index"))
    page = FormPage("accounts/sign_in.html", form)
    if (shown := page.shown_or_refused(next=request.args.get("next", ""))) is not None:
        return shown
    row = accounts().check_password(form.username.data, form.password.data)
    if row is None:
        failed_sign_in()
        form.password.errors.append(gettext("The username or the password is not right."))
        return page.show(401)
    _start_session(row)
    return redirect(safe_next(form.next.data, url_for("home.home")))


@bp.route("/sign-up", methods=["GET", "POST"])
def sign_up() -> Page:
    form = SignUpForm()
    page = FormPage("accounts/sign_up.html", form)
    if request.method == "GET":
        return page.first(next=request.args.get("next", ""))
    valid = form.validate()
    # Every error at once: the name's and the password's own rules are checked even when the form
    # already failed (a short password was hidden behind "the two passwords are not the same").
    for field, check in (
        (form.username, lambda: clean_username(form.username.data)),
        (form.password, lambda: check_new_password(form.password.data, form.username.data or "")),
    ):
        if field.errors or not field.data:
            continue
        try:
            check()
        except AccountError as error:
            field.errors = [*field.errors, say(error)]
            valid = False
    if not valid:
        return page.show(400)
    if current_user.is_authenticated:
        end_session()
    try:
        row = accounts().sign_up(form.username.data, form.password.data, guest_id=guest_id())
    except AccountError as error:
        field = form.password if error.reason.startswith("password") else form.username
        field.errors.append(say(error))
        return page.show(400)
    _start_session(row)
    flash(gettext("Welcome, %(username)s! Your account is ready.", username=row["username"]), "ok")
    return redirect(safe_next(form.next.data, url_for("home.home")))


@bp.post("/sign-out")
def sign_out() -> Response:
    check_form(EmptyForm())
    end_session()
    session.pop(GUEST_KEY, None)
    flash(gettext("You are signed out."), "ok")
    return redirect(url_for("home.home"))


@bp.get("/")
@login_required
def index() -> str:
    return _render_index()


def _render_index(password_form: ChangePasswordForm | None = None, new_token: str | None = None) -> str:
    return render_template(
        "accounts/index.html",
        password_form=password_form or ChangePasswordForm(formdata=None),
        tokens=[t for t in accounts().tokens_of(current_user.id) if t["revoked_at"] is None],
        codes=accounts().codes_of(current_user.id),
        now_iso=datetime.now(UTC).isoformat(timespec="microseconds"),
        new_token=new_token,
        form=EmptyForm(),
        label_max=TOKEN_LABEL_MAX,
    )


@bp.post("/password")
@login_required
def change_password() -> Page:
    form = ChangePasswordForm()
    if not form.validate():
        return _render_index(password_form=form), 400
    try:
        row = accounts().change_password(current_user.id, form.current.data, form.password.data)
    except AccountError as error:
        field = form.current if error.reason == "password_wrong" else form.password
        field.errors.append(say(error))
        if error.reason == "password_wrong":
            failed_sign_in()
        return _render_index(password_form=form), 400
    start_session(row)  # this browser stays signed in under the new epoch; others and tokens are ended
    sign_in_limits.proved(row)
    flash(gettext("Your password is changed. Other devices were signed out."), "ok")
    return redirect(url_for("accounts.index"))


@bp.post("/sign-out-everywhere")
@login_required
def sign_out_everywhere() -> Response:
    check_form(EmptyForm())
    accounts().end_sessions(current_user.id)
    logout_user()
    flash(gettext("You are signed out on every device, and your tokens no longer work."), "ok")
    return redirect(url_for("accounts.sign_in"))


@bp.route("/code", methods=["GET", "POST"])
def redeem_code() -> Page:
    form = CodeForm()
    page = FormPage("accounts/code.html", form)
    if (shown := page.shown_or_refused(username=request.args.get("username", ""))) is not None:
        return shown
    try:
        row = accounts().redeem_code(form.username.data, form.code.data, form.password.data)
    except AccountError as error:
        if error.reason == "code_wrong":
            failed_sign_in()
            form.code.errors.append(say(error))
        else:
            form.password.errors.append(say(error))
        return page.show(400)
    if current_user.is_authenticated:
        end_session()
    _start_session(row)
    flash(gettext("Your password is set. You are signed in."), "ok")
    return redirect(url_for("home.home"))


@bp.route("/invitation", methods=["GET", "POST"])
def invitation() -> Page:
    """The code of an instructor's invitation slip: a visitor makes his own account with it (his
    username, his password) and is in the slip's group; a signed-in trainee joins the group with it.
    A wrong code counts as a failed sign-in (the limits on guessing apply)."""
    signed_in = current_user.is_authenticated
    form: InvitationForm | InvitationJoinForm = InvitationJoinForm() if signed_in else InvitationForm()
    page = FormPage("accounts/invitation.html", form, signed_in=signed_in)
    if (shown := page.shown_or_refused()) is not None:
        return shown
    try:
        if isinstance(form, InvitationJoinForm):
            group = invitations().join_with(form.code.data, current_user.id)
        else:
            row = invitations().redeem(
                form.code.data, form.username.data, form.password.data, guest_id=guest_id()
            )
    except AccountError as error:
        if error.reason.startswith("invitation"):
            if error.reason == "invitation_wrong":
                failed_sign_in()
            form.code.errors.append(say(error))
        elif isinstance(form, InvitationForm):
            field = form.password if error.reason.startswith("password") else form.username
            field.errors.append(say(error))
        return page.show(400)
    if isinstance(form, InvitationJoinForm):
        flash(gettext("You joined %(group)s.", group=group["name"]), "ok")
        return redirect(url_for("groups.index"))
    _start_session(row)
    flash(gettext("Welcome, %(username)s! Your account is ready.", username=row["username"]), "ok")
    return redirect(url_for("groups.index"))


@bp.post("/tokens")
@login_required
def new_token() -> str:
    form = TokenForm()
    check_form(form)
    token, _row = accounts().new_token(current_user.id, form.label.data)
    # Shown once on this page, never flashed: the session cookie is signed, not secret.
    return _render_index(new_token=token)


@bp.post("/tokens/<int:token_id>/revoke")
@login_required
def revoke_token(token_id: int) -> Response:
    check_form(EmptyForm())
    if not accounts().revoke_token(current_user.id, token_id):
        abort(404, description=gettext("There is no such token."))
    flash(gettext("The token is revoked."), "ok")
    return redirect(url_for("accounts.index"))

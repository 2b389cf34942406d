"""Forms of the account pages (Flask-WTF, CSRF on each). The rules for usernames and passwords live
in the store (`trainer.store.accounts`), so the forms only ask for the fields to be filled in."""

from __future__ import annotations

from typing import Any

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import HiddenField, PasswordField, StringField
from wtforms.validators import DataRequired, EqualTo, Length

from trainer.store.accounts import TOKEN_LABEL_MAX
from trainer.web.core.forms import PageForm

_FILLED = _l("Fill in this field.")


def _username() -> StringField:
    return StringField(_l("Username"), validators=[DataRequired(_FILLED), Length(max=100)])


def _password(label: Any) -> PasswordField:
    return PasswordField(label, validators=[DataRequired(_FILLED), Length(max=1000)])


def _confirm(label: Any) -> PasswordField:
    """The password typed again, to be the same as the form's `password`."""
    return PasswordField(
        label,
        validators=[DataRequired(_FILLED), EqualTo("password", _l("The two passwords are not the same."))],
    )


class SignInForm(FlaskForm):
    username = _username()
    password = _password(_l("Password"))
    next = HiddenField()


class SignUpForm(FlaskForm):
    username = _username()
    password = _password(_l("Password"))
    confirm = _confirm(_l("Password again"))
    next = HiddenField()


class ChangePasswordForm(FlaskForm):
    current = _password(_l("Current password"))
    password = _password(_l("New password"))
    confirm = _confirm(_l("New password again"))


class CodeForm(FlaskForm):
    """Set a password with a one-time code from an instructor (a hand-over or a reset)."""

    username = _username()
    code = StringField(_l("One-time code"), validators=[DataRequired(_FILLED), Length(max=40)])
    password = _password(_l("New password"))
    confirm = _confirm(_l("New password again"))


class TokenForm(PageForm):
    """A new API token's label (may be empty), at most the store's `TOKEN_LABEL_MAX` characters."""

    label = StringField(
        _l("Label"),
        filters=[lambda text: (text or "").strip()],
        validators=[
            Length(
                max=TOKEN_LABEL_MAX,
                message=_l("A token's label is at most %(max)d\u00a0characters.", max=TOKEN_LABEL_MAX),
            )
        ],
    )


def _invitation_code() -> StringField:
    return StringField(_l("Code from your slip"), validators=[DataRequired(_FILLED), Length(max=40)])


class InvitationForm(FlaskForm):
    """A trainee's own account, made with the code of his instructor's invitation slip."""

    code = _invitation_code()
    username = _username()
    password = _password(_l("Password"))
    confirm = _confirm(_l("Password again"))


class InvitationJoinForm(FlaskForm):
    """A signed-in trainee joins the group of his invitation slip."""

    code = _invitation_code()

"""Forms of the group pages (Flask-WTF, CSRF on each). The rules for names and codes live in the
store (`trainer.store.groups`); the forms check only that the fields are there and in range."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import DecimalField, IntegerField, StringField
from wtforms.validators import DataRequired, InputRequired, Length, NumberRange

from trainer.store.readiness import MAX_WINDOW

_FILLED = _l("Fill in this field.")


class NewGroupForm(FlaskForm):
    name = StringField(_l("Group name"), validators=[DataRequired(_FILLED), Length(max=200)])


class JoinForm(FlaskForm):
    code = StringField(_l("Join code"), validators=[DataRequired(_FILLED), Length(max=40)])


class AddMemberForm(FlaskForm):
    username = StringField(_l("Username"), validators=[DataRequired(_FILLED), Length(max=100)])


class RulesForm(FlaskForm):
    """The preset per game comes as `rules-<game id>` fields, read against the registry by the view."""


class TargetForm(FlaskForm):
    game = StringField(validators=[DataRequired()])
    accuracy = IntegerField(
        _l("Right answers, per cent"), validators=[InputRequired(_FILLED), NumberRange(1, 100)]
    )
    window = IntegerField(
        _l("Over the last answers"), validators=[InputRequired(_FILLED), NumberRange(1, MAX_WINDOW)]
    )
    min_level = IntegerField(_l("From level"), validators=[InputRequired(_FILLED), NumberRange(1, 3)])
    median_seconds = DecimalField(
        _l("Median time under, seconds"), places=1, validators=[InputRequired(_FILLED), NumberRange(0.5, 600)]
    )

"""The trainee's forms (Flask-WTF, CSRF on every one). Views validate, then call drills and the store."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import HiddenField, IntegerField, StringField
from wtforms.validators import AnyOf, InputRequired, NumberRange, Regexp

SPRINT_LENGTHS = (10, 20, 30)
SPRINT_SECONDS = (60, 90, 120, 180)
DEFAULT_SPRINT_SECONDS = 90


class LanguageForm(FlaskForm):
    lang = StringField(validators=[InputRequired()])
    next = HiddenField()


class AnswerForm(FlaskForm):
    """The answer to one drill. The answer fields themselves depend on the drill's answer format, so
    they are read from the request by `answers.read_answer`; this form carries the CSRF token and
    the drill id."""

    drill = StringField(validators=[InputRequired(), Regexp(r"^[0-9A-Za-z_-]{1,64}$")])
    started = HiddenField()


class SprintForm(FlaskForm):
    kind = StringField(validators=[InputRequired()])
    level = IntegerField(_l("Level"), validators=[InputRequired(), NumberRange(1, 3)])
    length = IntegerField(_l("Questions"), validators=[InputRequired(), AnyOf(SPRINT_LENGTHS)])
    seconds = IntegerField(_l("Time (seconds)"), validators=[InputRequired(), AnyOf(SPRINT_SECONDS)])


class EmptyForm(FlaskForm):
    """Only the CSRF token: buttons such as "skip" and "finish"."""

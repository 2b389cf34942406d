"""The live class's forms: starting a session, joining one by its code, the instructor's controls."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import IntegerField, SelectField, SelectMultipleField, StringField
from wtforms.validators import AnyOf, InputRequired, NumberRange

from trainer.store.live import MAX_QUESTIONS, SCORINGS

SECONDS_CHOICES = (0, 10, 15, 20, 30, 45, 60, 90)  # 0: the instructor paces (no clock)
CONTROLS = ("start", "next", "pause", "resume", "reveal", "end")


class NewLiveForm(FlaskForm):
    group = SelectField(_l("Group"), coerce=int, validators=[InputRequired()])
    kinds = SelectMultipleField(_l("Drills"), validators=[InputRequired()])
    level = IntegerField(_l("Level"), default=1, validators=[InputRequired(), NumberRange(1, 3)])
    questions = IntegerField(
        _l("Questions"), default=10, validators=[InputRequired(), NumberRange(1, MAX_QUESTIONS)]
    )
    seconds = SelectField(_l("Seconds per question"), coerce=int, default=20)
    scoring = SelectField(_l("Points"), default="fast", validators=[AnyOf(SCORINGS)])


class JoinLiveForm(FlaskForm):
    code = StringField(_l("Session code"), validators=[InputRequired()])


class ControlForm(FlaskForm):
    action = StringField(validators=[InputRequired(), AnyOf(CONTROLS)])


class LiveAnswerForm(FlaskForm):
    """The CSRF token and the question answered; the answer fields follow the question's format."""

    question = IntegerField(validators=[InputRequired(), NumberRange(1)])

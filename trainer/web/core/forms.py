"""The trainee's forms (Flask-WTF, CSRF on every one). Views validate, then call drills and the store."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import HiddenField, IntegerField, StringField
from wtforms.validators import AnyOf, InputRequired, NumberRange, Regexp

SPRINT_LENGTHS = (10, 20, 30)
SPRINT_SECONDS = (60, 90, 120, 180)
DEFAULT_SPRINT_SECONDS = 90


def whole_number(raw: str | None, digits: int = 9) -> int | None:
    """A whole number typed into a form field, or None when it is not one: ASCII digits only, at most
    `digits` of them. "²" and "٣" pass `str.isdigit()`, and `int()` refuses the one and reads the
    other; thousands of digits make `int()` raise or SQLite overflow.

    >>> [whole_number(text) for text in ("12", " 7 ", "²", "٣", "9" * 4301, "-1", "")]
    [12, 7, None, None, None, None, None]
    """
    text = (raw or "").strip()
    if not (text.isascii() and text.isdigit()) or len(text) > digits:
        return None
    return int(text)


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

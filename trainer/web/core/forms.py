"""The trainee's forms (Flask-WTF, CSRF on every one). Views validate, then call drills and the store.

`PageForm` is the base of a form whose validators say their own translated sentence: `check_form`
refuses such a form with its first field error (WTForms' own messages have no Georgian catalog, so
only forms built on `PageForm`, every validator with a message, are shown this way)."""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from typing import Any, ClassVar

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import Field, HiddenField, IntegerField, StringField
from wtforms.validators import AnyOf, InputRequired, NumberRange, Regexp, StopValidation

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


class PageForm(FlaskForm):
    """A page form whose every validator says a translated sentence, shown when it refuses."""

    says_why: ClassVar[bool] = True


class WholeNumber(StringField):
    """An optional whole number (`whole_number`): `data` is the number, or None when the field is
    empty or absent; anything else is refused with `message`."""

    def __init__(self, *args: Any, message: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.message = message

    def process_formdata(self, valuelist: list[Any]) -> None:
        self.raw_data = valuelist
        text = valuelist[0] if valuelist else ""
        self.data = whole_number(text)
        if self.data is None and text.strip():
            raise ValueError(str(self.message))


class WholeNumbers(Field):
    """Every value of a repeated field (`drill=4&drill=7`) as whole numbers; one that is not refuses
    the form with `message`."""

    def __init__(self, *args: Any, message: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.message = message

    def process_formdata(self, valuelist: list[Any]) -> None:
        numbers = [whole_number(value) for value in valuelist]
        self.data = [n for n in numbers if n is not None]
        if len(self.data) != len(numbers):
            raise ValueError(str(self.message))


def when_sent(field: Field) -> bool:
    """Whether the request carried the field at all (an absent field is left as it is)."""
    return bool(field.raw_data)


class OneOf:
    """A validator: the field, when it was sent, holds one of `allowed`; else `message(value)`, a
    translated sentence that may name the value. An absent field passes (it is left as it is)."""

    def __init__(self, allowed: Collection[str], message: Callable[[str], str]) -> None:
        self.allowed, self.message = allowed, message

    def __call__(self, form: FlaskForm, field: Field) -> None:
        if not when_sent(field):
            raise StopValidation()
        if field.data not in self.allowed:
            raise StopValidation(str(self.message(field.data)))


def rules_fields(allowed: Mapping[str, Collection[str]], message: Callable[[str], str]) -> dict[str, Field]:
    """One optional field `rules-<game>` per game (attribute `rules_<game>`) naming one of its
    `allowed` presets, for a form class made per request: `type("Form", (PageForm,), fields)`."""
    return {
        f"rules_{game}": StringField(name=f"rules-{game}", validators=[OneOf(names, message)])
        for game, names in allowed.items()
    }


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


def spreadsheet_cell(value: Any) -> Any:
    """A value for a CSV or workbook cell a trainee's text reaches: one starting with = + - @ would
    run as a formula in a spreadsheet, so it is quoted as text."""
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@"):
        return "'" + value
    return value

"""The form that composes an assigned quiz (Flask-WTF, CSRF on). Every field is checked here with a
message in the page's language; the store (`trainer.store.quizzes.Exams.create`) checks the same limits
again for the API and any other caller. Times are entered in the group's time zone
(`trainer.web.core.local_time`) and handed to the store in UTC."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from flask_babel import gettext
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import BooleanField, Field, SelectMultipleField, StringField, TextAreaField
from wtforms.validators import InputRequired, Length, NumberRange, Optional, ValidationError
from wtforms.widgets import NumberInput, TextInput

from trainer.drills import REGISTRY
from trainer.games import GAMES
from trainer.store.quizzes import MAX_ATTEMPTS, MAX_QUESTIONS, MAX_TIME_LIMIT_S
from trainer.web.core.forms import whole_number
from trainer.web.core.local_time import SHOWN, local, to_utc

ENTERED = "%Y-%m-%dT%H:%M"  # what <input type="datetime-local"> sends
_FILLED = _l("Fill in this field.")
_WHOLE_IN_RANGE = _l("Give a whole number from %(min)s to %(max)s.")
OWN_TEXT_MAX = 4000
OWN_MAX = 50


class WholeField(Field):
    """A whole number of ASCII digits (`forms.whole_number`); empty is None."""

    widget = NumberInput()

    def _value(self) -> str:
        return self.raw_data[0] if self.raw_data else ("" if self.data is None else str(self.data))

    def process_formdata(self, valuelist: list[Any]) -> None:
        raw = valuelist[0] if valuelist else ""
        if not str(raw).strip():
            self.data = None
            return
        self.data = whole_number(str(raw))
        if self.data is None:
            raise ValueError(gettext("Give a whole number, such as 40."))


class LocalTimeField(Field):
    """A wall-clock time as <input type="datetime-local"> sends it, in the form's time zone."""

    widget = TextInput()

    def _value(self) -> str:
        if self.raw_data:
            return str(self.raw_data[0])
        return self.data.strftime(ENTERED) if isinstance(self.data, datetime) else ""

    def process_formdata(self, valuelist: list[Any]) -> None:
        raw = str(valuelist[0]).strip() if valuelist else ""
        self.data = None
        if not raw:
            return
        for shape in (ENTERED, ENTERED + ":%S", SHOWN):
            try:
                self.data = datetime.strptime(raw, shape)
                return
            except ValueError:
                continue
        raise ValueError(gettext("Give a date and time such as 2026-12-02 18:30."))


def item_choices() -> list[tuple[str, str]]:
    """Every drill kind and level a quiz may ask, as `kind:level`."""
    return [
        (f"{kind}:{level}", f"{kind}:{level}")
        for game in GAMES
        for kind in game.kinds
        if kind in REGISTRY
        for level in REGISTRY[kind].levels
    ]


class ExamForm(FlaskForm):
    title = StringField(
        _l("Title"),
        validators=[
            InputRequired(_l("Give the quiz a title of at most 80\u00a0characters.")),
            Length(min=1, max=80, message=_l("Give the quiz a title of at most 80\u00a0characters.")),
        ],
    )
    item = SelectMultipleField(_l("Drills and levels"))
    own = TextAreaField(
        _l("Your own questions: Russian poker hands"),
        validators=[
            Length(max=OWN_TEXT_MAX, message=_l("At most %(max)s\u00a0characters.", max=OWN_TEXT_MAX))
        ],
    )
    own_omaha = TextAreaField(
        _l("Your own questions: Omaha showdowns"),
        validators=[
            Length(max=OWN_TEXT_MAX, message=_l("At most %(max)s\u00a0characters.", max=OWN_TEXT_MAX))
        ],
    )
    questions = WholeField(
        _l("Number of questions"),
        default=10,
        validators=[InputRequired(_FILLED), NumberRange(1, MAX_QUESTIONS, message=_WHOLE_IN_RANGE)],
    )
    time_limit_min = WholeField(
        _l("Time limit, minutes (empty: none)"),
        validators=[Optional(), NumberRange(1, MAX_TIME_LIMIT_S // 60, message=_WHOLE_IN_RANGE)],
    )
    attempts_allowed = WholeField(
        _l("Attempts allowed"),
        default=1,
        validators=[InputRequired(_FILLED), NumberRange(1, MAX_ATTEMPTS, message=_WHOLE_IN_RANGE)],
    )
    opens_at = LocalTimeField(_l("Opens"), validators=[InputRequired(_FILLED)])
    closes_at = LocalTimeField(_l("Closes"), validators=[InputRequired(_FILLED)])
    same_questions = BooleanField(
        _l("The same questions for everyone (otherwise a fresh draw for each attempt)")
    )
    answers_before_close = BooleanField(
        _l("Trainees see the right answers as soon as they hand in (otherwise after the quiz closes)")
    )

    def __init__(self, zone: str, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.zone = zone
        self.picks: list[Any] = []  # the kept preview situations, read by the view (`picks`)
        self.item.choices = item_choices()
        self.item.pre_validate = self._known_items  # type: ignore[method-assign]

    def _known_items(self, form: Any) -> None:
        known = {value for value, _ in self.item.choices or []}
        if any(value not in known for value in self.item.data or []):
            raise ValidationError(gettext("Choose at least one drill and level."))

    def validate_item(self, field: Field) -> None:
        if (
            not field.data
            and not self.own_lines(self.own)
            and not self.own_lines(self.own_omaha)
            and not self.picks
        ):
            raise ValidationError(
                gettext("Choose at least one drill and level, or enter your own questions.")
            )

    @staticmethod
    def own_lines(field: Field) -> list[tuple[int, str]]:
        """The lines of an own-questions field that are not empty, numbered from 1."""
        lines = (field.data or "").splitlines()
        return [(n, line.strip()) for n, line in enumerate(lines, start=1) if line.strip()]

    def validate_closes_at(self, field: Field) -> None:
        opens = self.opens_at.data
        if opens is not None and field.data is not None and self.utc(field.data) <= self.utc(opens):
            raise ValidationError(gettext("The quiz must close after it opens."))

    def utc(self, entered: datetime) -> datetime:
        return to_utc(entered, self.zone)

    def fill_defaults(self, now: datetime) -> None:
        """Opens now (to the minute) and closes in a week, in the form's time zone."""
        start = local(now, self.zone)
        assert start is not None
        start = start.replace(second=0, microsecond=0, tzinfo=None)
        self.opens_at.data = start
        self.closes_at.data = start + timedelta(days=7)

    def items(self) -> list[tuple[str, int]]:
        found = []
        for value in self.item.data or []:
            kind, _, level = value.rpartition(":")
            found.append((kind, whole_number(level) or 0))
        return found

    def exam_fields(self) -> dict[str, Any]:
        """The validated fields as `Exams.create` takes them (times in UTC)."""
        minutes = self.time_limit_min.data
        return {
            "title": self.title.data or "",
            "items": self.items(),
            "questions": self.questions.data,
            "time_limit_s": None if not minutes else minutes * 60,
            "attempts_allowed": self.attempts_allowed.data,
            "same_questions": bool(self.same_questions.data),
            "opens_at": self.utc(self.opens_at.data),
            "closes_at": self.utc(self.closes_at.data),
            "answers_before_close": bool(self.answers_before_close.data),
        }

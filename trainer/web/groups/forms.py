"""Forms of the group pages (Flask-WTF, CSRF on each). The rules for names and codes live in the
store (`trainer.store.groups`); the forms check only that the fields are there and in range."""

from __future__ import annotations

from typing import Any

from flask_babel import gettext
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from flask_wtf.file import FileAllowed, FileField
from wtforms import DecimalField, IntegerField, StringField, TextAreaField
from wtforms.validators import DataRequired, InputRequired, Length, NumberRange

from trainer.games import GAMES
from trainer.store.invitations import LIST_BYTES_MAX
from trainer.store.readiness import MAX_WINDOW
from trainer.web.core.forms import PageForm, WholeNumber, rules_fields

_FILLED = _l("Fill in this field.")


class NewGroupForm(FlaskForm):
    name = StringField(_l("Group name"), validators=[DataRequired(_FILLED), Length(max=200)])


class PractiseForForm(PageForm):
    """The group a trainee practises for; empty: none. Not a number: no such group (404)."""

    group = WholeNumber(message=_l("There is no such group."))


def group_rules_form() -> FlaskForm:
    """The house rules of a group, one shipped preset per game sent (a game left out keeps its own)."""
    fields = rules_fields(
        {game.id: game.preset_names() for game in GAMES},
        lambda _name: gettext("There are no such house rules."),
    )
    return type("GroupRulesForm", (PageForm,), fields)()


class RulesTextForm(FlaskForm):
    """An edited copy of house rules; the store's game loader is the one that checks the text."""

    text = TextAreaField(default="")


class ClassListForm(FlaskForm):
    """A class list to make invitations of: names pasted, or a .txt or .csv file (the names are
    read by `trainer.store.invitations.read_names`)."""

    names = TextAreaField(_l("Names, one a line"), validators=[Length(max=LIST_BYTES_MAX)])
    names_file = FileField(
        _l("Or a file with the names"),
        validators=[
            FileAllowed(
                ["txt", "csv"], _l("Choose a file ending in %(txt)s or %(csv)s.", txt=".txt", csv=".csv")
            )
        ],
    )

    def validate(self, extra_validators: Any = None) -> bool:
        if not super().validate(extra_validators):
            return False
        if not (self.names.data or "").strip() and not self.names_file.data:
            self.names.errors = [gettext("Paste the names, or choose a file with them.")]
            return False
        return True


class JoinForm(FlaskForm):
    code = StringField(_l("Join code"), validators=[DataRequired(_FILLED), Length(max=40)])


# WTForms' own messages ("Not a valid integer value.", "Number must be between ...") have no Georgian
# catalog: the target form says its own, translated ones.
_WHOLE_IN_RANGE = _l("Give a whole number from %(min)s to %(max)s.")
_NUMBER_IN_RANGE = _l("Give a number from %(min)s to %(max)s, such as 7.5.")


class _Whole(IntegerField):
    def process_formdata(self, valuelist: list[Any]) -> None:
        try:
            super().process_formdata(valuelist)
        except ValueError:
            raise ValueError(gettext("Give a whole number, such as 40.")) from None


class _Number(DecimalField):
    def process_formdata(self, valuelist: list[Any]) -> None:
        try:
            super().process_formdata(valuelist)
        except ValueError:
            raise ValueError(gettext("Give a number, such as 7.5.")) from None


def _within(low: float, high: float, message: Any = _WHOLE_IN_RANGE) -> NumberRange:
    return NumberRange(low, high, message=message)


class TargetForm(FlaskForm):
    game = StringField(validators=[DataRequired()])
    accuracy = _Whole(_l("Right answers, per cent"), validators=[InputRequired(_FILLED), _within(1, 100)])
    window = _Whole(_l("Over the last answers"), validators=[InputRequired(_FILLED), _within(1, MAX_WINDOW)])
    min_level = _Whole(_l("From level"), validators=[InputRequired(_FILLED), _within(1, 3)])
    median_seconds = _Number(
        _l("Median time under, seconds"),
        places=1,
        validators=[InputRequired(_FILLED), _within(0.5, 600, _NUMBER_IN_RANGE)],
    )

"""Forms of the trainee's practice pages (Flask-WTF, CSRF on each): one drill's level, the house
rules chosen per game, today's game, a sprint's question and the self-check quiz's questions. Each
refuses a tampered field with its own sentence (`PageForm`); the answers themselves are read by
`trainer.web.situations.answers` (see docs/architecture.md, "How a page reads a form")."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from flask_babel import gettext
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import Field, HiddenField, StringField
from wtforms.validators import StopValidation

from trainer.drills.base import DrillKind
from trainer.web.core.forms import OneOf, PageForm, WholeNumber, WholeNumbers, rules_fields
from trainer.web.situations.catalog import level_refusal

QUIZ_CHANGED = _l("The quiz form was changed. Reload the page and answer again.")


def level_form(kind: DrillKind) -> FlaskForm:
    """The level of a new drill of `kind`: one of its levels; left out, its first."""
    message = level_refusal(kind)

    def one_of_the_levels(form: FlaskForm, field: Field) -> None:
        if not field.raw_data:
            field.data = kind.levels[0]
        if field.data not in kind.levels:
            raise StopValidation(message)

    class LevelForm(PageForm):
        level = WholeNumber(message=message, validators=[one_of_the_levels])

    return LevelForm()


def rules_choice_form(allowed: dict[str, Collection[str]]) -> FlaskForm:
    """The house rules a trainee practises each game under (`allowed`: per game, its presets and ""
    for the default) and the page to go back to."""
    fields: dict[str, Any] = rules_fields(
        allowed, lambda name: gettext("There are no house rules %(name)s.", name=name[:40])
    )
    fields["next"] = HiddenField()
    return type("RulesChoiceForm", (PageForm,), fields)()


def today_form(games: Collection[str]) -> FlaskForm:
    """Today's practice of one game (or of every game: empty or left out)."""

    class TodayForm(PageForm):
        game = StringField(validators=[OneOf({"", *games}, lambda _name: gettext("There is no such game."))])

    return TodayForm()


class SprintQuestionForm(PageForm):
    """The sprint question a form answers or skips; an id of another question is a stale tab."""

    drill = WholeNumber(message=_l("The answer was sent for another question. Reload the page."))


class SelfCheckForm(PageForm):
    """The questions of one take of the self-check quiz (their answers are read per answer format)."""

    drill = WholeNumbers(message=QUIZ_CHANGED)

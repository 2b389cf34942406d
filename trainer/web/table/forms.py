"""Forms of the live table and the table test (Flask-WTF, CSRF on each): a new round, a new test,
the step an answer is for. The answer of a step is read per answer format by
`trainer.web.situations.answers` (see docs/architecture.md, "How a page reads a form")."""

from __future__ import annotations

from flask_wtf import FlaskForm
from wtforms import IntegerField, StringField
from wtforms.validators import AnyOf, InputRequired, Length, NumberRange, Optional

from trainer.drills.chips import PAYOUT_FORMS
from trainer.drills.rounds import GAMES


class NewRoundForm(FlaskForm):
    game = StringField(validators=[InputRequired(), AnyOf(GAMES)])
    level = IntegerField(validators=[InputRequired(), NumberRange(1, 3)])
    seats = IntegerField(validators=[Optional(), NumberRange(1, 10)])
    payout = StringField(validators=[Optional(), AnyOf(PAYOUT_FORMS)])
    rules = StringField(validators=[Optional(), Length(max=40)])  # a preset the game's rounds deal


class NewTestForm(FlaskForm):
    game = StringField(validators=[InputRequired(), AnyOf(GAMES)])
    level = IntegerField(validators=[InputRequired(), NumberRange(1, 3)])


class StepForm(FlaskForm):
    step = IntegerField(validators=[InputRequired(), NumberRange(0, 100000)])

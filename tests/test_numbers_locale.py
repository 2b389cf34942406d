"""Numbers as each language writes them (issue 29): every amount, value, percentage and duration goes
through Babel for the page's locale, the same in sentences, on tables and in the templates' own
messages, and a number stays on one line with its unit."""

from __future__ import annotations

import pytest
from conftest import make_app
from flask import render_template_string
from flask_babel import force_locale

from trainer.engine.explain import Percent, Step, step
from trainer.web.core.i18n import (
    NBSP,
    number_text,
    percent_text,
    render,
    seconds_text,
    signed_text,
)


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    path = tmp_path_factory.mktemp("numbers") / "trainer.sqlite"
    return make_app(DATABASE=str(path))


def written(app, lang, fn, *args):
    with app.test_request_context(), force_locale(lang):
        return fn(*args)


@pytest.mark.parametrize(
    ("lang", "amount", "value", "share", "duration"),
    [
        ("en", "21,000", "-1.000", "9.546%", "0.5" + NBSP + "s"),
        ("ru", "21" + NBSP + "000", "-1,000", "9,546" + NBSP + "%", "0,5" + NBSP + "с"),
        ("ka", "21" + NBSP + "000", "-1,000", "9,546%", "0,5" + NBSP + "წმ"),
    ],
)
def test_each_kind_of_number_in_each_language(app, lang, amount, value, share, duration):
    assert written(app, lang, number_text, 21000) == amount
    assert written(app, lang, signed_text, -1.0) == value
    assert written(app, lang, percent_text, 0.09546, 3) == share
    assert written(app, lang, seconds_text, 500) == duration


def test_values_in_antes_keep_their_sign_and_decimals(app):
    assert written(app, "ru", signed_text, 0.3634) == "+0,363"
    assert written(app, "en", number_text, 0.5, 1) == "0.5"
    assert written(app, "ru", number_text, 2.0) == "2"  # a float shows no needless decimals


def test_sentences_write_their_numbers_for_the_locale(app):
    """The advisor's 'Fold: -1.000 antes' read in Russian as minus a thousand antes."""
    fold = step("Fold: {ev} antes.", ev=-1.0)
    edge = step(
        "Under best play the house keeps {edge} of the ante ({confidence} interval {low} to {high}; "
        "random deals valued exactly: {deals}).",
        edge=Percent(0.09546, 3),
        confidence=Percent(0.95),
        low=Percent(0.08246, 3),
        high=Percent(0.10845, 3),
        deals=40000,
    )
    with app.test_request_context(), force_locale("ru"):
        assert "-1,000" in render(fold) and "-1.000" not in render(fold)
        text = render(edge)
        assert "9,546" + NBSP + "%" in text and "40" + NBSP + "000" in text, text
    # The stored form (JSON) keeps the kinds, so an answer reviewed later is written the same way.
    assert Step.from_json(edge.to_json()) == edge


def test_template_messages_write_their_numbers_for_the_locale(app):
    """A number handed to _() in a template ("Pot: %(amount)s") is grouped as the locale groups it;
    inserted text is still escaped."""
    source = '{{ _("Pot: %(amount)s", amount=21000) }}|{{ _("Seat %(seat)s", seat="<b>") }}'
    with app.test_request_context(), force_locale("ru"):
        pot, seat = render_template_string(source).split("|")
    assert pot.endswith("21" + NBSP + "000"), pot
    assert "&lt;b&gt;" in seat


@pytest.mark.parametrize("lang", ["ka", "ru"])
def test_odds_and_seconds_never_break_from_their_unit(app, lang):
    """ "100 1-ზე" broke as "100 1-" / "ზე": the catalog joins a number and its "to 1" with no-break
    spaces, and a duration with its unit."""
    with app.test_request_context(), force_locale(lang):
        odds = render_template_string('{{ _("%(odds)s to 1", odds=100) }}')
        time = render_template_string('{{ _("Time taken: %(seconds)s s", seconds=num(12.5, 1)) }}')
    assert " " not in odds, repr(odds)
    assert ("12,5" + NBSP) in time, repr(time)
